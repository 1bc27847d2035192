import { Transaction } from '@bsv/sdk';
import type { PayOutput } from '../../../shared/operations.js';
import type { PaymentAttempt } from '../../store/repos/payments.js';
import type { PaymentServices } from './services.js';
import { releaseCancelledKeys, settleCancellation } from './cancel.js';
import type { ChainView } from './chain-view.js';

/**
 * Keeping the books in step with the chain. A payment is booked (coins spent, change spendable) only once
 * the chain has its transaction; until then it is pending. This module settles payments whose fate is
 * open, and reconciles every transaction of the books that no block holds yet against the chain.
 */

/** Whether the chain has the transaction (mempool or block); null when the provider could not be asked. */
export async function chainSees(services: PaymentServices, txid: string): Promise<ChainView | null> {
  try {
    const s = await services.chain.getTxStatus(txid);
    const nodesAccepted = s.seenOnNetwork === true;
    if (s.state === 'mined' && s.blockHeight !== null) {
      // Its height only with a merkle path to that block's header; otherwise it is seen, not yet proven mined.
      const height = await services.sync.proveHeight(txid, s.blockHeight, s.merklePath);
      return { seen: true, height, nodesAccepted: nodesAccepted || height !== null };
    }
    if (s.state === 'mempool' || s.state === 'mined') return { seen: true, height: null, nodesAccepted };
    return { seen: false, rejected: s.state === 'rejected' };
  } catch {
    return null;
  }
}

/**
 * Whether the chain surely lacks the transaction: the status route does not have it and the transaction
 * route cannot return it. Asked before anything is undone, so one provider's lag is never enough.
 */
export async function chainLacks(services: PaymentServices, txid: string): Promise<boolean> {
  const view = await chainSees(services, txid);
  if (view === null || view.seen) return false;
  try {
    return (await services.chain.getTransactionHex(txid)) === null;
  } catch {
    return false;
  }
}

/**
 * The chain has the payment: book it, finish its attempt and idempotency key, in one database transaction
 * (a crash never leaves a payment reported done with its coins still reserved), with `also` (the paying
 * call's audit entry). Returns the final result.
 */
export function completeAttempt(
  services: PaymentServices,
  attempt: string,
  tx: Transaction,
  result: PayOutput,
  height: number | null,
  also?: (final: PayOutput) => void,
): PayOutput {
  const final: PayOutput = { ...result, seenByChain: true, state: height === null ? 'pending' : 'confirmed' };
  services.db.transaction(() => {
    services.repos.payments.attemptDone(attempt, JSON.stringify(final));
    // Booking is idempotent; skipping it when the chain's announcement already booked it saves a second round of writes.
    if (!services.sync.booked(final.txid, height)) services.sync.applyTransaction(tx, final.txid, height);
    also?.(final);
  })();
  return final;
}

/**
 * Settles one open attempt. The chain is asked first: if it has the transaction, the payment is booked.
 * A P2P payment the receiver accepted gets `windowMs` to appear; after that (and at once for an unclear
 * delivery or one cut off by a crash) Keystead broadcasts the same signed transaction itself, which pays
 * exactly what the receiver asked for. Only the chain's refusal undoes the payment.
 */
async function settleAttempt(services: PaymentServices, a: PaymentAttempt): Promise<void> {
  const tx = Transaction.fromHex(a.raw);
  const result = JSON.parse(a.result) as PayOutput;
  if (a.state === 'cancelling') {
    await settleCancellation(
      services,
      a,
      (t) => chainSees(services, t),
      (height) => completeAttempt(services, a.attempt, tx, { ...result, peerTxid: a.peerTxid }, height),
    );
    return;
  }
  const view = await chainSees(services, a.txid);
  if (view?.seen) {
    completeAttempt(services, a.attempt, tx, { ...result, peerTxid: a.peerTxid }, view.height);
    return;
  }
  if (view === null) return; // the provider is unreachable: nothing is known, nothing changes
  const conflict = confirmedConflict(services, tx, a.txid);
  if (conflict) {
    services.sync.revertTransaction(a.txid, `one of its coins was spent by ${conflict}, which a block holds`);
    return;
  }
  if (a.state === 'pending' && a.deliveredAt !== null && services.now() - a.deliveredAt < services.config.broadcastWindowMs) return;
  // Held back by who made it (an app's noSend action): money never leaves unasked. Only what the chain shows
  // (the app broadcast it itself) or a block's conflicting spend settles it; its coins stay reserved meanwhile.
  if (services.heldBack?.(a.attempt)) return;
  const r = await services.chain.broadcast(a.raw);
  if (r.status === 'accepted') {
    services.logger.info({ txid: a.txid }, 'Keystead broadcast a payment the chain had not shown');
    completeAttempt(services, a.attempt, tx, { ...result, peerTxid: a.peerTxid }, null);
  } else if ((r.status === 'rejected' || (!view.seen && view.rejected)) && (await chainLacks(services, a.txid))) {
    const why = r.status === 'rejected' ? `the network refused it (${r.reason}): ${r.message}` : 'the network rejected it';
    services.logger.warn({ txid: a.txid, why }, 'the chain refused a pending payment; its coins are given back');
    services.sync.revertTransaction(a.txid, why);
  } else if (a.state === 'sending') {
    services.repos.payments.attemptUnknown(a.attempt);
  }
}

