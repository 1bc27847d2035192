import type { Db } from '../database.js';

/**
 * A user's second factor: a TOTP secret, `pending` from the start of enrolment until a first valid code
 * confirms it, then `active`. The secret is kept as it must be used (HMAC key, base32) inside the
 * encrypted database; it leaves only once, in the answer to the start of enrolment.
 */
export interface SecondFactorRow {
  uid: string;
  secret: string;
  state: 'pending' | 'active';
  createdAt: number;
  confirmedAt: number | null;
  /** The last time step whose code was accepted: codes of this step or earlier are refused (no replay). */
  lastStep: number | null;
}

interface Raw {
  uid: string;
  secret: string;
  state: 'pending' | 'active';
  created_at: number;
  confirmed_at: number | null;
  last_step: number | null;
}

const toRow = (r: Raw): SecondFactorRow => ({
  uid: r.uid,
  secret: r.secret,
  state: r.state,
  createdAt: r.created_at,
  confirmedAt: r.confirmed_at,
  lastStep: r.last_step,
});

export function createSecondFactorRepo(db: Db) {
  const byUid = db.prepare<[string], Raw>(
    'SELECT uid, secret, state, created_at, confirmed_at, last_step FROM second_factors WHERE uid = ?',
  );
  const putPending = db.prepare(
    `INSERT INTO second_factors (uid, secret, state, created_at) VALUES (?, ?, 'pending', ?)
     ON CONFLICT (uid) DO UPDATE SET secret = excluded.secret, created_at = excluded.created_at, last_step = NULL
     WHERE second_factors.state = 'pending'`,
  );
  const activate = db.prepare("UPDATE second_factors SET state = 'active', confirmed_at = ? WHERE uid = ? AND state = 'pending'");
  const consume = db.prepare('UPDATE second_factors SET last_step = ? WHERE uid = ? AND (last_step IS NULL OR last_step < ?)');
  const remove = db.prepare('DELETE FROM second_factors WHERE uid = ?');
  const listActive = db.prepare<[], { uid: string; confirmed_at: number }>(
    "SELECT uid, confirmed_at FROM second_factors WHERE state = 'active' ORDER BY confirmed_at, uid",
  );
  const insertCode = db.prepare('INSERT INTO recovery_codes (uid, code_hash) VALUES (?, ?)');
  const useCode = db.prepare('UPDATE recovery_codes SET used_at = ? WHERE uid = ? AND code_hash = ? AND used_at IS NULL');
  const unused = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM recovery_codes WHERE uid = ? AND used_at IS NULL');
  const removeCodes = db.prepare('DELETE FROM recovery_codes WHERE uid = ?');
  return {
    byUid(uid: string): SecondFactorRow | null {
      const r = byUid.get(uid);
      return r ? toRow(r) : null;
    },
    /** Starts (or restarts) an enrolment; never replaces an active factor (false then). */
    putPending(uid: string, secret: string, at: number): boolean {
      return putPending.run(uid, secret, at).changes > 0;
    },
    /** Confirms a pending enrolment (its first code's step was already consumed). */
    activate(uid: string, at: number): boolean {
      return activate.run(at, uid).changes > 0;
    },
    /** Records a step as used, only if it is newer than the last one: false means a replay. */
    consumeStep(uid: string, step: number): boolean {
      return consume.run(step, uid, step).changes > 0;
    },
    /** Removes the factor and its recovery codes; call inside a transaction. */
    remove(uid: string): boolean {
      removeCodes.run(uid);
      return remove.run(uid).changes > 0;
    },
    listActive(): { uid: string; confirmedAt: number }[] {
      return listActive.all().map((r) => ({ uid: r.uid, confirmedAt: r.confirmed_at }));
    },
    /** Replaces the recovery codes (their hashes); call inside a transaction. */
    setRecoveryCodes(uid: string, hashes: readonly string[]): void {
      removeCodes.run(uid);
      for (const h of hashes) insertCode.run(uid, h);
    },
    /** Marks an unused recovery code used; false when it is unknown or was used already. */
    useRecoveryCode(uid: string, hash: string, at: number): boolean {
      return useCode.run(at, uid, hash).changes > 0;
    },
    unusedRecoveryCodes(uid: string): number {
      return unused.get(uid)!.n;
    },
  };
}
export type SecondFactorRepo = ReturnType<typeof createSecondFactorRepo>;
