import { Transaction } from '@bsv/sdk';
import type { Services } from '../context.js';
import { recordPayment } from './pay.js';

/**
 * Settles payments whose outcome was unknown (an unclear answer, or a crash after signing): the same
 * signed transaction is sent again. Accepted (or already known) completes the payment and its
 * idempotency key; a definite refusal gives the coins back; no answer leaves it for the next round.
 */
export async function settlePendingPayments(services: Services): Promise<void> {
  for (const a of services.repos.payments.openAttempts()) {
    let r;
    try {
      r = await services.chain.broadcast(a.raw);
    } catch {
      continue;
    }
    if (r.status === 'accepted') {
      services.db.transaction(() => services.repos.payments.attemptDone(a.attempt, a.result))();
      recordPayment(services, a.wallet_row, Transaction.fromHex(a.raw), a.txid, a.memo, a.counterparty);
    } else if (r.reason !== 'network-error') {
      services.db.transaction(() => {
        services.repos.payments.attemptFailed(a.attempt);
        services.repos.walletUtxos.release(a.attempt);
      })();
    }
  }
}

/**
 * At start, after the wallet scan: settle what was sent, then give back coins reserved by payments that
 * never got as far as signing (no attempt was recorded, so nothing can have reached the chain).
 */
export async function reconcileReservations(services: Services): Promise<void> {
  await settlePendingPayments(services);
  const { repos, db } = services;
  db.transaction(() => {
    for (const u of repos.walletUtxos.reserved()) {
      const by = u.reservedBy;
      if (by && !repos.payments.attemptExists(by)) repos.walletUtxos.releaseCoin(u.txid, u.vout);
    }
    repos.payments.dropUnsentPendingKeys();
  })();
}
