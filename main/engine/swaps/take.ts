import { LockingScript, P2PKH, Transaction, UnlockingScript } from '@bsv/sdk';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { offerInspection, swapResult } from '../../../shared/contracts/swaps.js';
import { DomainError } from '../../../shared/errors.js';
import { isStasProtocol } from '../../../shared/token-protocols.js';
import type { OutputOf, ParsedInputOf } from '../../../shared/operation.js';
import type { OPERATIONS } from '../../../shared/operations.js';
import { requiredFee } from '../../chain/policy.js';
import { hash160OfAddress } from '../../chain/script.js';
import type { FeePolicy } from '../../chain/types.js';
import type { TokenUtxo } from '../../store/repos/tokens.js';
import type { WalletUtxo } from '../../store/repos/wallet-utxos.js';
import type { OpContext } from '../context.js';
import { plainCoins } from '../payments/coin-select.js';
import { claimChangeAddress, currentFeePolicy } from '../payments/plan.js';
import { moveValue, type Reservation } from '../payments/value-flow.js';
import { estimateTokenTxBytes } from '../tokens/funding.js';
import { runBatch } from '../tokens/send.js';
import { p2pkhScript, withOwner } from '../token-templates/script-bytes.js';
import { resolveWallet, type ResolvedWallet } from '../wallets/resolve.js';
import type { SwapOfferRow } from '../../store/repos/swap-offers.js';
import { addSwapInputs } from './inputs.js';
import { refreshOffer } from './offers.js';
import { readOffer, type ReadOffer } from './read.js';
import type { SwapServices } from './services.js';
import { settleSwapFee } from './settle-fee.js';
import { stasOfferFeeEstimate, takeStasOffer } from './stas-take.js';

type SwapResult = z.infer<typeof swapResult>;
type SwapOutput = OutputOf<typeof OPERATIONS.swap>;

const TX_VERSION = 1;
/** A P2PKH input, signed: about this many bytes. */
const COIN_INPUT_BYTES = 148;

/** What a taker pays beyond the asked output: an exchangeOffer's further payments. */
type Extra = { to: string; satoshis: number }[];

interface SwapReservation extends Reservation {
  coins: WalletUtxo[];
  payWith: TokenUtxo | null;
  receiveOwner: string;
  changeAddress: string;
}

/** The fee a swap transaction would pay, from its parts' sizes (the offered input's unlocking is the big part). */
function estimateFee(o: ReadOffer, payWithToken: boolean, coins: number, extra: number, policy: FeePolicy): number {
  const scriptBytes = o.source.script.length / 2;
  const bytes =
    estimateTokenTxBytes(scriptBytes, payWithToken ? 2 : 1, payWithToken ? 3 : 1) + coins * COIN_INPUT_BYTES + (extra + 2) * 34 + 400;
  return requiredFee(bytes, policy);
}

/** The taker's coins for `need` satoshis: the smallest that covers it, else the largest ones until they do. */
function pickCoins(available: WalletUtxo[], need: number): WalletUtxo[] | null {
  const single = [...available].sort((a, b) => a.satoshis - b.satoshis).find((c) => c.satoshis >= need);
  if (single) return [single];
  const picked: WalletUtxo[] = [];
  let total = 0;
  for (const c of [...available].sort((a, b) => b.satoshis - a.satoshis)) {
    picked.push(c);
    total += c.satoshis;
    if (total >= need) return picked;
  }
  return null;
}

/**
 * Takes one offer from a wallet. The transaction: input 0 the offered tokens (the maker's part completed),
 * then for a token-for-token offer the taker's token output paying for it, then the taker's coins; outputs:
 * 0 the asked output, then the taker's change of the paying token, the offered tokens to the taker, the
 * further payments (exchangeOffer), the BSV change. It goes through the organisation's policy like any move
 * (what leaves the wallet: the asked output and the payments), and either all of it is on the chain or none.
 */
