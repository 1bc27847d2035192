import { LockingScript, Transaction, UnlockingScript } from '@bsv/sdk';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { exchangeOfferItem, offerRecord, offerResult } from '../../../shared/contracts/swaps.js';
import { satoshisOfBsv } from '../../../shared/amount-schema.js';
import { amountText } from '../../../shared/amounts.js';
import { DomainError } from '../../../shared/errors.js';
import type { OutputOf, ParsedInputOf } from '../../../shared/operation.js';
import type { OPERATIONS } from '../../../shared/operations.js';
import { NFT_PROTOCOL_IDS } from '../../../shared/token-schemas.js';
import { isStasProtocol } from '../../../shared/token-protocols.js';
import { addressOfHash160, hash160OfAddress } from '../../chain/script.js';
import type { TokenRow, TokenUtxo } from '../../store/repos/tokens.js';
import type { SwapOfferRow } from '../../store/repos/swap-offers.js';
import type { OpContext } from '../context.js';
import type { SigningAccount } from '../payments/keyring.js';
import { claimChangeAddress, currentFeePolicy } from '../payments/plan.js';
import { isAddress } from '../payments/uri.js';
import { gather, runBatch, templateOf, tokenOf } from '../tokens/send.js';
import { submitTokenSpend } from '../tokens/spend.js';
import { p2pkhScript, utf8Hex, withOwner } from '../token-templates/script-bytes.js';
import type { TokenProtocol, TokenTemplate } from '../token-templates/template.js';
import { resolveWallet, type ResolvedWallet } from '../wallets/resolve.js';
import { serialsWithData, type Offered, type Wanted } from './read.js';
import type { SwapServices } from './services.js';

type OfferItem = z.infer<typeof exchangeOfferItem>;

type OfferResult = z.infer<typeof offerResult>;
type OfferRecord = z.infer<typeof offerRecord>;

/** What reserves an offered output in token_utxos while the offer is open. */
export const offerHold = (id: string) => `offer:${id}`;

const invalid = (why: string) => new DomainError('VALIDATION_FAILED', why);

/** The exact satoshis of a BSV amount kept as decimal text (never a float multiply). */
function bsvSatoshis(field: string, text: string): number {
  const sats = satoshisOfBsv(text);
  if (sats === null || sats < 1) throw invalid(`${field}: ${text} BSV is not a whole number of satoshis (at least 0.00000001)`);
  return sats;
}

/** Whether an offer asks for tokens in return (else BSV). */
const asksForTokens = (item: OfferItem) =>
  item.wantedTokenId !== undefined || (item.type !== undefined && item.type.toUpperCase() !== 'BSV');

/**
 * Whether an offer's signed hex may leave Keystead. The maker signs its offered input SINGLE|ANYONECANPAY:
 * it commits to output 0's script and value, nothing else. For BSV that is the payment itself. For tokens it
 * is only a script, and any script can be written by anyone: a taker could build output 0 from a plain coin
 * (or from a look-alike token input) and take the offered tokens for nothing the chain would call that token.
 * So an offer for tokens stays inside Keystead, taken only by the organisation's own wallets (exchangeSwap),
 * whose token inputs come from the books and are proven; and so does one with further payments, which only
 * Keystead completes.
 */
const handsOutHex = (payments: readonly unknown[], wanted: Pick<Wanted, 'type'>) => payments.length === 0 && wanted.type === 'BSV';

