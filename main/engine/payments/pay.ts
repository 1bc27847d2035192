import { BSM, Transaction, Utils } from '@bsv/sdk';
import { createHash } from 'node:crypto';
import { DomainError } from '../../../shared/errors.js';
import type { ParsedInputOf, OutputOf } from '../../../shared/operation.js';
import type { OPERATIONS } from '../../../shared/operations.js';
import { isDust } from '../../chain/policy.js';
import type { FeePolicy } from '../../chain/types.js';
import type { WalletRow } from '../../store/repos/wallets.js';
import { callerOf, type OpContext } from '../context.js';
import type { PaymentServices } from './services.js';
import { paymailOf } from '../wallets/paymail-alias.js';
import { resolveWallet } from '../wallets/resolve.js';
import { settleCancellation, signCancellation } from './cancel.js';
import { identityPubKeyHex, type SigningAccount } from './keyring.js';
import { buildTransaction, changeAddressesOf, currentFeePolicy, planAndReserve, type Plan } from './plan.js';
import { chainSees, completeAttempt } from './settle.js';

type PayInput = ParsedInputOf<typeof OPERATIONS.pay>;
type PayOutput = OutputOf<typeof OPERATIONS.pay>;

/** What identifies a payment request, so an idempotency key cannot be reused for a different one. */
function requestHash(input: PayInput): string {
  const { walletId, outputs, peer, peerData } = input;
  return createHash('sha256').update(JSON.stringify({ walletId: walletId ?? '', outputs, peer: peer ?? null, peerData: peerData ?? null })).digest('hex');
}

/** How far a pay call got: once the signed transaction is stored, only its settlement may free the key. */
interface Progress {
  recorded: boolean;
}

/**
 * Pays a payment request: reserve coins, build and sign, keep the signed transaction, deliver (P2P to
 * the receiver's paymail host, or broadcast), then follow the chain. The books change only when the chain
 * has the transaction: until then its coins stay reserved and history shows it pending. Only the chain's
 * refusal gives the coins back. An idempotency key makes a retried call return the first result.
 */
export async function pay(ctx: OpContext<PaymentServices>, input: PayInput): Promise<PayOutput> {
  const caller = callerOf(ctx);
  const { services } = ctx;
  const key = input.idempotencyKey;
  if (key) {
    const claim = services.repos.payments.claimKey(caller.uid, key, services.now(), requestHash(input));
    if (!claim.claimed) {
      if (!claim.sameRequest) throw new DomainError('CONFLICT', 'This idempotency-key was used for a different payment.');
      if (claim.state === 'done' && claim.response) return JSON.parse(claim.response) as PayOutput;
      throw new DomainError('CONFLICT', 'A payment with this idempotency-key is still in progress; its outcome will be settled. Retry later.');
    }
  }
  const progress: Progress = { recorded: false };
  try {
    return await payOnce(ctx, input, key ? { uid: caller.uid, key } : null, progress);
  } catch (err) {
    // Before anything was signed and stored, the key may be used again. After, it stays bound to the
    // stored payment, and only that payment's definite failure frees it: a retry can never pay twice.
    if (key && !progress.recorded) services.repos.payments.dropKey(caller.uid, key);
    throw err;
  }
}

type Delivery =
  | { kind: 'broadcast' }
  | { kind: 'delivered'; peerTxid: string }
  | { kind: 'refused-by-chain'; error: DomainError; reason: string }
  | { kind: 'refused-by-receiver'; error: DomainError; reason: string }
  | { kind: 'unclear'; error: DomainError };

async function deliver(services: PaymentServices, input: PayInput, wallet: WalletRow, account: SigningAccount, tx: Transaction, txid: string): Promise<Delivery> {
  if (input.peerProtocol === 'paymail' && input.peer) {
    try {
      const answer = await services.paymail.deliver(input.peer, {
        hex: tx.toHex(),
        reference: input.peerData ?? '',
        metadata: {
          sender: paymailOf(wallet) ?? '',
          pubkey: identityPubKeyHex(wallet),
          signature: BSM.sign(Utils.toArray(txid, 'utf8'), account.identityKey(), 'base64') as string,
          note: input.memo ?? '',
        },
      });
      return { kind: 'delivered', peerTxid: answer.txid };
    } catch (err) {
      // Anything but the receiver's clear refusal leaves the outcome open: it may have the transaction.
      if (err instanceof DomainError && err.details.definite === true) return { kind: 'refused-by-receiver', error: err, reason: `the receiver refused it: ${err.message}` };
      const error = err instanceof DomainError ? err : new DomainError('PAYMAIL_FAILED', 'The receiver did not answer clearly.');
      return { kind: 'unclear', error };
    }
  }
  const r = await services.chain.broadcast(tx.toHex());
  if (r.status === 'accepted') return { kind: 'broadcast' };
  if (r.status === 'unknown') return { kind: 'unclear', error: new DomainError('CHAIN_UNAVAILABLE', `The transaction could not be sent: ${r.message}`) };
  return {
    kind: 'refused-by-chain',
    error: new DomainError('PAYMENT_REJECTED', `The network refused the transaction (${r.reason}): ${r.message}`, { reason: r.reason }),
    reason: `the network refused it (${r.reason}): ${r.message}`,
  };
}