export async function takeOffer(
  ctx: OpContext<SwapServices>,
  wallet: ResolvedWallet,
  hex: string,
  extra: Extra,
  offerId: string | null,
): Promise<SwapResult> {
  const { services } = ctx;
  const { repos } = services;
  const o = await readOffer(services, hex);
  if (o.problems.length) throw new DomainError('VALIDATION_FAILED', `This offer cannot be taken: ${o.problems.join('; ')}.`);
  const rule = o.template.swap!;
  const account = await services.keyring.open(wallet);
  const policy = await currentFeePolicy(services);
  const askedToken = o.askedToken;
  const extraOutputs = extra.map((p) => ({ script: new P2PKH().lock(p.to).toHex(), satoshis: p.satoshis }));
  const extraTotal = extraOutputs.reduce((n, p) => n + p.satoshis, 0);
  if (askedToken && !askedToken.template.swap)
    throw new DomainError('VALIDATION_FAILED', 'This offer asks for tokens of a template release that cannot pay for a swap.');
  // The paying token output: one output of the asked token and release (its code and data, e.g. the serial),
  // holding at least what is asked.
  const tail = o.asked.script.slice(46);
  const payable = (u: TokenUtxo) => u.script.slice(46) === tail && u.satoshis >= o.asked.satoshis;
  const fee = estimateFee(o, !!askedToken, 2, extraOutputs.length, policy);
  const need = (askedToken ? 0 : o.asked.satoshis) + extraTotal + fee + requiredFee(COIN_INPUT_BYTES * 2, policy);
  const intent = {
    kind: 'token-swap' as const,
    wallet,
    outputs: [o.asked, ...extraOutputs],
    tokenId: askedToken ? `${askedToken.token.redemption}-${askedToken.token.symbol}` : null,
    counterparty: o.makerAddress,
  };
  const memo = `Swap: ${o.offered.amount} ${o.offered.symbol}${o.offered.sn !== null ? ` #${o.offered.sn}` : ''} for ${o.wanted.type === 'BSV' ? `${o.wanted.amount} BSV` : `${o.wanted.tokenAmount} ${o.wanted.symbol}`}`;
  const closeTaken = (txid: string, fee: number): SwapResult => {
    const own = repos.swapOffers.ofOutput(o.source.txid, o.source.vout);
    if (own && own.status === 'open') repos.swapOffers.close(own.id, 'taken', txid, services.now());
    services.logger.info({ txid, offerId: own?.id ?? offerId, walletId: wallet.walletId }, 'swap offer taken');
    return { txid, offerId: own?.id ?? offerId, offered: o.offered, wanted: o.wanted, fee };
  };
  if (isStasProtocol(o.token.protocol)) {
    if (extraOutputs.length)
      throw new DomainError(
        'VALIDATION_FAILED',
        `A ${o.token.protocol} swap has no room for further payments (its template fixes every output).`,
      );
    const { paid, fee: paidFee } = await takeStasOffer(services, { wallet, account, offer: o, payable, policy, intent, memo });
    return closeTaken(paid.txid, paidFee);
  }
  let result: SwapResult | null = null;
  const paid = await moveValue<SwapReservation>(services, {
    intent,
    account,
    memo,
    counterparty: o.makerAddress,
    delivery: null,
    policy,
    reserve: () => {
      const attempt = randomUUID();
      let payWith: TokenUtxo | null = null;
      if (askedToken) {
        const tokenId = `${askedToken.token.redemption}-${askedToken.token.symbol}`;
        payWith =
          repos.tokens
            .spendable(wallet.id, tokenId)
            .filter(payable)
            .sort((a, b) => a.satoshis - b.satoshis)[0] ?? null;
        if (!payWith)
          throw new DomainError(
            'INSUFFICIENT_FUNDS',
            `This wallet holds no single spendable output of ${o.wanted.tokenAmount} ${o.wanted.symbol} or more (of this release of the template) to pay for this offer; send some to yourself to gather them first.`,
          );
        if (!repos.tokens.reserve([payWith], attempt, services.now()))
          throw new DomainError('CONFLICT', 'These tokens are held by another transfer in progress. Try again once it completes.');
      }
      // Never a 1-satoshi output: it may carry an ordinal (payments/coin-select.ts, plainCoins). Each coin
      // picked adds an input to pay for, so the pick is redone until it covers the fee of its own inputs.
      const spendable = plainCoins(repos.walletUtxos.available(wallet.id));
      let coins = pickCoins(spendable, need);
      for (let round = 0; coins && round < 4; round++) {
        const needWith = need + requiredFee(COIN_INPUT_BYTES * Math.max(0, coins.length - 2), policy);
        if (coins.reduce((n, c) => n + c.satoshis, 0) >= needWith) break;
        coins = pickCoins(spendable, needWith);
      }
      if (!coins)
        throw new DomainError(
          'INSUFFICIENT_FUNDS',
          `Taking this offer needs ${need} satoshis (what it asks and the fee); the wallet has less spendable.`,
          {
            needed: need,
          },
        );
      if (!repos.walletUtxos.reserve(coins, attempt, services.now()))
        throw new DomainError('CONFLICT', 'Another payment took these coins at the same moment. Try again.');
      const receive = claimChangeAddress(services, wallet);
      const changeAddress = claimChangeAddress(services, wallet);
      return {
        attempt,
        coins,
        payWith,
        receiveOwner: hash160OfAddress(receive),
        changeAddress,
        changeAddresses: [
          { walletRow: wallet.id, address: receive },
          { walletRow: wallet.id, address: changeAddress },
        ],
      };
    },
    alsoGiveBack: ({ attempt }) => repos.tokens.release(attempt),
    build: async (r) => {
      const coinsTotal = r.coins.reduce((n, c) => n + c.satoshis, 0);
      const payIn = r.payWith ? r.payWith.satoshis : 0;
      const payChange = r.payWith ? r.payWith.satoshis - o.asked.satoshis : 0;
      const payTokens = r.payWith
        ? [
            { owner: o.asked.script.slice(6, 46), satoshis: o.asked.satoshis },
            ...(payChange > 0 ? [{ owner: r.payWith.script.slice(6, 46), satoshis: payChange }] : []),
          ]
        : [];
      const received = [{ owner: r.receiveOwner, satoshis: o.source.satoshis }];
      const spentIn = coinsTotal + payIn + o.source.satoshis;
      const fixedOut = o.asked.satoshis + (payChange > 0 ? payChange : 0) + o.source.satoshis + extraTotal;
      const assemble = async (change: number) => {
        const tx = new Transaction(TX_VERSION, [], [], 0);
        // The paying token input carries its own template's swap sequence (the same when both tokens share one).
        addSwapInputs(tx, o, r.payWith && { utxo: r.payWith, sequence: askedToken!.template.swap!.offerSequence }, r.coins, account);
        const add = (script: string, satoshis: number) => tx.addOutput({ lockingScript: LockingScript.fromHex(script), satoshis });
        add(o.asked.script, o.asked.satoshis);
        if (r.payWith && payChange > 0) add(withOwner(r.payWith.script, r.payWith.script.slice(6, 46)), payChange);
        const firstReceived = tx.outputs.length;
        for (const t of received) add(withOwner(o.source.script, t.owner), t.satoshis);
        for (const p of extraOutputs) add(p.script, p.satoshis);
        if (change > 0) add(p2pkhScript(hash160OfAddress(r.changeAddress)), change);
        tx.inputs[0].unlockingScript = UnlockingScript.fromHex(
          rule.complete({
            tx,
            inputIndex: 0,
            script: o.source.script,
            satoshis: o.source.satoshis,
            makerPart: o.makerPart,
            tokenOutputs: received,
            firstTokenOutput: firstReceived,
          }),
        );
        if (r.payWith) {
          const payRule = askedToken!.template.swap!;
          tx.inputs[1].unlockingScript = UnlockingScript.fromHex(
            payRule.unlockPayment({
              tx,
              inputIndex: 1,
              script: r.payWith.script,
              satoshis: r.payWith.satoshis,
              key: account.key(r.payWith.chain ?? 0, r.payWith.idx ?? 0),
              kind: 'transfer',
              tokenOutputs: payTokens,
              redeem: null,
              change: null,
              funding: null,
              otherParent: null,
              firstTokenOutput: 0,
            }),
          );
        }
        await tx.sign();
        return tx;
      };
      const { tx, fee: paidFee } = await settleSwapFee({ spentIn, fixedOut, firstFee: fee, policy, keepChange: false, assemble });
      result = { txid: tx.id('hex'), offerId, offered: o.offered, wanted: o.wanted, fee: paidFee };
      return { tx, fee: paidFee, feePaidBy: 'wallet', cancel: { wallet, account, coins: r.coins } };
    },
  });
  return closeTaken(paid.txid, result!.fee);
}

