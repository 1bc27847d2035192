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
import { bsv21BalanceCoins, bsv21LookupCoins } from '../ordinals/lookup.js';
import { tokenIdOf } from '../token-templates/template.js';
import { tokenOutputsAt } from './address-tokens.js';
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

/** A token output at an address, from the books or the chain, with whether its lineage is proven. */
interface HeldOutput {
  txid: string;
  vout: number;
  tokenId: string;
  protocol: string;
  address: string;
  satoshis: number;
  sn: number | null;
  height: number | null;
  /** Traced back to its issue; false: not traced yet (or too far to trace in one lookup). */
  proven: boolean;
  /** From the script, for a token the books do not know (its lineage not traced). */
  script?: { symbol: string; redemption: string; splittable: boolean };
}

/** How many outputs one lookup traces back to their issue (each at most LOOKUP_TRACE transactions); proofs are kept. */
const LOOKUP_PROOFS = 20;
const LOOKUP_TRACE = 200;

/**
 * Token entries in the lookup's coins shape: per token (compact) with `amount` in tokens (for an NFT the
 * number of serials held) and `sn` the serials, or one entry per output. `proven` says whether the outputs
 * trace back to the token's issue; an output of a token the books do not know and whose lineage is not
 * traced has `amount` in satoshis and no `satsPerToken`.
 */
function tokenCoins(services: TokenServices, held: HeldOutput[], type: Filter, compact: boolean): LookupCoin[] {
  const wanted = held.filter((u) => type === 'ALL' || type === u.protocol);
  const entry = (u: HeldOutput): LookupCoin | null => {
    const t = services.repos.tokens.get(u.tokenId);
    if (!t) {
      if (!u.script) return null;
      return {
        protocol: u.protocol,
        tokenId: u.tokenId,
        splittable: u.script.splittable,
        name: u.script.symbol,
        address: u.address,
        symbol: u.script.symbol,
        redeemAddr: addressOfPkh(u.script.redemption),
        image: '',
        amount: NFT_PROTOCOL_IDS.includes(u.protocol) ? 1 : u.satoshis,
        sn: u.sn !== null ? [u.sn] : [],
        proven: u.proven,
      };
    }
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
      proven: u.proven,
    };
  };
  if (!compact) {
    return wanted.flatMap((u) => {
      const e = entry(u);
      return e ? [{ ...e, txid: u.txid, vout: u.vout, height: u.height }] : [];
    });
  }
  const byToken = new Map<string, LookupCoin>();
  for (const u of wanted) {
    const e = entry(u);
    if (!e) continue;
    // Proven and unproven outputs of one token are never summed together.
    const key = `${u.tokenId}:${u.proven}`;
    const sum = byToken.get(key);
    if (!sum) byToken.set(key, e);
    else {
      sum.amount = (sum.amount ?? 0) + (e.amount ?? 0);
      sum.sn = [...(sum.sn ?? []), ...(e.sn ?? [])].sort((a, b) => a - b);
      if (sum.address !== e.address) sum.address = undefined;
    }
  }
  return [...byToken.values()];
}

/** A wallet's outputs from the books: proven ones count (the others are being traced by the validator). */
const fromBooks = (held: TokenUtxo[]): HeldOutput[] =>
  held
    .filter((u) => u.validity === 'valid')
    .map((u) => ({
      txid: u.txid,
      vout: u.vout,
      tokenId: u.tokenId,
      protocol: u.protocol,
      address: u.address,
      satoshis: u.satoshis,
      sn: u.sn,
      height: u.height,
      proven: true,
    }));

/**
 * The token outputs at an address, whoever holds the key: the books' proven outputs of our wallets, then
 * what the chain shows at the address (tokenOutputsAt), each traced back to its issue within a budget (a
 * look-alike that does not trace back is left out; one not traced yet is listed with `proven: false`).
 */