/** Gives back what a payment that never got stored had taken: its coins and change addresses. */
function giveBack(services: PaymentServices, plan: Plan, wallet: WalletRow): void {
  services.db.transaction(() => {
    services.repos.walletUtxos.release(plan.attempt);
    for (const c of changeAddressesOf(plan, wallet)) services.repos.addresses.markUnused(c.walletRow, c.address);
  })();
}

async function payOnce(ctx: OpContext<PaymentServices>, input: PayInput, key: { uid: string; key: string } | null, progress: Progress): Promise<PayOutput> {
  const { services } = ctx;
  const wallet = await resolveWallet(ctx, input.walletId);
  const outputs = input.outputs;
  if (outputs.reduce((s, o) => s + o.satoshis, 0) <= 0) throw new DomainError('VALIDATION_FAILED', 'outputs: must pay more than 0 satoshis in total');
  const account = await services.keyring.open(wallet, input.walletPassword); // a wrong wallet password fails before any coin is touched
  const policy = await currentFeePolicy(services);
  outputs.forEach((o, i) => {
    if (isDust(o.satoshis, o.script, policy)) throw new DomainError('VALIDATION_FAILED', `outputs.${i}: ${o.satoshis} satoshis is below the dust limit of ${policy.dustLimit}`);
  });

  const plan = planAndReserve(services, wallet, outputs, policy);
  const p2p = input.peerProtocol === 'paymail' && !!input.peer;
  let tx: Transaction;
  let result: PayOutput;
  try {
    const fmAccount = plan.feeManager ? await services.keyring.open(plan.feeManager.wallet) : null;
    tx = await buildTransaction(plan, outputs, account, fmAccount);
    result = {
      txid: tx.id('hex'),
      fee: plan.fee,
      feePaidBy: plan.feeManager ? 'feeManager' : 'wallet',
      delivered: p2p ? 'p2p' : 'broadcast',
      walletID: wallet.walletId,
      state: 'pending',
      seenByChain: false,
      peerTxid: null,
    };
    const memo = input.memo ?? null;
    const counterparty = input.uri?.replace(/^payto:/i, '').split('?')[0] ?? null;
    // Kept before sending: after a crash or an unclear answer, this is what gets settled. History shows it
    // pending from here on; the books (spent coins, change) follow once the chain has it.
    services.db.transaction(() => {
      services.repos.payments.recordAttempt({
        attempt: plan.attempt,
        walletRow: wallet.id,
        txid: result.txid,
        raw: tx.toHex(),
        result: JSON.stringify(result),
        memo,
        counterparty,
        at: services.now(),
        changeAddresses: changeAddressesOf(plan, wallet),
      });
      if (key) services.repos.payments.linkKey(key.uid, key.key, plan.attempt);
      services.sync.recordUnseen(tx, result.txid, { walletRow: wallet.id, memo, counterparty });
    })();
    progress.recorded = true;
  } catch (err) {
    giveBack(services, plan, wallet);
    throw err;
  }

  services.inFlight.add(plan.attempt);
  try {
    const outcome = await deliver(services, input, wallet, account, tx, result.txid);
    return await follow(services, { attempt: plan.attempt, plan, wallet, account, policy }, outcome, tx, result);
  } finally {
    services.inFlight.delete(plan.attempt);
  }
}

interface Paying {
  attempt: string;
  plan: Plan;
  wallet: WalletRow;
  account: SigningAccount;
  policy: FeePolicy;
}

