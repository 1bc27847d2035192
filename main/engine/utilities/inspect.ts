import { Transaction } from '@bsv/sdk';
import { DomainError } from '../../../shared/errors.js';
import type { OutputOf, ParsedInputOf } from '../../../shared/operation.js';
import type { OPERATIONS } from '../../../shared/operations.js';
import { NFT_PROTOCOL_IDS } from '../../../shared/token-schemas.js';
import { addressOfHash160 } from '../../chain/script.js';
import type { OpContext } from '../context.js';
import { tokenIdOf } from '../token-templates/template.js';
import { decodeTransaction, type DecodedTransaction, type DecodeLookups, type TokenInfo } from './decode.js';
import { rawTransaction } from './rawtx.js';
import type { UtilityServices } from './services.js';

type Output = OutputOf<typeof OPERATIONS.inspect>;

/** Previous outputs looked up on the chain per call (each costs a fetch); the books answer the rest. */
const CHAIN_LOOKUPS = 40;

/** The lookups of one call: the token templates and books, the wallets' books, then the chain (bounded, cached). */
export function organisationLookups(services: UtilityServices): DecodeLookups {
  const { repos, tokenTemplates, chain } = services;
  const fetched = new Map<string, Transaction | null>();
  let lookups = 0;
  return {
    token(script, satoshis, outpoint): TokenInfo | null {
      const found = tokenTemplates.recognise(script);
      if (!found) return null;
      const { token } = found;
      const tokenId = tokenIdOf(token);
      const row = repos.tokens.get(tokenId);
      const held = outpoint ? repos.tokens.utxo(outpoint.txid, outpoint.vout) : null;
      const nft = (NFT_PROTOCOL_IDS as readonly string[]).includes(token.protocol);
      return {
        protocol: token.protocol,
        tokenId,
        symbol: token.symbol,
        address: addressOfHash160(token.owner),
        amount: row ? (nft ? 1 : Math.floor(satoshis / row.satsPerToken)) : null,
        verified: held ? held.validity : 'unknown',
        name: row?.name ?? null,
      };
    },
    async previous(txid, vout) {
      const ours = repos.walletUtxos.get(txid, vout) ?? repos.tokens.utxo(txid, vout);
      if (ours) return { satoshis: ours.satoshis, script: ours.script };
      if (!fetched.has(txid)) {
        if (lookups >= CHAIN_LOOKUPS) return null;
        lookups++;
        const hex = repos.payments.attemptFor(txid)?.raw ?? (await chain.getTransactionHex(txid).catch(() => null));
        fetched.set(txid, hex ? Transaction.fromHex(hex) : null);
      }
      const out = fetched.get(txid)?.outputs[vout];
      return out ? { satoshis: out.satoshis ?? 0, script: out.lockingScript.toHex() } : null;
    },
  };
}

/**
 * The public service's summary of a swap offer: what its first input gives (a token, or BSV) and what its
 * first output asks for. For any other transaction it is the same reading, for what it is worth.
 */
function offerDetailOf(t: DecodedTransaction, services: UtilityServices): Output['offerDetails'][number] {
  const given = t.inputs[0]?.previous ?? null;
  const wanted = t.outputs[0] ?? null;
  const spent = t.inputs[0] ? services.repos.tokens.utxo(t.inputs[0].txid, t.inputs[0].vout) : null;
  return {
    address: given?.address ?? null,
    protocol: given?.token?.protocol ?? 'BSV',
    amount: given ? (given.token ? (given.token.amount ?? 0) : given.satoshis) : 0,
    verified: given?.token?.verified === 'valid',
    spent: spent ? spent.status === 'spent' : null,
    tokenId: given?.token?.tokenId ?? null,
    tokenSymbol: given?.token?.symbol ?? null,
    name: given?.token?.name ?? null,
    wantedProtocol: wanted ? (wanted.token?.protocol ?? 'BSV') : null,
    wantedAmount: wanted ? (wanted.token ? wanted.token.amount : wanted.satoshis) : null,
  };
}

/** POST /v1/inspect: decodes the SDK's `dataArray[].swapHex`, a `rawtx`, or the transaction of a `txid`. */
export async function inspect(ctx: OpContext<UtilityServices>, input: ParsedInputOf<typeof OPERATIONS.inspect>): Promise<Output> {
  const hexes = [...(input.dataArray?.map((d) => d.swapHex) ?? []), ...(input.rawtx ? [input.rawtx] : [])];
  if (input.txid) hexes.push((await rawTransaction(ctx.services, input.txid)).rawtx);
  if (!hexes.length)
    throw new DomainError(
      'VALIDATION_FAILED',
      'Send the transactions to decode: {"dataArray": [{"swapHex": "<raw hex>"}]}, {"rawtx": "<raw hex>"} or {"txid": "<txid>"}.',
    );
  const lookups = organisationLookups(ctx.services);
  const transactions: DecodedTransaction[] = [];
  for (const [i, hex] of hexes.entries()) {
    try {
      transactions.push(await decodeTransaction(hex, lookups));
    } catch (err) {
      if (err instanceof DomainError) throw new DomainError(err.code, `Transaction ${i + 1}: ${err.message}`);
      throw err;
    }
  }
  return { transactions, offerDetails: transactions.map((t) => offerDetailOf(t, ctx.services)) };
}