/** What the offer asks for: its output 0 (paying the maker), and how the answer describes it. */
function askedOutput(
  services: SwapServices,
  item: OfferItem,
  offeredToken: TokenRow,
  maker: string,
): { script: string; satoshis: number; wanted: Wanted } {
  const to = addressOfHash160(maker);
  if (!asksForTokens(item)) {
    if (item.amount === undefined) throw invalid('amount: give the BSV wanted for the tokens');
    const satoshis = bsvSatoshis('amount', item.amount);
    return {
      script: p2pkhScript(maker),
      satoshis,
      wanted: {
        type: 'BSV',
        amount: amountText(satoshis, 'BSV'),
        satoshis,
        protocol: null,
        tokenId: null,
        symbol: null,
        sn: null,
        tokenAmount: null,
        to,
      },
    };
  }
  if (!item.wantedTokenId) throw invalid('wantedTokenId: name the token wanted in return (or type BSV)');
  const wantedToken = services.repos.tokens.get(item.wantedTokenId);
  if (!wantedToken) throw new DomainError('NOT_FOUND', `No token ${item.wantedTokenId} is known here: it cannot be asked for.`);
  if (wantedToken.tokenId === offeredToken.tokenId) throw invalid('wantedTokenId: an offer cannot ask for the token it offers');
  if (isStasProtocol(wantedToken.protocol) !== isStasProtocol(offeredToken.protocol))
    throw invalid(
      `wantedTokenId: ${offeredToken.protocol} tokens can be swapped for BSV or tokens of their own family, not ${wantedToken.protocol}`,
    );
  const template = templateOf(services, wantedToken);
  if (!template.swap) throw invalid(`wantedTokenId: ${wantedToken.protocol} tokens cannot be swapped`);
  const nft = NFT_PROTOCOL_IDS.includes(wantedToken.protocol);
  let data: string[] = [];
  let satoshis: number;
  let tokens: number;
  if (nft) {
    if (item.wantedSn === undefined) throw invalid('wantedSn: name the NFT wanted by its serial number');
    const serial = services.repos.tokens.serials(wantedToken.tokenId).find((s) => s.sn === item.wantedSn);
    if (!serial) throw new DomainError('NOT_FOUND', `${wantedToken.symbol} has no serial #${item.wantedSn}.`);
    // The books keep a serial's data as the text it was issued with; the script carries its bytes. The asked
    // output names the serial only by those bytes: any serial with the same data would pay it.
    data = serial.data.map(utf8Hex);
    const alike = serialsWithData(services, wantedToken.tokenId, data);
    if (alike.length > 1)
      throw invalid(
        `wantedSn: ${wantedToken.symbol} #${item.wantedSn} carries the same data as ${alike
          .filter((sn) => sn !== item.wantedSn)
          .slice(0, 5)
          .map((sn) => `#${sn}`)
          .join(', ')}, so a swap cannot tell them apart: ask for a serial with data of its own, or for BSV`,
      );
    satoshis = wantedToken.satsPerToken;
    tokens = 1;
  } else {
    if (item.wantedSn !== undefined) throw invalid(`wantedSn: ${wantedToken.symbol} is fungible; give wantedAmount`);
    if (item.wantedAmount === undefined) throw invalid('wantedAmount: give how many tokens are wanted in return');
    tokens = item.wantedAmount;
    satoshis = tokens * wantedToken.satsPerToken;
    if (!Number.isSafeInteger(satoshis)) throw invalid('wantedAmount: more tokens than can exist');
  }
  const script = template.lock({
    owner: maker,
    redemption: wantedToken.redemptionPkh,
    symbol: wantedToken.symbol,
    data,
    splittable: template.fungible,
  });
  return {
    script,
    satoshis,
    wanted: {
      type: 'token',
      amount: String(tokens),
      satoshis,
      protocol: wantedToken.protocol,
      tokenId: wantedToken.tokenId,
      symbol: wantedToken.symbol,
      sn: nft ? item.wantedSn! : null,
      tokenAmount: tokens,
      to,
    },
  };
}

/**
 * The output to offer: an NFT by serial; a fungible amount as one output holding exactly it (split off to the
 * wallet itself first, a normal transfer, when none does). Only outputs of a release with a swap path.
 */
async function offeredOutput(
  ctx: OpContext<SwapServices>,
  wallet: ResolvedWallet,
  account: SigningAccount,
  token: TokenRow,
  template: TokenTemplate,
  item: OfferItem,
): Promise<{ utxo: TokenUtxo; template: TokenTemplate; split: string[] }> {
  const { services } = ctx;
  const swappable = (u: TokenUtxo) => !!services.tokenTemplates.forOutputs(token.protocol as TokenProtocol, [u.script])?.swap;
  const mover = (u: TokenUtxo) => services.tokenTemplates.forOutputs(token.protocol as TokenProtocol, [u.script])!;
  const spendable = () => services.repos.tokens.spendable(wallet.id, token.tokenId);
  if (NFT_PROTOCOL_IDS.includes(token.protocol)) {
    if (item.sn === undefined) throw invalid('sn: name the NFT to offer by its serial number');
    const u = spendable().find((x) => x.sn === item.sn);
    if (!u) throw new DomainError('NOT_FOUND', `This wallet holds no spendable ${token.symbol} #${item.sn}.`);
    if (!swappable(u)) throw oldRelease(token);
    return { utxo: u, template: mover(u), split: [] };
  }
  if (item.sn !== undefined) throw invalid(`sn: ${token.symbol} is fungible; give tokenAmount`);
  const all = spendable().filter(swappable);
  if (!all.length)
    throw spendable().length ? oldRelease(token) : new DomainError('INSUFFICIENT_FUNDS', `This wallet holds no spendable ${token.symbol}.`);
  const satoshis = item.tokenAmount === undefined ? all[0].satoshis : item.tokenAmount * token.satsPerToken;
  if (!Number.isSafeInteger(satoshis)) throw invalid('tokenAmount: more tokens than can exist');
  const exact = all.find((u) => u.satoshis === satoshis);
  if (exact) return { utxo: exact, template: mover(exact), split: [] };
  // Split the amount off to the wallet itself (merging first if needed), then offer that output.
  const policy = await currentFeePolicy(services);
  const { inputs, merged } = await gather(ctx, wallet, account, token, template, satoshis, policy, swappable);
  const total = inputs.reduce((n, u) => n + u.satoshis, 0);
  const owner = inputs[0].script.slice(6, 46);
  const r = await submitTokenSpend(services, {
    wallet,
    account,
    template,
    kind: inputs.length === 2 ? 'merge' : 'transfer',
    inputs,
    tokenOutputs: [{ owner, satoshis }, ...(total > satoshis ? [{ owner, satoshis: total - satoshis }] : [])],
    redeem: null,
    delivery: null,
    memo: `Split ${item.tokenAmount} ${token.symbol} for an offer`,
    counterparty: null,
    policy,
  });
  const split = services.repos.tokens.utxo(r.txid, 0);
  if (!split || split.status !== 'available' || split.validity !== 'valid')
    throw new DomainError('CONFLICT', `The ${token.symbol} split for this offer (${r.txid}) is not booked yet; offer again in a moment.`);
  return { utxo: split, template: mover(split), split: [...merged, r.txid] };
}