/** After delivery: book the payment if the chain has it, keep it pending if not, undo or cancel it if refused. */
async function follow(services: PaymentServices, p: Paying, outcome: Delivery, tx: Transaction, result: PayOutput): Promise<PayOutput> {
  const { repos, db } = services;
  const txid = result.txid;
  if (outcome.kind === 'unclear') {
    repos.payments.attemptUnknown(p.attempt);
    throw new DomainError(
      'CHAIN_UNAVAILABLE',
      `The payment's outcome is not known yet (${outcome.error.message}). Its coins stay reserved while Keystead re-sends transaction ${txid} until the chain settles it; repeat the call with the same idempotency-key to get the result.`,
      { outcomeUnknown: true, txid },
    );
  }
  if (outcome.kind === 'refused-by-chain') {
    services.sync.revertTransaction(txid, outcome.reason);
    throw outcome.error;
  }
  // Whatever the receiver said, the chain decides: a receiver may refuse and broadcast anyway, or accept
  // and never broadcast.
  const seen = outcome.kind === 'broadcast' ? { seen: true as const, height: null } : await chainSees(services, txid);
  if (outcome.kind === 'refused-by-receiver' && !seen?.seen) return cancelRefused(services, p, outcome, tx, result);
  const peerTxid = outcome.kind === 'delivered' && outcome.peerTxid !== txid ? outcome.peerTxid : null;
  if (peerTxid) {
    services.logger.warn({ txid, peerTxid }, 'the P2P receiver answered a different txid; the chain is checked for ours');
    repos.walletTxs.setPeerTxid(txid, peerTxid);
  }
  if (seen?.seen) return completeAttempt(services, p.attempt, tx, { ...result, peerTxid, seenByChain: true }, seen.height);
  const pending = { ...result, peerTxid };
  db.transaction(() => repos.payments.attemptPending(p.attempt, services.now(), peerTxid, JSON.stringify(pending)))();
  services.logger.info({ txid }, 'the receiver took the payment but the chain has not shown it yet; it stays pending');
  return pending;
}

/**
 * The receiver refused, but still holds a valid signed payment. It is cancelled on chain (see cancel.ts):
 * its coins come back only once the cancellation is accepted, and meanwhile the key stays bound to it.
 */
async function cancelRefused(services: PaymentServices, p: Paying, outcome: Extract<Delivery, { kind: 'refused-by-receiver' }>, tx: Transaction, result: PayOutput): Promise<PayOutput> {
  const cancel = await signCancellation(services, p.wallet, p.plan.coins, p.account, p.policy);
  if (!cancel) {
    // No coin of the payment can pay a cancellation's fee: it stays pending (and is broadcast after the window).
    services.db.transaction(() => services.repos.payments.attemptPending(p.attempt, services.now(), null, JSON.stringify(result)))();
    throw new DomainError('PAYMAIL_FAILED', `${outcome.error.message}. The payment is too small to cancel on chain, so it stays pending and is broadcast after the window.`, { outcomeUnknown: true, txid: result.txid });
  }
  const cancelTxid = cancel.id('hex');
  services.repos.payments.attemptCancelling(p.attempt, cancel.toHex(), cancelTxid, outcome.reason);
  const attempt = services.repos.payments.attempt(p.attempt)!;
  const how = await settleCancellation(
    services,
    attempt,
    (t) => chainSees(services, t),
    (height) => completeAttempt(services, p.attempt, tx, { ...result, seenByChain: true }, height),
  );
  if (how === 'paid') return JSON.parse(services.repos.payments.attempt(p.attempt)!.result) as PayOutput;
  const fee = attempt.cancelRaw ? cancelFee(p, cancel) : 0;
  const next =
    how === 'cancelled'
      ? `It was cancelled on chain by transaction ${cancelTxid} (fee ${fee} satoshis), so it can never be paid later; its coins are back.`
      : `Keystead is cancelling it on chain with transaction ${cancelTxid}; its coins come back once that is accepted.`;
  throw new DomainError('PAYMAIL_FAILED', `${outcome.error.message}. ${next}`, { txid: result.txid, cancelTxid, ...(how === 'open' ? { outcomeUnknown: true } : {}) });
}

function cancelFee(p: Paying, cancel: Transaction): number {
  const input = cancel.inputs[0];
  const coin = p.plan.coins.find((c) => c.txid === input.sourceTXID && c.vout === input.sourceOutputIndex);
  return coin ? coin.satoshis - (cancel.outputs[0].satoshis ?? 0) : 0;
}
