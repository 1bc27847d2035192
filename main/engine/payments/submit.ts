import { BSM, Utils, type Transaction } from '@bsv/sdk';
import { DomainError } from '../../../shared/errors.js';
import type { PayOutput } from '../../../shared/operations.js';
import type { FeePolicy } from '../../chain/types.js';
import type { WalletUtxo } from '../../store/repos/wallet-utxos.js';
import type { WalletRow } from '../../store/repos/wallets.js';
import { paymailOf } from '../wallets/paymail-alias.js';
import { settleCancellation, signCancellation } from './cancel.js';
import type { SigningAccount } from './keyring.js';
import { identityPubKeyHex } from '../wallets/identity-key.js';
import type { PaymentServices } from './services.js';
import { chainSees, completeAttempt } from './settle.js';
import { beefOf } from '../paymail/beef.js';
import { cleanRemoteText, txidOf } from '../../../shared/remote-text.js';

/**
 * A signed transaction on its way out, whatever built it (a payment, a token issue or transfer): it is
 * kept before it is sent, then delivered (P2P to a paymail host, or broadcast) and followed until the
 * chain decides. The books change only when the chain has it; only the chain's refusal gives its coins back.
 */
export interface Submission {
  /** Identifies the reservation of its coins (and token outputs) and its stored attempt. */
  attempt: string;
  /** The wallet whose history shows it first. */
  wallet: WalletRow;
  /** Signs the P2P metadata. */
  account: SigningAccount;
  tx: Transaction;
  result: PayOutput;
  memo: string | null;
  counterparty: string | null;
  /** Change addresses it claimed: given back if it fails. */
  changeAddresses: { walletRow: number; address: string }[];
  /** P2P delivery to a paymail host (with the destination's reference), or null to broadcast. */
  /** `beefPeer`: the receiver's BEEF endpoint; used when the transaction's ancestry can be put into a BEEF. */
  delivery: { peer: string; reference: string; note: string; beefPeer?: string | null } | null;
  /** Kept in the database transaction that books it when the chain has it at once (the paying call's audit entry). */
  alsoComplete?: (final: PayOutput) => void;
  /** Coins to cancel it with if a P2P receiver refuses it (one is spent back to its wallet). */
  cancel: { wallet: WalletRow; account: SigningAccount; coins: readonly WalletUtxo[] } | null;
  policy: FeePolicy;
}

/**
 * Keeps the signed transaction before it is sent: after a crash or an unclear answer, this is what gets
 * settled. History shows it pending from here on. One database transaction, with `also` (an idempotency
 * key's link, a token's registration) inside it.
 */
export function recordSubmission(services: PaymentServices, s: Submission, also?: () => void): Promise<void> {
  return services.commits.write(() => {
    services.repos.payments.recordAttempt({
      attempt: s.attempt,
      walletRow: s.wallet.id,
      txid: s.result.txid,
      raw: s.tx.toHex(),
      result: JSON.stringify(s.result),
      memo: s.memo,
      counterparty: s.counterparty,
      at: services.now(),
      changeAddresses: s.changeAddresses,
    });
    also?.();
    services.sync.recordUnseen(s.tx, s.result.txid, { walletRow: s.wallet.id, memo: s.memo, counterparty: s.counterparty });
  });
}

/** Delivers a recorded submission and follows it: the final (or pending) result, or the error the chain or receiver gave. */
export async function sendSubmission(services: PaymentServices, s: Submission): Promise<PayOutput> {
  services.inFlight.add(s.attempt);
  // Broadcast by us: booked here as the chain takes it, with the attempt's completion (one commit), not
  // also on the node's announcement. A P2P receiver broadcasts when it likes: its announcement books it.
  const txid = s.result.txid;
  const payerBooks = !s.delivery && !services.sync.payerBooks.has(txid);
  if (payerBooks) services.sync.payerBooks.add(txid);
  try {
    return await follow(services, s, await deliver(services, s));
  } finally {
    services.inFlight.delete(s.attempt);
    if (payerBooks) services.sync.payerBooks.delete(txid);
  }
}

