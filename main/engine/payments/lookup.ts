import { PrivateKey } from '@bsv/sdk';
import { OPERATIONS, type LookupCoin } from '../../../shared/operations.js';
import type { ParsedInputOf, OutputOf } from '../../../shared/operation.js';
import type { OpContext } from '../context.js';
import type { PaymentServices } from './services.js';
import { DomainError } from '../../../shared/errors.js';
import { rateFor, toCurrency } from '../rates/rates.js';

/** A WIF or 64-hex private key; never logged, never stored. */
export function parsePrivateKey(text: string): PrivateKey {
  const t = text.trim();
  try {
    if (/^[0-9a-fA-F]{64}$/.test(t)) return PrivateKey.fromHex(t);
    return PrivateKey.fromWif(t);
  } catch {
    /* fall through */
  }
  throw new DomainError('VALIDATION_FAILED', 'privateKey: is not a WIF or 64-character hex private key');
}

/**
 * The balance held at a private key's address, straight from the chain: the BSV entry first, then token
 * entries (or, with compact=false, each output), paged by nextPageToken/maxResults in a stable order.
 */
export async function lookup(ctx: OpContext<PaymentServices>, input: ParsedInputOf<typeof OPERATIONS.lookup>): Promise<OutputOf<typeof OPERATIONS.lookup>> {
  const key = parsePrivateKey(input.privateKey);
  const address = key.toAddress();
  const rate = await rateFor(ctx.services, input.currency);
  let utxos;
  try {
    utxos = await ctx.services.chain.getUtxos(address);
  } catch (err) {
    throw new DomainError('CHAIN_UNAVAILABLE', `The ${ctx.services.chain.network} provider did not answer: ${(err as Error).message}`);
  }
  const wantBsv = input.type === 'ALL' || input.type === 'BSV';
  const total = utxos.reduce((s, u) => s + u.satoshis, 0);
  // Token outputs (STAS family) join this list once tokens exist; today every output is plain BSV.
  const items: LookupCoin[] = wantBsv && !input.compact
    ? [...utxos]
        .sort((a, b) => (a.height ?? Infinity) - (b.height ?? Infinity) || a.txid.localeCompare(b.txid) || a.vout - b.vout)
        .map((u) => ({ protocol: 'BSV', balance: u.satoshis, txid: u.txid, vout: u.vout, height: u.height, address }))
    : [];
  const page = items.slice(input.nextPageToken, input.nextPageToken + input.maxResults);
  const coins: LookupCoin[] = wantBsv ? [{ protocol: 'BSV', balance: total, address }, ...page] : page;
  const next = input.nextPageToken + input.maxResults;
  return {
    totalBalance: { currency: rate.currency, balance: wantBsv ? toCurrency(total, rate.rate) : 0 },
    coins,
    meta: { nextPageToken: next < items.length ? next : null },
  };
}