async function takeAll(
  ctx: OpContext<SwapServices>,
  walletId: string | undefined,
  items: { hex: string; extra: Extra; offerId: string | null }[],
): Promise<SwapOutput> {
  const wallet = await resolveWallet(ctx, walletId);
  const swaps: SwapResult[] = [];
  const r = await runBatch(
    items,
    async (item) => {
      const s = await takeOffer(ctx, wallet, item.hex, item.extra, item.offerId);
      swaps.push(s);
      return [s.txid];
    },
    'swap',
    ctx.services.logger,
  );
  return { txIds: r.txIds, swaps, errors: r.errors };
}

export const swap = (ctx: OpContext<SwapServices>, input: ParsedInputOf<typeof OPERATIONS.swap>) =>
  takeAll(
    ctx,
    input.walletId,
    input.dataArray.map((d) => ({ hex: d.swapHex, extra: [], offerId: null })),
  );

/** Takes offers Keystead keeps, by id: the offer's hex and its further payments, from the books. */
export async function exchangeSwap(
  ctx: OpContext<SwapServices>,
  input: ParsedInputOf<typeof OPERATIONS.exchangeSwap>,
): Promise<SwapOutput> {
  const { services } = ctx;
  const items = input.dataArray.map((d) => {
    const row = services.repos.swapOffers.get(d.swapId);
    return { hex: row?.hex ?? '', extra: row?.payments ?? [], offerId: d.swapId, row };
  });
  const wallet = await resolveWallet(ctx, input.walletId);
  const swaps: SwapResult[] = [];
  const r = await runBatch(
    items,
    async (item) => {
      if (!item.row || !item.row.kept) throw new DomainError('NOT_FOUND', `No offer ${item.offerId} is kept here.`);
      const row = refreshOffer(services, item.row);
      if (row.status !== 'open') throw new DomainError('CONFLICT', `Offer ${row.id} is ${row.status}.`);
      // The maker's own output is reserved by its offer: the swap spends it in the maker's stead.
      const s = await takeOffer(ctx, wallet, item.hex, item.extra, item.offerId);
      swaps.push(s);
      return [s.txid];
    },
    'swap',
    services.logger,
  );
  return { txIds: r.txIds, swaps, errors: r.errors };
}

