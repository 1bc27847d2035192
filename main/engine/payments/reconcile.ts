import type { Services } from '../context.js';

/**
 * After a crash, coins may still be marked reserved by a payment that never finished. The wallet scan
 * (run first) has applied every transaction the chain knows, so a coin still reserved is either unspent
 * on the chain (the payment never left: give it back) or spent by something the scan could not see
 * (keep it out of use, marked spent). Pending idempotency keys of unanswered calls are dropped.
 */
export async function reconcileReservations(services: Services): Promise<void> {
  const { repos, chain, db } = services;
  const reserved = repos.walletUtxos.reserved();
  const byAddress = new Map<string, Set<string>>();
  for (const u of reserved) {
    if (!u.address || byAddress.has(u.address)) continue;
    try {
      byAddress.set(u.address, new Set((await chain.getUtxos(u.address)).map((c) => `${c.txid}:${c.vout}`)));
    } catch {
      return; // the chain is unreachable: leave reservations for the next start
    }
  }
  db.transaction(() => {
    for (const u of reserved) {
      const live = u.address ? byAddress.get(u.address)?.has(`${u.txid}:${u.vout}`) : false;
      if (live) repos.walletUtxos.releaseCoin(u.txid, u.vout);
      else repos.walletUtxos.markSpent(u.txid, u.vout, 'unknown');
    }
    repos.payments.dropPendingKeys();
  })();
}
