import { PrivateKey } from '@bsv/sdk';
import { DomainError } from '../../../shared/errors.js';
import type { ParsedInputOf, OutputOf } from '../../../shared/operation.js';
import type { LookupCoin, OPERATIONS } from '../../../shared/operations.js';
import { NFT_PROTOCOL_IDS } from '../../../shared/token-schemas.js';
import type { ChainUtxo } from '../../chain/types.js';
import type { TokenUtxo } from '../../store/repos/tokens.js';
import type { OpContext } from '../context.js';
import { rateFor, toCurrencyExact } from '../rates/rates.js';
import { resolveWallet } from '../wallets/resolve.js';
import { addressOfPkh } from './ledger.js';
import type { TokenServices } from './services.js';

type Filter = ParsedInputOf<typeof OPERATIONS.lookup>['type'];
type Paging = Pick<ParsedInputOf<typeof OPERATIONS.lookup>, 'nextPageToken' | 'maxResults' | 'compact' | 'currency' | 'type'>;

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
 * Token entries in the lookup's coins shape, from token outputs the books hold (only proven ones count):
 * per token (compact) with `amount` in tokens (for an NFT the number of serials held) and `sn` the serials,
 * or one entry per output.
 */
function tokenCoins(services: TokenServices, held: TokenUtxo[], type: Filter, compact: boolean): LookupCoin[] {
  const proven = held.filter((u) => u.validity === 'valid' && (type === 'ALL' || type === u.protocol));
  const entry = (u: TokenUtxo): LookupCoin | null => {
    const t = services.repos.tokens.get(u.tokenId);
    if (!t) return null;
    const schema = JSON.parse(t.schema) as { image?: string };
    return {
      protocol: u.protocol,
      tokenId: t.tokenId,
      splittable: t.splittable,
      name: t.name,
      address: u.address,
      satsPerToken: t.satsPerToken,
      symbol: t.symbol,
      redeemAddr: addressOfPkh(t.redemptionPkh),
      image: schema.image ?? '',
      amount: NFT_PROTOCOL_IDS.includes(u.protocol) ? 1 : Math.floor(u.satoshis / t.satsPerToken),
      supply: t.supply,
      decimals: t.decimals,
      sn: u.sn !== null ? [u.sn] : [],
    };
  };
  if (!compact) {
    return proven.flatMap((u) => {
      const e = entry(u);
      return e ? [{ ...e, txid: u.txid, vout: u.vout, height: u.height }] : [];
    });
  }
  const byToken = new Map<string, LookupCoin>();
  for (const u of proven) {
    const e = entry(u);
    if (!e) continue;
    const sum = byToken.get(u.tokenId);
    if (!sum) byToken.set(u.tokenId, e);
    else {
      sum.amount = (sum.amount ?? 0) + (e.amount ?? 0);
      sum.sn = [...(sum.sn ?? []), ...(e.sn ?? [])].sort((a, b) => a - b);
      if (sum.address !== e.address) sum.address = undefined;
    }
  }
  return [...byToken.values()];
}

function page(bsv: LookupCoin | null, items: LookupCoin[], p: Paging) {
  const slice = items.slice(p.nextPageToken, p.nextPageToken + p.maxResults);
  const next = p.nextPageToken + p.maxResults;
  return { coins: bsv ? [bsv, ...slice] : slice, meta: { nextPageToken: next < items.length ? next : null } };
}

/**
 * The balance held at a private key's address: BSV from the chain, tokens from the organisation's books
 * (outputs received at that address and proven). The BSV entry first, then token entries (or each output
 * with compact=false), paged by nextPageToken/maxResults in a stable order.
 */
export async function lookup(
  ctx: OpContext<TokenServices>,
  input: ParsedInputOf<typeof OPERATIONS.lookup>,
): Promise<OutputOf<typeof OPERATIONS.lookup>> {
  const { services } = ctx;
  const key = parsePrivateKey(input.privateKey);
  const address = key.toAddress();
  const rate = await rateFor(services, input.currency);
  const wantBsv = input.type === 'ALL' || input.type === 'BSV';
  let utxos: ChainUtxo[] = [];
  let total = 0;
  try {
    // Compact answers need only the sum: asked for as such, not by listing 10,000 coins.
    if (input.compact) total = wantBsv ? await services.chain.getBalance(address) : 0;
    else utxos = await services.chain.getUtxos(address);
  } catch (err) {
    throw new DomainError('CHAIN_UNAVAILABLE', `The ${services.chain.network} provider did not answer: ${(err as Error).message}`);
  }
  // A provider that lists token outputs among an address's coins must not make them BSV: each coin is
  // counted under its real protocol (the token entries come from the token books).
  utxos = utxos.filter((u) => !services.tokenTemplates.recognise(u.script));
  if (!input.compact) total = utxos.reduce((s, u) => s + u.satoshis, 0);
  const bsvItems: LookupCoin[] =
    wantBsv && !input.compact
      ? [...utxos]
          .sort((a, b) => (a.height ?? Infinity) - (b.height ?? Infinity) || a.txid.localeCompare(b.txid) || a.vout - b.vout)
          .map((u) => ({ protocol: 'BSV', balance: u.satoshis, txid: u.txid, vout: u.vout, height: u.height, address }))
      : [];
  const items = [...bsvItems, ...tokenCoins(services, services.repos.tokens.heldAt(address), input.type, input.compact)];
  return {
    totalBalance: { currency: rate.currency, balance: wantBsv ? toCurrencyExact(total, rate.rate) : 0 },
    ...page(wantBsv ? { protocol: 'BSV', balance: total, address } : null, items, input),
  };
}

/** A wallet's BSV (spendable and pending) and token holdings, in the lookup's shape. */
export async function balance(
  ctx: OpContext<TokenServices>,
  input: ParsedInputOf<typeof OPERATIONS.balance>,
): Promise<OutputOf<typeof OPERATIONS.balance>> {
  const { services } = ctx;
  const wallet = await resolveWallet(ctx, input.walletId);
  const rate = await rateFor(services, input.currency);
  const wantBsv = input.type === 'ALL' || input.type === 'BSV';
  const b = services.repos.walletUtxos.balance(wallet.id);
  const total = b.confirmed + b.unconfirmed;
  const bsvItems: LookupCoin[] =
    wantBsv && !input.compact
      ? services.repos.walletUtxos.unspent(wallet.id).map((u) => ({
          protocol: 'BSV',
          balance: u.satoshis,
          txid: u.txid,
          vout: u.vout,
          height: u.height,
          address: u.address ?? undefined,
        }))
      : [];
  const items = [...bsvItems, ...tokenCoins(services, services.repos.tokens.held(wallet.id), input.type, input.compact)];
  return {
    walletID: wallet.walletId,
    totalBalance: { currency: rate.currency, balance: wantBsv ? toCurrencyExact(total, rate.rate) : 0 },
    ...page(wantBsv ? { protocol: 'BSV', balance: total } : null, items, input),
  };
}
