import type { Db } from './database.js';

/**
 * Database transactions that may share one commit. Under load, several value moves reach the same step in
 * one turn of the event loop (eight clients' pays, the node's verdicts for several of them); committing each
 * alone encrypts and authenticates the same pages once per move. `write(fn)` queues `fn`, and at the end of
 * the turn every queued `fn` runs, each in a savepoint of its own, inside one transaction that commits once.
 *
 * What each caller gets is what a transaction of its own gives it: `fn` runs whole or not at all (its
 * savepoint is rolled back when it throws, and the others are unaffected), and its promise settles only
 * after the commit that holds it, so nothing that follows a write (a broadcast after a payment is recorded)
 * happens before the write is on disk. The transaction is open only while the queued functions run, in one
 * synchronous stretch: no other code ever sees it open, and a crash before the commit loses only writes
 * whose callers have not heard back. A lone caller (one client) waits one turn, with nothing to share.
 */
export interface GroupedCommits {
  /** Runs `fn` in a database transaction (maybe shared, see above); settles after its commit. */
  write<T>(fn: () => T): Promise<T>;
  /** Runs what is queued now (before the database closes). */
  flush(): void;
}

interface Queued {
  fn: () => unknown;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

export function groupedCommits(
  db: Pick<Db, 'transaction' | 'inTransaction'>,
  defer: (run: () => void) => void = setImmediate,
): GroupedCommits {
  let queue: Queued[] = [];
  const flush = () => {
    const batch = queue;
    queue = [];
    if (!batch.length) return;
    const outcomes: ({ ok: true; value: unknown } | { ok: false; err: unknown })[] = [];
    try {
      db.transaction(() => {
        for (const q of batch) {
          try {
            // A nested db.transaction is a savepoint: a throwing fn undoes its own writes only.
            outcomes.push({ ok: true, value: db.transaction(q.fn)() });
          } catch (err) {
            outcomes.push({ ok: false, err });
            if (!db.inTransaction) throw err;
          }
          // Some errors (SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM) make SQLite roll back the whole
          // transaction, with every write before this one. The next fn must not run: with no transaction
          // open, its db.transaction would BEGIN and COMMIT one of its own, and its caller would be told it
          // failed (the batch fails below) while its write stood — a payment recorded as sent whose coins
          // its caller gives back. So the batch stops here, and every caller hears that nothing was written.
          // (A fn that swallowed such an error and went on would have written outside any transaction: the
          // same hazard as with a transaction of its own; still, the batch fails rather than claim a commit.)
          if (!db.inTransaction) throw new Error('the database ended the shared transaction before its commit; nothing of it was written');
        }
      })();
    } catch (err) {
      // The commit failed, or SQLite ended the transaction: nothing of the batch is written.
      for (const q of batch) q.reject(err);
      return;
    }
    batch.forEach((q, i) => {
      const o = outcomes[i];
      if (o.ok) q.resolve(o.value);
      else q.reject(o.err);
    });
  };
  return {
    write<T>(fn: () => T): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        if (!queue.length) defer(flush);
        queue.push({ fn, resolve: resolve as (v: unknown) => void, reject });
      });
    },
    flush,
  };
}