const oldRelease = (token: TokenRow) =>
  new DomainError(
    'CONFLICT',
    `These ${token.symbol} outputs were written by an earlier release of the ${token.protocol} template, which has no swap path; only tokens issued with the current release can be offered.`,
  );

/** Makes one offer: signs it, and (with the organisation's policy's consent) reserves the offered output and keeps the offer. */
async function makeOffer(ctx: OpContext<SwapServices>, wallet: ResolvedWallet, item: OfferItem, kept: boolean): Promise<OfferResult> {
  const { services } = ctx;
  const token = tokenOf(services, item.tokenId);
  const template = templateOf(services, token);
  const account = await services.keyring.open(wallet);
  const payments = (item.payment ?? []).map((p, i) => {
    if (!isAddress(p.to)) throw invalid(`payment[${i}].to: give an address`);
    return { to: p.to, satoshis: bsvSatoshis(`payment[${i}].amount`, p.amount) };
  });
  if (payments.length && !kept) throw invalid('payment: only offers Keystead keeps (exchangeOffer) take further payments');
  if (asksForTokens(item) && !kept)
    throw invalid(
      'wantedTokenId: an offer given out as hex can ask only for BSV. A token is a script anyone can write, so whoever took it could pay with a look-alike and keep your tokens. Ask for BSV, or swap tokens for tokens between this organisation’s wallets (exchangeOffer, taken with exchangeSwap), whose tokens Keystead proves.',
    );
  if (payments.length && isStasProtocol(token.protocol))
    throw invalid(`payment: a ${token.protocol} swap has no room for further payments (its template fixes every output)`);
  // What is wanted is checked before anything moves (an offer may first split its tokens off).
  askedOutput(services, item, token, '00'.repeat(20));
  const { utxo, template: mover } = await offeredOutput(ctx, wallet, account, token, template, item);
  // The asked output pays the offered output's owner, except where that is the token's redemption key (an
  // issuer's own tokens) under a STAS template: a payment there is what a redeem makes, so the maker's
  // signature would let anyone redeem the offered tokens (stas-swap.ts, askedOutputProblem). Such an offer
  // is paid at a fresh address of the wallet.
  const owner = utxo.script.slice(6, 46);
  const maker =
    isStasProtocol(token.protocol) && owner === token.redemptionPkh ? hash160OfAddress(claimChangeAddress(services, wallet)) : owner;
  const asked = askedOutput(services, item, token, maker);
  const rule = mover.swap!;
  const tx = new Transaction(1, [], [], 0);
  tx.addInput({
    sourceTXID: utxo.txid,
    sourceOutputIndex: utxo.vout,
    sequence: rule.offerSequence,
    unlockingScript: new UnlockingScript(),
  });
  tx.addOutput({ lockingScript: LockingScript.fromHex(asked.script), satoshis: asked.satoshis });
  const makerPart = rule.offer({
    tx,
    inputIndex: 0,
    script: utxo.script,
    satoshis: utxo.satoshis,
    key: account.key(utxo.chain ?? 0, utxo.idx ?? 0),
  });
  tx.inputs[0].unlockingScript = UnlockingScript.fromHex(makerPart);
  const nft = !mover.fungible;
  const offered: Offered = {
    protocol: token.protocol,
    tokenId: token.tokenId,
    symbol: token.symbol,
    sn: nft ? utxo.sn : null,
    amount: nft ? 1 : Math.floor(utxo.satoshis / token.satsPerToken),
    satoshis: utxo.satoshis,
    txid: utxo.txid,
    vout: utxo.vout,
  };
  const id = randomUUID();
  const hex = tx.toHex();
  // The policy judges the offer when it is made (its tokens are promised to whoever takes it), in the same
  // database transaction that reserves the offered output and keeps the offer.
  const held = services.db.transaction(() => {
    const ticket =
      services.authoriseValueMove({
        kind: 'token-offer',
        wallet,
        // Whoever takes it receives the tokens: an owner not of this organisation, as the policy sees it.
        outputs: [{ script: withOwner(utxo.script, '00'.repeat(20)), satoshis: utxo.satoshis }],
        tokenId: token.tokenId,
        counterparty: null,
      }) ?? undefined;
    if (ticket?.awaiting) return ticket;
    if (!services.repos.tokens.reserve([utxo], offerHold(id), services.now()))
      throw new DomainError('CONFLICT', 'These tokens were taken by another transfer or offer at the same moment. Try again.');
    services.repos.swapOffers.insert({
      id,
      walletRow: wallet.id,
      offeredTxid: utxo.txid,
      offeredVout: utxo.vout,
      tokenId: token.tokenId,
      offered,
      wanted: asked.wanted,
      payments,
      hex,
      kept,
      createdAt: services.now(),
    });
    return null;
  })();
  if (held?.awaiting) {
    held.announce?.();
    throw held.awaiting;
  }
  services.logger.info({ offerId: id, tokenId: token.tokenId, walletId: wallet.walletId, kept }, 'swap offer made');
  return {
    offerId: id,
    // Only an offer for BSV alone is given out as hex (handsOutHex); any other only Keystead completes (exchangeSwap).
    swapHex: handsOutHex(payments, asked.wanted) ? hex : '',
    offered,
    wanted: asked.wanted,
    makerAddress: addressOfHash160(maker),
    walletID: wallet.walletId,
    payments,
  };
}

