import type { Db } from '../database.js';

export interface ApiKeyRow {
  keyId: string;
  uid: string;
  label: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
  /** The first key of its rotations (its own id when it was minted, not rotated). */
  lineage: string;
}

interface Raw {
  key_id: string;
  uid: string;
  label: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
  lineage: string | null;
}
const toRow = (r: Raw): ApiKeyRow => ({
  keyId: r.key_id,
  uid: r.uid,
  label: r.label,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
  lineage: r.lineage ?? r.key_id,
});
const COLUMNS = 'key_id, uid, label, created_at, last_used_at, revoked_at, lineage';

/** API keys are stored as the SHA-256 of the key only; the key is shown once, at creation. */
export function createApiKeyRepo(db: Db) {
  const insert = db.prepare('INSERT INTO api_keys (key_id, uid, key_hash, label, created_at, lineage) VALUES (?, ?, ?, ?, ?, ?)');
  const byHash = db.prepare<[string], Raw>(`SELECT ${COLUMNS} FROM api_keys WHERE key_hash = ?`);
  const byId = db.prepare<[string], Raw>(`SELECT ${COLUMNS} FROM api_keys WHERE key_id = ?`);
  const activeForUser = db.prepare<[string], Raw>(
    `SELECT ${COLUMNS} FROM api_keys WHERE uid = ? AND revoked_at IS NULL ORDER BY created_at, rowid`,
  );
  const revoke = db.prepare('UPDATE api_keys SET revoked_at = ? WHERE key_id = ? AND revoked_at IS NULL');
  const revokeAll = db.prepare('UPDATE api_keys SET revoked_at = ? WHERE uid = ? AND revoked_at IS NULL');
  const touch = db.prepare('UPDATE api_keys SET last_used_at = ? WHERE key_id = ?');
  return {
    /** `lineage`: the replaced key's, when the key is minted by rotating another; else its own id. */
    insert(k: { keyId: string; uid: string; keyHash: string; label: string; createdAt: number; lineage?: string }): void {
      insert.run(k.keyId, k.uid, k.keyHash, k.label, k.createdAt, k.lineage ?? k.keyId);
    },
    byHash(keyHash: string): ApiKeyRow | null {
      const r = byHash.get(keyHash);
      return r ? toRow(r) : null;
    },
    byId(keyId: string): ApiKeyRow | null {
      const r = byId.get(keyId);
      return r ? toRow(r) : null;
    },
    activeForUser(uid: string): ApiKeyRow[] {
      return activeForUser.all(uid).map(toRow);
    },
    revoke(keyId: string, at: number): boolean {
      return revoke.run(at, keyId).changes > 0;
    },
    revokeAllForUser(uid: string, at: number): number {
      return revokeAll.run(at, uid).changes;
    },
    touch(keyId: string, at: number): void {
      touch.run(at, keyId);
    },
  };
}
export type ApiKeyRepo = ReturnType<typeof createApiKeyRepo>;
