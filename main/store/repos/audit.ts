import type { Db } from '../database.js';

export interface AuditEntry {
  id: number;
  at: number;
  actorUid: string | null;
  actorEmail: string | null;
  action: string;
  target: string | null;
  outcome: 'success' | 'error';
  code: string | null;
  client: string | null;
}

interface Raw {
  id: number;
  at: number;
  actor_uid: string | null;
  actor_email: string | null;
  action: string;
  target: string | null;
  outcome: 'success' | 'error';
  code: string | null;
  client: string | null;
}

/** Append-only: there is no update or delete here on purpose. */
export function createAuditRepo(db: Db) {
  const insert = db.prepare(
    'INSERT INTO audit_log (at, actor_uid, actor_email, action, target, outcome, code, client) VALUES (@at, @actorUid, @actorEmail, @action, @target, @outcome, @code, @client)',
  );
  // Newest first; the cursor is the last id seen, so pages stay stable while new entries arrive.
  const page = db.prepare<[number, number], Raw>('SELECT * FROM audit_log WHERE id < ? ORDER BY id DESC LIMIT ?');
  return {
    append(e: Omit<AuditEntry, 'id'>): void {
      insert.run(e);
    },
    page(beforeId: number, limit: number): AuditEntry[] {
      return page.all(beforeId, limit).map((r) => ({
        id: r.id,
        at: r.at,
        actorUid: r.actor_uid,
        actorEmail: r.actor_email,
        action: r.action,
        target: r.target,
        outcome: r.outcome,
        code: r.code,
        client: r.client,
      }));
    },
  };
}
export type AuditRepo = ReturnType<typeof createAuditRepo>;