type OfferInput = ParsedInputOf<typeof OPERATIONS.offer>;
type ExchangeOfferInput = ParsedInputOf<typeof OPERATIONS.exchangeOffer>;

async function offers(ctx: OpContext<SwapServices>, walletId: string | undefined, items: OfferItem[], kept: boolean) {
  const wallet = await resolveWallet(ctx, walletId);
  const made: OfferResult[] = [];
  const r = await runBatch(
    items,
    async (item) => {
      const o = await makeOffer(ctx, wallet, item, kept);
      made.push(o);
      return [];
    },
    'offer',
    ctx.services.logger,
  );
  return { offers: made, errors: r.errors };
}

export const offer = (ctx: OpContext<SwapServices>, input: OfferInput) => offers(ctx, input.walletId, input.dataArray, false);
export const exchangeOffer = (ctx: OpContext<SwapServices>, input: ExchangeOfferInput) =>
  offers(ctx, input.walletId, input.dataArray, true);

/**
 * An offer's status as the books know it now: an open offer whose output the books saw spent was taken
 * (by the transaction that spent it), unless it was this wallet's withdrawal (closed when it was made).
 */
export function refreshOffer(services: SwapServices, row: SwapOfferRow): SwapOfferRow {
  if (row.status !== 'open') return row;
  const u = services.repos.tokens.utxo(row.offeredTxid, row.offeredVout);
  if (u?.status === 'spent' && u.spentBy) {
    services.repos.swapOffers.close(row.id, 'taken', u.spentBy, services.now());
    return { ...row, status: 'taken', takenTxid: u.spentBy };
  }
  return row;
}