type Inspection = z.infer<typeof offerInspection>;
type InspectItem = ParsedInputOf<typeof OPERATIONS.inspectOffer>['dataArray'][number];

const refusedInspection = (problem: string): Inspection => ({
  offered: null,
  wanted: null,
  makerAddress: null,
  fee: null,
  valid: false,
  problems: [problem],
  spent: null,
  offerId: null,
  payments: [],
});

/**
 * The offer an item names: its hex as given, or the hex and further payments of an offer Keystead keeps (by
 * `swapId`; its hex stays inside, as exchangeSwap uses it). A string when there is no such open offer.
 */
function offerOf(services: SwapServices, item: InspectItem): { hex: string; kept: SwapOfferRow | null } | string {
  if ('swapHex' in item) return { hex: item.swapHex, kept: null };
  const row = services.repos.swapOffers.get(item.swapId);
  if (!row || !row.kept) return `No offer ${item.swapId} is kept here.`;
  const now = refreshOffer(services, row);
  if (now.status !== 'open') return `Offer ${now.id} is ${now.status}.`;
  return { hex: now.hex, kept: now };
}

/**
 * The fee taking an offer would cost: a STAS offer's take carries the offered tokens' whole parent
 * transaction (stas-take.ts), so its estimate needs that parent's size; the open template's does not.
 */
async function inspectionFee(services: SwapServices, o: ReadOffer, payments: number, policy: FeePolicy): Promise<number> {
  if (isStasProtocol(o.token.protocol)) {
    const parent = await services.chain.getTransactionHex(o.source.txid).catch(() => null);
    if (parent) return stasOfferFeeEstimate(o, parent.length / 2, policy);
  }
  return estimateFee(o, !!o.askedToken, 1, payments, policy);
}

/** Checks offers as the hostile input they are; never throws for an offer that is merely bad (it says why). */
export async function inspectOffer(
  ctx: OpContext<SwapServices>,
  input: ParsedInputOf<typeof OPERATIONS.inspectOffer>,
): Promise<OutputOf<typeof OPERATIONS.inspectOffer>> {
  const { services } = ctx;
  const policy = await currentFeePolicy(services);
  const out: Inspection[] = [];
  for (const item of input.dataArray) {
    const named = offerOf(services, item);
    if (typeof named === 'string') {
      out.push(refusedInspection(named));
      continue;
    }
    try {
      const o = await readOffer(services, named.hex);
      const own = named.kept ?? services.repos.swapOffers.ofOutput(o.source.txid, o.source.vout);
      const payments = named.kept?.payments ?? [];
      out.push({
        offered: o.offered,
        wanted: o.wanted,
        makerAddress: o.makerAddress,
        fee: await inspectionFee(services, o, payments.length, policy),
        valid: o.problems.length === 0,
        problems: o.problems,
        spent: o.spent,
        offerId: own && own.hex === named.hex ? own.id : null,
        payments,
      });
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      out.push(refusedInspection(err.message));
    }
  }
  return { offers: out };
}
