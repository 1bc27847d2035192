import type { Db } from '../database.js';

export interface SessionRow {
  tokenHash: string;
  uid: string;
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
}

/** Sessions are stored by the SHA-256 of their token only; the token itself never reaches the disk. */
export function createSessionRepo(db: Db) {
  const insert = db.prepare('INSERT INTO sessions (token_hash, uid, created_at, expires_at) VALUES (?, ?, ?, ?)');
  const byHash = db.prepare<
    [string],
    { token_hash: string; uid: string; created_at: number; expires_at: number; revoked_at: number | null }
  >('SELECT token_hash, uid, created_at, expires_at, revoked_at FROM sessions WHERE token_hash = ?');
  const revoke = db.prepare('UPDATE sessions SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL');
  const revokeAll = db.prepare('UPDATE sessions SET revoked_at = ? WHERE uid = ? AND revoked_at IS NULL');
  const revokeOthers = db.prepare('UPDATE sessions SET revoked_at = ? WHERE uid = ? AND token_hash <> ? AND revoked_at IS NULL');
  const purge = db.prepare('DELETE FROM sessions WHERE expires_at < ? OR revoked_at < ?');
  return {
    insert(s: Omit<SessionRow, 'revokedAt'>): void {
      insert.run(s.tokenHash, s.uid, s.createdAt, s.expiresAt);
    },
    byHash(tokenHash: string): SessionRow | null {
      const r = byHash.get(tokenHash);
      return r ? { tokenHash: r.token_hash, uid: r.uid, createdAt: r.created_at, expiresAt: r.expires_at, revokedAt: r.revoked_at } : null;
    },
    revoke(tokenHash: string, at: number): boolean {
      return revoke.run(at, tokenHash).changes > 0;
    },
    revokeAllForUser(uid: string, at: number): number {
      return revokeAll.run(at, uid).changes;
    },
    revokeOthersForUser(uid: string, keepTokenHash: string, at: number): number {
      return revokeOthers.run(at, uid, keepTokenHash).changes;
    },
    /** Drops sessions that ended more than a day ago; called at start so the table does not grow forever. */
    purgeEndedBefore(at: number): number {
      return purge.run(at, at).changes;
    },
  };
}
export type SessionRepo = ReturnType<typeof createSessionRepo>;