export function recordOf(services: SwapServices, row: SwapOfferRow, walletId: string): OfferRecord {
  const offered = row.offered as Offered;
  return {
    offerId: row.id,
    swapHex: handsOutHex(row.payments, row.wanted as Wanted) ? row.hex : '',
    offered,
    wanted: row.wanted as Wanted,
    makerAddress: services.repos.tokens.utxo(row.offeredTxid, row.offeredVout)?.address ?? '',
    walletID: walletId,
    payments: row.payments,
    status: row.status,
    kept: row.kept,
    createdAt: new Date(row.createdAt).toISOString(),
    takenTxid: row.takenTxid,
  };
}

export async function listOffers(
  ctx: OpContext<SwapServices>,
  input: ParsedInputOf<typeof OPERATIONS.listOffers>,
): Promise<OutputOf<typeof OPERATIONS.listOffers>> {
  const { services } = ctx;
  const wallet = await resolveWallet(ctx, input.walletId);
  const rows = services.repos.swapOffers.ofWallet(wallet.id).map((r) => refreshOffer(services, r));
  return {
    offers: rows.filter((r) => !input.status || r.status === input.status).map((r) => recordOf(services, r, wallet.walletId)),
  };
}

/** Withdraws an open offer: its output is spent back to the maker (a transfer to itself), so the offer's hex can never be taken. */
export async function withdrawOffer(
  ctx: OpContext<SwapServices>,
  input: ParsedInputOf<typeof OPERATIONS.withdrawOffer>,
): Promise<OutputOf<typeof OPERATIONS.withdrawOffer>> {
  const { services } = ctx;
  const wallet = await resolveWallet(ctx, input.walletId);
  const found = services.repos.swapOffers.get(input.offerId);
  if (!found || found.walletRow !== wallet.id) throw new DomainError('NOT_FOUND', `This wallet has no offer ${input.offerId}.`);
  const row = refreshOffer(services, found);
  if (row.status !== 'open')
    throw new DomainError('CONFLICT', `Offer ${row.id} is ${row.status} already${row.takenTxid ? ` (${row.takenTxid})` : ''}.`);
  const u = services.repos.tokens.utxo(row.offeredTxid, row.offeredVout);
  if (!u) throw new DomainError('NOT_FOUND', `The offered output ${row.offeredTxid}:${row.offeredVout} is not on the books.`);
  const token = tokenOf(services, row.tokenId);
  const template = templateOf(services, token);
  const account = await services.keyring.open(wallet);
  const policy = await currentFeePolicy(services);
  // The offer's hold is lifted for the withdrawal's own reservation; if the withdrawal is not made, it is put back.
  services.repos.tokens.release(offerHold(row.id));
  let txid: string;
  try {
    const r = await submitTokenSpend(services, {
      wallet,
      account,
      template,
      kind: 'transfer',
      inputs: [{ ...u, status: 'available', reservedBy: null }],
      tokenOutputs: [{ owner: u.script.slice(6, 46), satoshis: u.satoshis }],
      redeem: null,
      delivery: null,
      memo: `Offer withdrawn (${token.symbol})`,
      counterparty: null,
      policy,
    });
    txid = r.txid;
  } catch (err) {
    services.db.transaction(() => void services.repos.tokens.reserve([u], offerHold(row.id), services.now()))();
    throw err;
  }
  services.repos.swapOffers.close(row.id, 'withdrawn', txid, services.now());
  services.logger.info({ offerId: row.id, txid }, 'swap offer withdrawn');
  return { offerId: row.id, txid, status: 'withdrawn' };
}