/** A transaction a block holds that spends one of this one's coins: this one can then never be mined. */
function confirmedConflict(services: PaymentServices, tx: Transaction, txid: string): string | null {
  const { repos } = services;
  for (const input of tx.inputs) {
    const u = input.sourceTXID ? repos.walletUtxos.get(input.sourceTXID, input.sourceOutputIndex) : null;
    if (!u?.spentBy || u.spentBy === txid) continue;
    const other = repos.walletTxs.stateOf(u.walletRow, u.spentBy);
    if (other && other.state === 'seen' && other.height !== null) return u.spentBy;
  }
  return null;
}

/** Settles every open attempt not being delivered right now. */
export async function settleAttempts(services: PaymentServices): Promise<void> {
  for (const a of services.repos.payments.openAttempts()) {
    if (services.inFlight.has(a.attempt)) continue;
    try {
      await settleAttempt(services, a);
    } catch (err) {
      services.logger.error({ txid: a.txid, err: (err as Error).message }, 'settling a payment failed; it is tried again later');
    }
  }
}

/**
 * Checks each transaction of the books that no block holds yet against the chain, at most once per half
 * window each. One the chain has is booked (or confirmed). One it lacks is re-broadcast when it is ours;
 * refused, it is undone. Another's that the chain still lacks a window after first missing it is undone
 * too: its coins come back and its outputs go.
 */
export async function reconcileBooks(services: PaymentServices): Promise<void> {
  const { repos, sync, config, now } = services;
  const window = config.broadcastWindowMs;
  const open = new Set(repos.payments.openAttempts().map((a) => a.txid));
  for (const t of parentsFirst(services, repos.walletTxs.unconfirmed())) {
    if (open.has(t.txid)) continue; // settled above, with its own rules
    if (t.checkedAt !== null && now() - t.checkedAt < window / 2) continue;
    const view = await chainSees(services, t.txid);
    if (view === null) continue;
    const ours = repos.payments.attemptFor(t.txid);
    // Another's transaction ARC has only stored vouches for nothing (SECURITY.md): it counts as seen once a node
    // took it or a block holds it, so one double-spent away is undone even while ARC keeps it "stored".
    const seen = view.seen && (ours !== null || view.nodesAccepted || view.height !== null);
    repos.walletTxs.noteCheck(t.txid, now(), seen);
    if (seen) {
      if (t.state !== 'seen') {
        const hex = ours?.raw ?? (await services.chain.getTransactionHex(t.txid).catch(() => null));
        if (hex) sync.applyTransaction(Transaction.fromHex(hex), t.txid, view.height);
      } else if (view.height !== null) await sync.confirm([t.txid], view.height);
      continue;
    }
    if (ours) {
      const r = await services.chain.broadcast(ours.raw);
      if (r.status === 'accepted') sync.applyTransaction(Transaction.fromHex(ours.raw), t.txid, null);
      else if (r.status === 'rejected' && (await chainLacks(services, t.txid))) {
        services.logger.warn({ txid: t.txid, reason: r.reason }, 'a booked payment was refused by the chain; the books are repaired');
        sync.revertTransaction(t.txid, `the network refused it (${r.reason}): ${r.message}`);
      }
      continue;
    }
    const missingSince = t.unseenSince ?? now();
    if (now() - missingSince < window) continue;
    if ((await services.chain.getTransactionHex(t.txid).catch(() => 'unreachable')) !== null) continue;
    services.logger.warn({ txid: t.txid }, 'a transaction on the books is unknown to the chain; the books are repaired');
    sync.revertTransaction(t.txid, 'the chain does not know this transaction');
  }
  // After the loop: a cancellation it has just seen confirmed frees its payment's keys in this round.
  releaseCancelledKeys(services);
}

/**
 * The books' unconfirmed transactions with each of ours after the ones of ours it spends: several dropped from
 * the mempool at once (made in one millisecond, so their times tie) are sent again parent first, never a child
 * the chain would refuse for its missing inputs and the books would then undo.
 */
function parentsFirst<T extends { txid: string }>(services: PaymentServices, rows: readonly T[]): T[] {
  const byTxid = new Map(rows.map((r) => [r.txid, r]));
  const parentsOf = (txid: string): string[] => {
    const raw = services.repos.payments.attemptFor(txid)?.raw;
    if (!raw) return [];
    return Transaction.fromHex(raw)
      .inputs.map((i) => i.sourceTXID)
      .filter((p): p is string => p !== undefined && byTxid.has(p));
  };
  const ordered: T[] = [];
  const placed = new Set<string>();
  const place = (txid: string, path: Set<string>) => {
    if (placed.has(txid) || path.has(txid)) return;
    path.add(txid);
    for (const p of parentsOf(txid)) place(p, path);
    placed.add(txid);
    ordered.push(byTxid.get(txid)!);
  };
  for (const r of rows) place(r.txid, new Set());
  return ordered;
}

/**
 * At start: coins reserved by payments that never got as far as signing (no attempt was recorded, so
 * nothing can have reached the chain) are given back, with the idempotency keys of those calls.
 */
export function releaseUnsignedReservations(services: PaymentServices): void {
  const { repos, db } = services;
  db.transaction(() => {
    for (const u of repos.walletUtxos.reserved()) {
      const by = u.reservedBy;
      if (by && !repos.payments.attemptExists(by)) repos.walletUtxos.releaseCoin(u.txid, u.vout);
    }
    repos.payments.dropUnsentPendingKeys();
  })();
}