async function tokensAt(services: TokenServices, address: string): Promise<HeldOutput[]> {
  const { repos } = services;
  const books = repos.tokens.heldAt(address);
  const out = fromBooks(books);
  // Outputs the books decided are not read again; those still being traced are, like any key's.
  const seen = new Set(books.filter((u) => u.validity !== 'unchecked').map((u) => `${u.txid}:${u.vout}`));
  let proofs = 0;
  for (const o of await tokenOutputsAt(services.chain, services.tokenTemplates, address)) {
    if (seen.has(`${o.txid}:${o.vout}`)) continue;
    seen.add(`${o.txid}:${o.vout}`);
    const tokenId = tokenIdOf(o.token);
    let proof = repos.tokens.proof(o.txid, o.vout);
    if (!proof && proofs < LOOKUP_PROOFS) {
      proofs++;
      const valid = await services.tokenValidator.proveOutput(o.txid, o.vout, o.script, LOOKUP_TRACE);
      proof = valid === null ? null : (repos.tokens.proof(o.txid, o.vout) ?? { tokenId, sn: null, valid });
    }
    if (proof && (!proof.valid || proof.tokenId !== tokenId)) continue;
    out.push({
      txid: o.txid,
      vout: o.vout,
      tokenId,
      protocol: o.protocol,
      address,
      satoshis: o.satoshis,
      sn: proof?.sn ?? null,
      height: o.height,
      proven: proof !== null,
      script: { symbol: o.token.symbol, redemption: o.token.redemption, splittable: o.token.splittable },
    });
  }
  return out.sort(
    (a, b) => a.tokenId.localeCompare(b.tokenId) || b.satoshis - a.satoshis || a.txid.localeCompare(b.txid) || a.vout - b.vout,
  );
}

function page(bsv: LookupCoin | null, items: LookupCoin[], p: Paging) {
  const slice = items.slice(p.nextPageToken, p.nextPageToken + p.maxResults);
  const next = p.nextPageToken + p.maxResults;
  return { coins: bsv ? [bsv, ...slice] : slice, meta: { nextPageToken: next < items.length ? next : null } };
}

/**
 * The balance held at a private key's address, all of it read from the chain (whichever provider answers):
 * BSV, and every token output the address holds (tokensAt), whether or not one of our wallets holds the key.
 * The BSV entry first, then token entries (or each output with compact=false), paged by
 * nextPageToken/maxResults in a stable order.
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
  let tokens: HeldOutput[] = [];
  try {
    if (input.type !== 'BSV') tokens = await tokensAt(services, address);
  } catch (err) {
    throw new DomainError('CHAIN_UNAVAILABLE', `The ${services.chain.network} provider did not answer: ${(err as Error).message}`);
  }
  const items = [...bsvItems, ...tokenCoins(services, tokens, input.type, input.compact), ...(await bsv21At(services, address, input))];
  return {
    totalBalance: { currency: rate.currency, balance: wantBsv ? toCurrencyExact(total, rate.rate) : 0 },
    ...page(wantBsv ? { protocol: 'BSV', balance: total, address } : null, items, input),
  };
}

/** The BSV-21 entries of a lookup (engine/ordinals/lookup.ts), when asked for. */
async function bsv21At(services: TokenServices, address: string, input: Paging): Promise<LookupCoin[]> {
  if (input.type !== 'ALL' && input.type !== 'BSV-21') return [];
  try {
    return await bsv21LookupCoins(services.ordinalsIndex, address, input.compact);
  } catch (err) {
    throw new DomainError('CHAIN_UNAVAILABLE', `The ordinals index did not answer: ${(err as Error).message}`);
  }
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
  const items = [
    ...bsvItems,
    ...tokenCoins(services, fromBooks(services.repos.tokens.held(wallet.id)), input.type, input.compact),
    ...(input.type === 'ALL' || input.type === 'BSV-21' ? bsv21BalanceCoins(services.repos.ordinals, wallet.id, input.compact) : []),
  ];
  return {
    walletID: wallet.walletId,
    totalBalance: { currency: rate.currency, balance: wantBsv ? toCurrencyExact(total, rate.rate) : 0 },
    ...page(wantBsv ? { protocol: 'BSV', balance: total } : null, items, input),
  };
}