type Delivery =
  | { kind: 'broadcast' }
  | { kind: 'delivered'; peerTxid: string | null }
  | { kind: 'refused-by-chain'; error: DomainError; reason: string }
  | { kind: 'refused-by-receiver'; error: DomainError; reason: string }
  | { kind: 'unclear'; error: DomainError };

async function deliver(services: PaymentServices, s: Submission): Promise<Delivery> {
  const txid = s.result.txid;
  if (s.delivery) {
    try {
      const metadata = {
        sender: paymailOf(s.wallet) ?? '',
        pubkey: identityPubKeyHex(s.wallet),
        signature: BSM.sign(Utils.toArray(txid, 'utf8'), s.account.identityKey(), 'base64') as string,
        note: s.delivery.note,
      };
      // BEEF where the receiver takes it (it can then check the payment by SPV before broadcasting).
      const beef = s.delivery.beefPeer ? await beefOf(services.chain, s.tx) : null;
      const answer = beef
        ? await services.paymail.deliver(s.delivery.beefPeer!, { beef, reference: s.delivery.reference, metadata })
        : await services.paymail.deliver(s.delivery.peer, { hex: s.tx.toHex(), reference: s.delivery.reference, metadata });
      // The receiver's txid is kept and shown only if it is one (64 hex digits); anything else it said is not.
      const peerTxid = txidOf(answer.txid);
      if (peerTxid === null)
        services.logger.warn(
          { txid, answered: cleanRemoteText(answer.txid, 80), answeredLength: answer.txid.length },
          'the P2P receiver answered something that is not a txid; it is ignored',
        );
      return { kind: 'delivered', peerTxid };
    } catch (err) {
      // Anything but the receiver's clear refusal leaves the outcome open: it may have the transaction.
      if (err instanceof DomainError && err.details.definite === true)
        return { kind: 'refused-by-receiver', error: err, reason: `the receiver refused it: ${err.message}` };
      const error = err instanceof DomainError ? err : new DomainError('PAYMAIL_FAILED', 'The receiver did not answer clearly.');
      return { kind: 'unclear', error };
    }
  }
  const r = await services.chain.broadcast(s.tx.toHex());
  if (r.status === 'accepted') return { kind: 'broadcast' };
  if (r.status === 'unknown')
    return { kind: 'unclear', error: new DomainError('CHAIN_UNAVAILABLE', `The transaction could not be sent: ${r.message}`) };
  return {
    kind: 'refused-by-chain',
    error: new DomainError('PAYMENT_REJECTED', `The network refused the transaction (${r.reason}): ${r.message}`, { reason: r.reason }),
    reason: `the network refused it (${r.reason}): ${r.message}`,
  };
}

