import { z } from 'zod';
import { defineRoute, type RouteTag } from '../route.js';

/**
 * The embedded node's routes, in the shapes of the services it stands in for (ARC, WhatsOnChain) and the
 * development chain's faucet and miner, each defined once: path, parameters, body, answer, and the answer
 * to a request its schemas refuse (the foreign protocol's own error shape, as those services answer).
 */
const LOCAL_NODE: RouteTag = {
  name: 'local node',
  description:
    "The embedded node's public face: ARC under /chain/arc, WhatsOnChain under /chain/woc/v1/bsv/local and the development chain's faucet and miner, so @bsv/sdk's broadcaster and chain tracker, or another Keystead, can use it unchanged. Answers in those services' shapes, not the envelope.",
};

/** The most one faucet request of a development chain may ask for. */
export const MAX_FAUCET = 1_000_000_000;

export const WOC_PATH = '/chain/woc/v1/bsv/local';

const str = z.string();
const int = z.number().int();
/** Hex, though surrounding white space is forgiven (the transaction is read as sent). */
const hex = z.string().refine((s) => /^[0-9a-fA-F]+$/.test(s.trim()));
const txid = z.object({ txid: z.string().meta({ description: 'A transaction id, hex' }) });
const address = z.object({ address: z.string().meta({ description: 'A P2PKH address' }) });
/** ARC's problem details, the shape of its refusals. */
const badRequest = (detail: string) => ({ status: 400, body: { status: 400, title: 'Bad request', detail } });

/** A development route's body when it is not a JSON object: read as `{}`, so its fields take their defaults. */
const objectOrEmpty = <T extends z.ZodObject>(schema: T) =>
  z.preprocess((body) => (body !== null && typeof body === 'object' && !Array.isArray(body) ? body : {}), schema);

const arcStatus = z.object({
  txid: str,
  txStatus: str,
  blockHash: str.optional(),
  blockHeight: int.optional(),
  extraInfo: str.optional(),
  status: int.optional(),
  title: str.optional(),
  timestamp: str.optional(),
});

const blockHeader = z.object({
  hash: str,
  height: int,
  version: int,
  merkleroot: str,
  time: int,
  bits: str,
  nonce: int,
  previousblockhash: str,
  confirmations: int,
  nTx: int,
});

const node = { tag: LOCAL_NODE, auth: 'node key' } as const;

