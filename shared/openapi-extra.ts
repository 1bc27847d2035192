/**
 * Request and response shapes of the routes that are not operations (they answer in their own protocols'
 * shapes, not the envelope): the paymail host, the local node's ARC/WhatsOnChain/development routes and
 * the live event stream. Keyed by `METHOD path` as the routes are registered.
 */
type Schema = Record<string, unknown>;
export interface ExtraShape {
  request?: Schema;
  response: Schema;
  /** The response's media type when not JSON. */
  contentType?: string;
}

const str = { type: 'string' };
const int = { type: 'integer' };
const bool = { type: 'boolean' };
const obj = (properties: Record<string, Schema>, required: string[] = Object.keys(properties)): Schema => ({ type: 'object', properties, required });
const arr = (items: Schema): Schema => ({ type: 'array', items });

const metadata = obj({ sender: str, pubkey: str, signature: { type: 'string', description: 'BSM signature of the txid (base64)' }, note: str }, []);
const received = obj({ txid: str, note: str });
const P = '/api/bsvalias';
const WOC = '/chain/woc/v1/bsv/local';
const arcStatus = obj({ txid: str, txStatus: str, blockHash: str, blockHeight: int, extraInfo: str, status: int, title: str, timestamp: str }, ['txid', 'txStatus']);

export const EXTRA_SHAPES: Record<string, ExtraShape> = {
  'GET /.well-known/bsvalias': { response: obj({ bsvalias: { const: '1.0' }, capabilities: { type: 'object', additionalProperties: { type: ['string', 'boolean'] } } }) },
  [`GET ${P}/id/:handle`]: { response: obj({ bsvalias: str, handle: str, pubkey: { type: 'string', pattern: '^0[23][0-9a-f]{64}$' } }) },
  [`GET ${P}/verify-pubkey/:handle/:pubkey`]: { response: obj({ bsvalias: str, handle: str, pubkey: str, match: bool }) },
  [`GET ${P}/public-profile/:handle`]: { response: obj({ avatar: { type: ['string', 'null'] }, name: str }) },
  [`POST ${P}/address/:handle`]: { request: obj({ senderHandle: str, dt: str, senderName: str, amount: int, purpose: str, signature: str }, ['senderHandle', 'dt']), response: obj({ output: str }) },
  [`POST ${P}/p2p-payment-destination/:handle`]: { request: obj({ satoshis: int }), response: obj({ outputs: arr(obj({ script: str, satoshis: int })), reference: str }) },
  [`POST ${P}/receive-transaction/:handle`]: { request: obj({ hex: str, reference: str, metadata }, ['hex', 'reference']), response: received },
  [`POST ${P}/beef/:handle`]: { request: obj({ beef: { type: 'string', description: 'BEEF (BRC-62), hex' }, reference: str, metadata }, ['beef', 'reference']), response: received },
  'GET /v1/events': { contentType: 'text/event-stream', response: { type: 'string', description: 'Server-Sent Events: `id`, `event` (the type), `data` (JSON); see the README\'s Live events' } },
  'POST /chain/arc/v1/tx': { request: obj({ rawTx: str }), response: arcStatus },
  'GET /chain/arc/v1/tx/:txid': { response: { ...arcStatus, properties: { ...(arcStatus.properties as object), merklePath: { type: 'string', description: 'BUMP (BRC-74), hex; empty until mined' } } } },
  'GET /chain/arc/v1/policy': { response: obj({ policy: obj({ maxscriptsizepolicy: int, maxtxsigopscountspolicy: int, maxtxsizepolicy: int, miningFee: obj({ satoshis: int, bytes: int }) }), timestamp: str }) },
  'POST /chain/dev/faucet': { request: obj({ address: str, satoshis: int }), response: obj({ status: str, txid: str }, ['status']) },
  'POST /chain/dev/mine': { request: obj({ blocks: int }, []), response: obj({ height: int, hash: str, txCount: int }, ['height']) },
  'POST /chain/dev/mempool': { response: obj({ size: int }) },
  [`GET ${WOC}/chain/info`]: { response: obj({ chain: str, blocks: int, headers: int, bestblockhash: str }) },
  [`GET ${WOC}/block/headers`]: { response: arr(obj({ hash: str, height: int, merkleroot: str, time: int, previousblockhash: str, confirmations: int, nTx: int })) },
  [`GET ${WOC}/block/:height/header`]: { response: obj({ hash: str, height: int, version: int, merkleroot: str, time: int, bits: str, nonce: int, previousblockhash: str, confirmations: int, nTx: int }) },
  [`GET ${WOC}/address/:address/unspent`]: { response: arr(obj({ height: int, tx_pos: int, tx_hash: str, value: int })) },
  [`GET ${WOC}/address/:address/history`]: { response: arr(obj({ tx_hash: str, height: int })) },
  [`GET ${WOC}/address/:address/balance`]: { response: obj({ confirmed: int, unconfirmed: int }) },
  [`GET ${WOC}/tx/:txid/hex`]: { contentType: 'text/plain', response: { type: 'string', description: 'the raw transaction, hex' } },
  [`POST ${WOC}/tx/raw`]: { request: obj({ txhex: str }), response: { type: 'string', description: 'the txid' } },
  [`GET ${WOC}/exchangerate`]: { response: obj({ currency: str, rate: { type: 'number' }, time: int }) },
};