/** After delivery: book it if the chain has it, keep it pending if not, undo or cancel it if refused. */
async function follow(services: PaymentServices, s: Submission, outcome: Delivery): Promise<PayOutput> {
  const { repos, db } = services;
  const { result } = s;
  const txid = result.txid;
  if (outcome.kind === 'unclear') {
    repos.payments.attemptUnknown(s.attempt);
    throw new DomainError(
      'CHAIN_UNAVAILABLE',
      `The payment's outcome is not known yet (${outcome.error.message}). Its coins stay reserved while Keystead re-sends transaction ${txid} until the chain settles it; repeat the call with the same idempotency-key to get the result.`,
      { outcomeUnknown: true, txid },
    );
  }
  if (outcome.kind === 'refused-by-chain') {
    // The embedded node is this process: its refusal is the chain's. A provider's refusal is only its word:
    // one that relays the transaction and answers "rejected" would otherwise get its coins given back and
    // spent again (paying twice). The coins stay reserved; settling gives them back a window later, once the
    // status and transaction routes both lack it (settle.ts), or books it if the chain has it after all.
    if (services.chain.network === 'local') {
      services.sync.revertTransaction(txid, outcome.reason);
      throw outcome.error;
    }
    db.transaction(() => repos.payments.attemptPending(s.attempt, services.now(), null, JSON.stringify(result)))();
    services.logger.warn(
      { txid, reason: outcome.reason },
      'the provider refused a payment; its coins stay reserved until the chain is seen to lack it',
    );
    const seconds = Math.ceil(services.config.broadcastWindowMs / 1000);
    throw new DomainError(
      'PAYMENT_REJECTED',
      `${outcome.error.message}. Its coins stay reserved until the network is seen not to have transaction ${txid} (about ${seconds} s), then come back; if the network has it after all, it is paid.`,
      { ...outcome.error.details, outcomeUnknown: true, txid },
    );
  }
  // Whatever the receiver said, the chain decides: a receiver may refuse and broadcast anyway, or accept
  // and never broadcast.
  const seen = outcome.kind === 'broadcast' ? { seen: true as const, height: null, nodesAccepted: false } : await chainSees(services, txid);
  if (outcome.kind === 'refused-by-receiver' && !seen?.seen) return cancelRefused(services, s, outcome);
  const peerTxid = outcome.kind === 'delivered' && outcome.peerTxid !== txid ? outcome.peerTxid : null;
  if (peerTxid) {
    services.logger.warn({ txid, peerTxid }, 'the P2P receiver answered a different txid; the chain is checked for ours');
    repos.walletTxs.setPeerTxid(txid, peerTxid);
  }
  if (seen?.seen)
    return services.commits.write(() =>
      completeAttempt(services, s.attempt, s.tx, { ...result, peerTxid, seenByChain: true }, seen.height, s.alsoComplete),
    );
  const pending = { ...result, peerTxid };
  db.transaction(() => repos.payments.attemptPending(s.attempt, services.now(), peerTxid, JSON.stringify(pending)))();
  services.logger.info({ txid }, 'the receiver took the payment but the chain has not shown it yet; it stays pending');
  return pending;
}

/**
 * The receiver refused, but still holds a valid signed transaction. It is cancelled on chain (see
 * cancel.ts): its coins come back only once the cancellation is accepted, and meanwhile the key stays bound to it.
 */
async function cancelRefused(
  services: PaymentServices,
  s: Submission,
  outcome: Extract<Delivery, { kind: 'refused-by-receiver' }>,
): Promise<PayOutput> {
  const { result } = s;
  const cancel = s.cancel ? await signCancellation(services, s.cancel.wallet, s.cancel.coins, s.cancel.account, s.policy) : null;
  if (!cancel) {
    // No coin of the payment can pay a cancellation's fee: it stays pending (and is broadcast after the window).
    services.db.transaction(() => services.repos.payments.attemptPending(s.attempt, services.now(), null, JSON.stringify(result)))();
    throw new DomainError(
      'PAYMAIL_FAILED',
      `${outcome.error.message}. The payment is too small to cancel on chain, so it stays pending and is broadcast after the window.`,
      { outcomeUnknown: true, txid: result.txid },
    );
  }
  const cancelTxid = cancel.id('hex');
  services.repos.payments.attemptCancelling(s.attempt, cancel.toHex(), cancelTxid, outcome.reason);
  const attempt = services.repos.payments.attempt(s.attempt)!;
  const how = await settleCancellation(
    services,
    attempt,
    (t) => chainSees(services, t),
    (height) => completeAttempt(services, s.attempt, s.tx, { ...result, seenByChain: true }, height),
  );
  if (how === 'paid') return JSON.parse(services.repos.payments.attempt(s.attempt)!.result) as PayOutput;
  const fee = cancelFee(s, cancel);
  const next =
    how === 'cancelled'
      ? `It was cancelled on chain by transaction ${cancelTxid} (fee ${fee} satoshis), so it can never be paid later; its coins are back.`
      : `Keystead is cancelling it on chain with transaction ${cancelTxid}; its coins come back once that is accepted.`;
  throw new DomainError('PAYMAIL_FAILED', `${outcome.error.message}. ${next}`, {
    txid: result.txid,
    cancelTxid,
    ...(how === 'open' ? { outcomeUnknown: true } : {}),
  });
}

function cancelFee(s: Submission, cancel: Transaction): number {
  const input = cancel.inputs[0];
  const coin = s.cancel?.coins.find((c) => c.txid === input.sourceTXID && c.vout === input.sourceOutputIndex);
  return coin ? coin.satoshis - (cancel.outputs[0].satoshis ?? 0) : 0;
}