export const CHAIN_ROUTES = {
  arcBroadcast: defineRoute({
    ...node,
    method: 'POST',
    path: '/chain/arc/v1/tx',
    summary: "ARC: broadcast a transaction; it answers with its status, or ARC's problem details when refused.",
    body: z.union([z.object({ rawTx: hex }).transform((b) => b.rawTx), hex.meta({ description: 'or the hex alone, as text/plain' })]),
    response: arcStatus,
    refusal: badRequest('Send {"rawTx": "<hex>"} as JSON, or the hex as text/plain.'),
  }),
  arcStatus: defineRoute({
    ...node,
    method: 'GET',
    path: '/chain/arc/v1/tx/:txid',
    params: txid,
    summary: "ARC: a transaction's status, with its merkle path once mined.",
    response: arcStatus.extend({ merklePath: str.meta({ description: 'BUMP (BRC-74), hex; empty until mined' }) }),
  }),
  arcPolicy: defineRoute({
    ...node,
    method: 'GET',
    path: '/chain/arc/v1/policy',
    summary: "ARC: the node's policy, with its mining fee.",
    response: z.object({
      policy: z.object({
        maxscriptsizepolicy: int,
        maxtxsigopscountspolicy: int,
        maxtxsizepolicy: int,
        miningFee: z.object({ satoshis: int, bytes: int }),
      }),
      timestamp: str,
    }),
  }),
  faucet: defineRoute({
    ...node,
    method: 'POST',
    path: '/chain/dev/faucet',
    summary: 'Development chain: send test coins to an address.',
    body: z.object({ address: str, satoshis: int.positive().max(MAX_FAUCET) }),
    response: z.object({ status: str, txid: str.optional() }),
    refusal: badRequest(`Send {"address", "satoshis"} (1 to ${MAX_FAUCET}).`),
  }),
  mine: defineRoute({
    ...node,
    method: 'POST',
    path: '/chain/dev/mine',
    summary: 'Development chain: mine the mempool into new blocks now (one when `blocks` is not given).',
    // Whatever Number() makes of `blocks` (as this route always read it); one when it is absent or null.
    body: objectOrEmpty(z.object({ blocks: z.preprocess((n) => n ?? undefined, z.coerce.number().int().min(1).max(100).default(1)) })),
    response: z.object({ height: int, hash: str, txCount: int }),
    refusal: badRequest('blocks: 1 to 100'),
  }),
  mempool: defineRoute({
    ...node,
    method: 'POST',
    path: '/chain/dev/mempool',
    summary: "Development chain: the number of transactions in the node's mempool.",
    response: z.object({ size: int }),
  }),
  wocInfo: defineRoute({
    ...node,
    method: 'GET',
    path: `${WOC_PATH}/chain/info`,
    summary: "WhatsOnChain: the chain's tip.",
    response: z.object({ chain: str, blocks: int, headers: int, bestblockhash: str }),
  }),
  wocHeaders: defineRoute({
    ...node,
    method: 'GET',
    path: `${WOC_PATH}/block/headers`,
    summary: 'WhatsOnChain: the last ten block headers, newest first.',
    response: z.array(blockHeader),
  }),
  wocHeader: defineRoute({
    ...node,
    method: 'GET',
    path: `${WOC_PATH}/block/:height/header`,
    params: z.object({ height: z.string().regex(/^\d+$/).meta({ description: 'A block height' }) }),
    summary: 'WhatsOnChain: the header of the block at a height, enough to rebuild its 80 bytes.',
    response: blockHeader,
    refusal: { status: 404, body: { error: 'block not found' } },
  }),
  wocUnspent: defineRoute({
    ...node,
    method: 'GET',
    path: `${WOC_PATH}/address/:address/unspent`,
    params: address,
    summary: "WhatsOnChain: an address's unspent outputs.",
    response: z.array(z.object({ height: int, tx_pos: int, tx_hash: str, value: int })),
  }),
  wocHistory: defineRoute({
    ...node,
    method: 'GET',
    path: `${WOC_PATH}/address/:address/history`,
    params: address,
    summary: 'WhatsOnChain: the transactions touching an address (height 0: unconfirmed).',
    response: z.array(z.object({ tx_hash: str, height: int })),
  }),
  wocBalance: defineRoute({
    ...node,
    method: 'GET',
    path: `${WOC_PATH}/address/:address/balance`,
    params: address,
    summary: "WhatsOnChain: an address's confirmed and unconfirmed balance in satoshis.",
    response: z.object({ confirmed: int, unconfirmed: int }),
  }),
  wocTxHex: defineRoute({
    ...node,
    method: 'GET',
    path: `${WOC_PATH}/tx/:txid/hex`,
    params: txid,
    summary: 'WhatsOnChain: a raw transaction, hex.',
    response: str.meta({ description: 'the raw transaction, hex' }),
    responseType: 'text/plain',
  }),
  wocSpent: defineRoute({
    ...node,
    method: 'GET',
    path: `${WOC_PATH}/tx/:txid/:vout/spent`,
    params: txid.extend({
      vout: z
        .string()
        .regex(/^\d{1,9}$/)
        .meta({ description: 'An output index' }),
    }),
    summary: 'WhatsOnChain: the transaction that spent an output (404 while it is unspent).',
    response: z.object({ txid: str, vin: int, status: str }),
    refusal: { status: 404, body: { error: 'not spent' } },
  }),
  wocBroadcast: defineRoute({
    ...node,
    method: 'POST',
    path: `${WOC_PATH}/tx/raw`,
    summary: 'WhatsOnChain: broadcast a transaction; the answer is its txid, or why it was refused, as text.',
    body: z.object({ txhex: str }),
    response: str.meta({ description: 'the txid' }),
    responseType: 'text/plain',
    refusal: { status: 400, body: 'send {"txhex": "<hex>"}' },
  }),
  wocExchangeRate: defineRoute({
    ...node,
    method: 'GET',
    path: `${WOC_PATH}/exchangerate`,
    summary: 'WhatsOnChain: the USD rate Keystead holds (404 when none is set).',
    response: z.object({ currency: str, rate: z.number(), time: int }),
  }),
};
