import { createHash } from 'node:crypto';
import { DomainError } from '../../../shared/errors.js';
import { refuseReservedKey } from '../payments/reserved-keys.js';
import type { PaymentServices } from '../payments/services.js';

/**
 * Idempotency for batches (/v1/send): the caller's `Idempotency-Key` binds the whole batch to its body,
 * and each item gets a key of its own derived from it (`send:<key>#<index>`), kept in the same durable
 * table as pay's keys. An item's key is claimed before anything is resolved or signed, linked to the
 * stored transaction in the same database transaction that keeps it, and finished with that payment's
 * result when it settles. So a retry with the same key returns the first result of every item already
 * paid (or refuses one still in progress) and runs only the others: no item is ever paid twice.
 */

/** Where batch keys live in the idempotency table, apart from pay's keys of the same caller. */
const PREFIX = 'send:';

export interface KeyRef {
  uid: string;
  key: string;
}

/** What one item's run produced: its txids, and whether they come from an earlier call with the same key. */
export interface ItemOutcome {
  txIds: string[];
  replayed: boolean;
}

const hashOf = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex');

/**
 * Binds `key` to this batch's body (`request`: what identifies it). The same key with another body is
 * refused (409). The batch key is stored as done at once: it holds no result itself (its items do), and
 * must outlive a restart, which frees only pending keys that never sent anything.
 */
export function claimBatchKey(services: PaymentServices, uid: string, key: string, request: unknown): KeyRef {
  const { repos, db } = services;
  refuseReservedKey(key);
  const ref = { uid, key: `${PREFIX}${key}` };
  const hash = hashOf(request);
  const claim = db.transaction(() => {
    const c = repos.payments.claimKey(ref.uid, ref.key, services.now(), hash);
    if (c.claimed) repos.payments.finishKey(ref.uid, ref.key, JSON.stringify({ batch: true }));
    return c;
  })();
  if (!claim.claimed && !claim.sameRequest)
    throw new DomainError('CONFLICT', 'This idempotency-key was used for a different send; use a new key for a new batch.');
  return ref;
}

/**
 * Runs one item of a batch at most once under its batch key (or simply runs it without one). `run` gets
 * the item's key and must link it to the transaction it stores (pay and submitTokenSpend take it).
 */
export async function runItemOnce(
  services: PaymentServices,
  batch: KeyRef | null,
  index: number,
  item: unknown,
  run: (key: KeyRef | null) => Promise<string[]>,
): Promise<ItemOutcome> {
  if (!batch) return { txIds: await run(null), replayed: false };
  const { repos } = services;
  const ref = { uid: batch.uid, key: `${batch.key}#${index}` };
  const claim = repos.payments.claimKey(ref.uid, ref.key, services.now(), hashOf(item));
  if (!claim.claimed) {
    if (!claim.sameRequest)
      throw new DomainError(
        'CONFLICT',
        `Item ${index} differs from the item sent earlier with this idempotency-key; nothing was sent for it.`,
      );
    if (claim.state === 'done' && claim.response) {
      const txid = (JSON.parse(claim.response) as { txid?: unknown }).txid;
      if (typeof txid === 'string') return { txIds: [txid], replayed: true };
    }
    throw new DomainError(
      'CONFLICT',
      `Item ${index} of this send is still in progress under this idempotency-key; its outcome will be settled. Retry later: it is never paid twice.`,
    );
  }
  try {
    return { txIds: await run(ref), replayed: false };
  } catch (err) {
    // Nothing of this item was stored: its key may be used again. Once its transaction is stored, the key
    // stays bound to it, and only that transaction's definite failure frees it.
    repos.payments.dropUnsentKey(ref.uid, ref.key);
    throw err;
  }
}
