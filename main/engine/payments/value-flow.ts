import type { Transaction } from '@bsv/sdk';
import type { PayOutput } from '../../../shared/operations.js';
import type { FeePolicy } from '../../chain/types.js';
import type { WalletRow } from '../../store/repos/wallets.js';
import type { ValueMoveIntent } from '../value-move.js';
import type { SigningAccount } from './keyring.js';
import {
  buildTransaction,
  changeAddressesOf,
  chooseCoins,
  planAndReserve,
  type CoinChoice,
  type PaymentOutput,
  type Plan,
} from './plan.js';
import type { PaymentServices } from './services.js';
import { recordSubmission, sendSubmission, type Submission } from './submit.js';
import { leavingOutputs, paymailOf } from '../policies/authorise.js';

/**
 * The one way value leaves a wallet: a payment, a token's contract and issue, a token transfer, merge or
 * redemption. Its steps run in this order, and only here:
 *
 *   authorise and reserve → build and sign → record → send
 *
 * Reserving is one database transaction, so no coin (or token output) is ever taken by two moves. The
 * organisation's policy then sees every move, with its coins held, before anything is signed. Until the
 * signed transaction is recorded, any failure (a refusal included) gives back all the move reserved and
 * claimed; once it is recorded (with its idempotency key's link, in the same database transaction), only
 * its settlement with the chain frees its coins, token outputs, change addresses and key: a failed send
 * leaves them reserved.
 */

/** What a move reserved: its coins (and token outputs) under `attempt`, and the change addresses it claimed. */
export interface Reservation {
  /** Identifies the reservation and, once recorded, the stored attempt. */
  attempt: string;
  /** Change addresses claimed for it: given back if it fails, and kept with the recorded attempt. */
  changeAddresses: { walletRow: number; address: string }[];
}

/** What building a move produced: the signed transaction and who paid its fee. */
export interface SignedMove {
  tx: Transaction;
  fee: number;
  feePaidBy: 'wallet' | 'feeManager';
  /** Coins to cancel it with if a P2P receiver refuses it (see submit.ts); null when it is only broadcast. */
  cancel: Submission['cancel'];
}

/** One value move, described by its steps; `moveValue` runs them in order. */
export interface ValueMove<R extends Reservation> {
  /** What the organisation's policy is asked about. Its wallet is the one whose history shows the move first. */
  intent: ValueMoveIntent;
  /** Signs the P2P metadata. */
  account: SigningAccount;
  memo: string | null;
  counterparty: string | null;
  /** P2P delivery to a paymail host, or null to broadcast. */
  delivery: Submission['delivery'];
  policy: FeePolicy;
  /** Reserves the move's coins (and claims its change addresses); runs inside one database transaction. */
  reserve(): R;
  /**
   * The network fee the move will pay, known before anything is reserved (in the same database transaction,
   * so `reserve` then takes the coins it was worked out from): the policy counts it with the move's BSV.
   */
  estimateFee?(): number;
  /** Gives back what `reserve` took besides coins and change addresses (a token spend's token outputs), with them. */
  alsoGiveBack?(reservation: R): void;
  /** Builds and signs the transaction from what was reserved. */
  build(reservation: R): Promise<SignedMove>;
  /** Kept in the database transaction that records the signed transaction: an idempotency key's link, a token's registration. */
  alsoRecord?(submission: Submission): void;
  /** Kept in the database transaction that books the move when the chain takes it at once: the paying call's audit entry. */
  alsoComplete?(final: PayOutput): void;
}

/** A move whose signed transaction is recorded: from here on, only its settlement frees what it reserved. */
export interface RecordedMove<R extends Reservation> {
  reservation: R;
  submission: Submission;
}

/** Runs a value move to the end: reserved, authorised, signed, recorded, then sent and followed until the chain decides. */
export async function moveValue<R extends Reservation>(services: PaymentServices, move: ValueMove<R>): Promise<PayOutput> {
  return sendRecordedMove(services, await recordValueMove(services, move));
}

/**
 * The steps up to recording: reserve, authorise, build and sign, record. Whatever fails before the record
 * is written gives back everything the move reserved. For a caller that must know a move was recorded
 * before it is sent (an idempotency key stays bound from then on), or needs its transaction (a token issue
 * spends its contract's change).
 */
export async function recordValueMove<R extends Reservation>(services: PaymentServices, move: ValueMove<R>): Promise<RecordedMove<R>> {
  // The policy's check and the reservation are one database transaction: a limit's window and the coins are
  // taken together, and a refusal (or a move sent for approval) reserves nothing.
  const counterparty = move.intent.counterparty ?? move.counterparty;
  const intent = { ...move.intent, counterparty, paymailVouched: paymailVouched(services, move.intent, counterparty) };
  const held = await services.commits.write(() => {
    const ticket = services.authoriseValueMove({ ...intent, fee: feeEstimate(move) }) ?? undefined;
    return ticket?.awaiting ? { ticket, reservation: null } : { ticket, reservation: move.reserve() };
  });
  if (!held.reservation) {
    held.ticket!.announce?.();
    throw held.ticket!.awaiting!;
  }
  const { reservation, ticket } = held;
  try {
    const submission = submissionOf(move, reservation, await move.build(reservation));
    await recordSubmission(services, submission, move.alsoRecord && (() => move.alsoRecord!(submission)));
    return { reservation, submission };
  } catch (err) {
    giveBack(services, reservation, () => {
      move.alsoGiveBack?.(reservation);
      // What the policy counted for this move no longer counts: nothing was signed and kept.
      ticket?.release();
    });
    throw err;
  }
}

