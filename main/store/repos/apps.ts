import type { Db } from '../database.js';

export type AppState = 'pending' | 'allowed' | 'denied' | 'revoked';

/** A BRC-100 application, known by its originator (engine/apps). */
export interface AppRow {
  originator: string;
  state: AppState;
  /** The wallet that answers it (in the account of whoever allowed it); null: the default wallet for apps. */
  walletId: string | null;
  firstSeenAt: number;
  decidedBy: string | null;
  decidedAt: number | null;
  lastCallAt: number | null;
  calls: number;
}

interface Raw {
  originator: string;
  state: AppState;
  wallet_id: string | null;
  first_seen_at: number;
  decided_by: string | null;
  decided_at: number | null;
  last_call_at: number | null;
  calls: number;
}

const toRow = (r: Raw): AppRow => ({
  originator: r.originator,
  state: r.state,
  walletId: r.wallet_id,
  firstSeenAt: r.first_seen_at,
  decidedBy: r.decided_by,
  decidedAt: r.decided_at,
  lastCallAt: r.last_call_at,
  calls: r.calls,
});

/** The apps table: one row per originator, pending ones first when listed. */
export function createAppRepo(db: Db) {
  const byOriginator = db.prepare<[string], Raw>('SELECT * FROM apps WHERE originator = ?');
  const all = db.prepare<[], Raw>("SELECT * FROM apps ORDER BY state != 'pending', first_seen_at DESC, originator");
  const insertPending = db.prepare(
    "INSERT INTO apps (originator, state, first_seen_at) VALUES (?, 'pending', ?) ON CONFLICT(originator) DO NOTHING",
  );
  const decide = db.prepare(
    `INSERT INTO apps (originator, state, wallet_id, first_seen_at, decided_by, decided_at) VALUES (@originator, @state, @walletId, @at, @by, @at)
     ON CONFLICT(originator) DO UPDATE SET state = excluded.state, wallet_id = excluded.wallet_id, decided_by = excluded.decided_by,
       decided_at = excluded.decided_at, calls = CASE WHEN apps.state = 'allowed' AND excluded.state = 'allowed' THEN apps.calls ELSE 0 END`,
  );
  const revoke = db.prepare("UPDATE apps SET state = 'revoked', decided_by = ?, decided_at = ? WHERE originator = ?");
  const pendingCount = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM apps WHERE state = 'pending'");
  const called = db.prepare('UPDATE apps SET calls = calls + 1, last_call_at = ? WHERE originator = ?');
  return {
    get(originator: string): AppRow | null {
      const r = byOriginator.get(originator);
      return r ? toRow(r) : null;
    },
    list(): AppRow[] {
      return all.all().map(toRow);
    },
    /** Records a new originator as pending; true when it was new. */
    seen(originator: string, at: number): boolean {
      return insertPending.run(originator, at).changes > 0;
    },
    /** Allows or denies it (recording it when it was not seen yet); the call count starts again unless it stays allowed. */
    decide(originator: string, state: 'allowed' | 'denied', walletId: string | null, by: string, at: number): AppRow {
      decide.run({ originator, state, walletId, by, at });
      return toRow(byOriginator.get(originator)!);
    },
    revoke(originator: string, by: string, at: number): void {
      revoke.run(by, at, originator);
    },
    pendingCount(): number {
      return pendingCount.get()!.n;
    },
    called(originator: string, at: number): void {
      called.run(at, originator);
    },
  };
}
export type AppRepo = ReturnType<typeof createAppRepo>;