/**
 * The fee the move will pay, for the policy; 0 when it cannot be worked out (the wallet cannot fund the move:
 * reserving it then fails the same way, and a move sent for approval is judged on its outputs).
 */
function feeEstimate(move: ValueMove<Reservation>): number {
  try {
    return move.estimateFee?.() ?? 0;
  } catch {
    return 0;
  }
}

/**
 * Whether the paymail a move names vouched for where it pays: its host gave this engine the address of every
 * output leaving the wallet when the engine resolved it (paymail/vouched.ts). A caller's label alone is not.
 */
function paymailVouched(services: PaymentServices, intent: ValueMoveIntent, counterparty: string | null): boolean {
  const paymail = paymailOf(counterparty);
  if (!paymail || !services.paymail) return false;
  const addresses = leavingOutputs(services, intent).map((o) => o.address);
  return addresses.every((a): a is string => a !== null) && services.paymail.vouches.vouches(paymail, addresses);
}

/** Sends a recorded move (P2P or broadcast) and follows it; a failure here leaves its coins reserved until it settles. */
export function sendRecordedMove(services: PaymentServices, recorded: RecordedMove<Reservation>): Promise<PayOutput> {
  return sendSubmission(services, recorded.submission);
}

function submissionOf<R extends Reservation>(move: ValueMove<R>, reservation: R, signed: SignedMove): Submission {
  const { wallet } = move.intent;
  const result: PayOutput = {
    txid: signed.tx.id('hex'),
    fee: signed.fee,
    feePaidBy: signed.feePaidBy,
    delivered: move.delivery ? 'p2p' : 'broadcast',
    walletID: wallet.walletId,
    state: 'pending',
    seenByChain: false,
    peerTxid: null,
  };
  return {
    attempt: reservation.attempt,
    wallet,
    account: move.account,
    tx: signed.tx,
    result,
    memo: move.memo,
    counterparty: move.counterparty,
    changeAddresses: reservation.changeAddresses,
    delivery: move.delivery,
    cancel: signed.cancel,
    policy: move.policy,
    alsoComplete: move.alsoComplete && ((final) => move.alsoComplete!(final)),
  };
}

/**
 * Gives back what a move that never got recorded had reserved: its coins, what else it took (`also`), and
 * its change addresses, unless something on the books pays one of them (the rule the books apply when the
 * chain refuses a recorded move). One database transaction.
 */
function giveBack(services: PaymentServices, r: Reservation, also: () => void): void {
  const { repos } = services;
  services.db.transaction(() => {
    repos.walletUtxos.release(r.attempt);
    also();
    for (const c of r.changeAddresses) if (!repos.walletUtxos.usedOnAddress(c.address)) repos.addresses.markUnused(c.walletRow, c.address);
  })();
}

/** A reservation made by coin selection (plan.ts): the wallet's coins, maybe a fee manager's coin, and change addresses. */
export interface PlannedReservation extends Reservation {
  plan: Plan;
}

/**
 * The reserve and build steps of a move that pays plain outputs from a wallet's coins (a payment, a token's
 * contract): coins chosen and reserved by plan.ts, the fee manager paying the fee when it can, change back
 * to the wallet. If a P2P receiver refuses it, one of its coins cancels it.
 */
export function plannedPayment(
  services: PaymentServices,
  wallet: WalletRow,
  account: SigningAccount,
  outputs: PaymentOutput[],
  policy: FeePolicy,
): Pick<ValueMove<PlannedReservation>, 'reserve' | 'build' | 'estimateFee'> {
  let chosen: CoinChoice | undefined;
  return {
    estimateFee: () => (chosen = chooseCoins(services, wallet, outputs, policy)).fee,
    reserve: () => {
      const plan = planAndReserve(services, wallet, outputs, policy, chosen);
      chosen = undefined;
      return { attempt: plan.attempt, changeAddresses: changeAddressesOf(plan, wallet), plan };
    },
    build: async ({ plan }) => {
      const fmAccount = plan.feeManager ? await services.keyring.open(plan.feeManager.wallet) : null;
      const tx = await buildTransaction(plan, outputs, account, fmAccount);
      return { tx, fee: plan.fee, feePaidBy: plan.feeManager ? 'feeManager' : 'wallet', cancel: { wallet, account, coins: plan.coins } };
    },
  };
}
