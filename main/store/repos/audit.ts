import { createHash } from 'node:crypto';
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

/** An entry with its place in the hash chain (null only for a row nobody chained: written behind Keystead's back). */
export interface ChainedAuditEntry extends AuditEntry {
  prevHash: string | null;
  hash: string | null;
}

export interface AuditCheckpoint {
  /** The UTC day it closes, YYYY-MM-DD. */
  day: string;
  lastId: number;
  lastHash: string;
  /** DER-encoded ECDSA signature, hex. */
  signature: string;
  /** The audit key's public key (compressed, hex). */
  publicKey: string;
  createdAt: number;
  anchorTxid: string | null;
  /** Made when entries after its day already existed: its day was not closed in time (see trail.ts). */
  late: boolean;
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
  prev_hash: string | null;
  hash: string | null;
}

interface RawCheckpoint {
  day: string;
  last_id: number;
  last_hash: string;
  signature: string;
  public_key: string;
  created_at: number;
  anchor_txid: string | null;
  late: number;
}

/** The prev_hash of the first entry. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * The canonical form of an entry, the text its hash covers (README, "Audit trail"): the JSON array
 * `[id, at, actorUid, actorEmail, action, target, outcome, code, client]` as JSON.stringify writes it (no
 * spaces; `at` in milliseconds since 1970 UTC; absent values null). Field order is fixed here, never taken
 * from an object, so the text is the same on every engine and in any language's JSON writer.
 */
export function canonicalEntry(e: AuditEntry): string {
  return JSON.stringify([e.id, e.at, e.actorUid, e.actorEmail, e.action, e.target, e.outcome, e.code, e.client]);
}

/** hash = hex SHA-256 of UTF-8 `prev_hash + "\n" + canonical form`. */
export function entryHash(prevHash: string, e: AuditEntry): string {
  return createHash('sha256')
    .update(`${prevHash}\n${canonicalEntry(e)}`, 'utf8')
    .digest('hex');
}

/** The UTC day of a time in ms, YYYY-MM-DD. */
export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const entryOf = (r: Raw): ChainedAuditEntry => ({
  id: r.id,
  at: r.at,
  actorUid: r.actor_uid,
  actorEmail: r.actor_email,
  action: r.action,
  target: r.target,
  outcome: r.outcome,
  code: r.code,
  client: r.client,
  prevHash: r.prev_hash,
  hash: r.hash,
});

const checkpointOf = (r: RawCheckpoint): AuditCheckpoint => ({
  day: r.day,
  lastId: r.last_id,
  lastHash: r.last_hash,
  signature: r.signature,
  publicKey: r.public_key,
  createdAt: r.created_at,
  anchorTxid: r.anchor_txid,
  late: r.late === 1,
});

/**
 * Append-only: there is no update or delete of an entry here on purpose. Each entry carries the hash of
 * the one before (a chain from GENESIS_HASH), so a changed, removed or inserted row shows when the chain
 * is recomputed. The last id and hash are kept in memory (append runs inside payments' transactions and
 * must stay cheap); each append checks that the remembered entry is still the last one (max(id), one step
 * down the b-tree), which it no longer is after a rolled-back transaction or a write through another
 * connection: then the last row is read again.
 */
export function createAuditRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO audit_log (id, at, actor_uid, actor_email, action, target, outcome, code, client, prev_hash, hash)
     VALUES (@id, @at, @actorUid, @actorEmail, @action, @target, @outcome, @code, @client, @prevHash, @hash)`,
  );
  // max(id) of a rowid table is one step to the end of its b-tree (an INSERT … SELECT guard would copy through a temp table).
  const maxId = db.prepare<[], { m: number | null }>('SELECT max(id) AS m FROM audit_log');
  const lastRow = db.prepare<[], { id: number; hash: string | null }>('SELECT id, hash FROM audit_log ORDER BY id DESC LIMIT 1');
  // Newest first; the cursor is the last id seen, so pages stay stable while new entries arrive.
  const page = db.prepare<[number, number], Raw>('SELECT * FROM audit_log WHERE id < ? ORDER BY id DESC LIMIT ?');
  const after = db.prepare<[number, number], Raw>('SELECT * FROM audit_log WHERE id > ? ORDER BY id LIMIT ?');
  const between = db.prepare<[number, number], Raw>('SELECT * FROM audit_log WHERE at >= ? AND at < ? ORDER BY id');
  const count = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM audit_log');
  const issued = db.prepare<[], { seq: number }>("SELECT seq FROM sqlite_sequence WHERE name = 'audit_log'");
  // Rows written before the chain existed (migration 17): only those before every chained row.
  const unchained = db.prepare<[], Raw>(
    `SELECT * FROM audit_log WHERE hash IS NULL
       AND id < coalesce((SELECT min(id) FROM audit_log WHERE hash IS NOT NULL), 9223372036854775807) ORDER BY id`,
  );
  const hashBefore = db.prepare<[number], { hash: string | null }>('SELECT hash FROM audit_log WHERE id < ? ORDER BY id DESC LIMIT 1');
  const setHash = db.prepare<[string, string, number]>('UPDATE audit_log SET prev_hash = ?, hash = ? WHERE id = ?');
  // Finished days with entries after the last checkpoint and none of their own: the days to close.
  const openDays = db.prepare<[string], { day: string; last_id: number }>(
    `SELECT strftime('%Y-%m-%d', at / 1000, 'unixepoch') AS day, max(id) AS last_id FROM audit_log
      WHERE id > coalesce((SELECT max(last_id) FROM audit_checkpoints), 0)
      GROUP BY day HAVING day < ? AND day NOT IN (SELECT day FROM audit_checkpoints) ORDER BY day`,
  );
  const lastEntryId = db.prepare<[], { m: number | null }>('SELECT max(id) AS m FROM audit_log');
  const entryById = db.prepare<[number], Raw>('SELECT * FROM audit_log WHERE id = ?');
  const insertCheckpoint = db.prepare(
    `INSERT INTO audit_checkpoints (day, last_id, last_hash, signature, public_key, created_at, late)
     VALUES (@day, @lastId, @lastHash, @signature, @publicKey, @createdAt, @late)`,
  );
  const checkpoints = db.prepare<[], RawCheckpoint>('SELECT * FROM audit_checkpoints ORDER BY day');
  const checkpointsBetween = db.prepare<[string, string], RawCheckpoint>(
    'SELECT * FROM audit_checkpoints WHERE day >= ? AND day <= ? ORDER BY day',
  );
  const checkpointByDay = db.prepare<[string], RawCheckpoint>('SELECT * FROM audit_checkpoints WHERE day = ?');
  const setAnchor = db.prepare<[string, string]>('UPDATE audit_checkpoints SET anchor_txid = ? WHERE day = ? AND anchor_txid IS NULL');

  /** The last entry (id 0 and GENESIS_HASH when none) and the id the next one gets. */
  let last: { id: number; hash: string; next: number } | null = null;

  /**
   * Chains the rows written before migration 17 (one transaction), then remembers the last entry. The next
   * id follows AUTOINCREMENT's counter: were the last rows deleted, the next entry leaves their ids missing,
   * which verify reports, instead of taking their place.
   */
  const open = (): { id: number; hash: string; next: number } =>
    db.transaction(() => {
      const rows = unchained.all();
      if (rows.length) {
        let prev = hashBefore.get(rows[0].id)?.hash ?? GENESIS_HASH;
        for (const r of rows) {
          const hash = entryHash(prev, entryOf(r));
          setHash.run(prev, hash, r.id);
          prev = hash;
        }
      }
      const row = lastRow.get() ?? { id: 0, hash: GENESIS_HASH };
      last = { id: row.id, hash: row.hash ?? GENESIS_HASH, next: Math.max(row.id, issued.get()?.seq ?? 0) + 1 };
      return last;
    })();

  return {
    /** Chains entries written before the chain existed and reads the last hash; append does it on first use otherwise. */
    open(): void {
      open();
    },
    /** Appends an entry chained to the one before; returns it as stored. */
    append(e: Omit<AuditEntry, 'id'>): ChainedAuditEntry {
      for (let attempt = 0; ; attempt++) {
        const prev = last ?? open();
        if ((maxId.get()!.m ?? 0) === prev.id) {
          const entry: AuditEntry = { id: prev.next, ...e };
          const hash = entryHash(prev.hash, entry);
          insert.run({ ...entry, prevHash: prev.hash, hash });
          last = { id: entry.id, hash, next: entry.id + 1 };
          return { ...entry, prevHash: prev.hash, hash };
        }
        // The remembered entry is no longer the last one: read it again (once; a second miss is a bug).
        if (attempt > 0) throw new Error('audit chain: the last entry changed while appending');
        last = null;
      }
    },
    page(beforeId: number, limit: number): ChainedAuditEntry[] {
      return page.all(beforeId, limit).map(entryOf);
    },
    /** Up to `limit` entries after id `afterId`, oldest first (verify walks the chain in such slices). */
    after(afterId: number, limit: number): ChainedAuditEntry[] {
      return after.all(afterId, limit).map(entryOf);
    },
    /** Entries with fromMs <= at < toMs, oldest first. */
    between(fromMs: number, toMs: number): ChainedAuditEntry[] {
      return between.all(fromMs, toMs).map(entryOf);
    },
    byId(id: number): ChainedAuditEntry | null {
      const r = entryById.get(id);
      return r ? entryOf(r) : null;
    },
    count(): number {
      return count.get()!.n;
    },
    /** The highest id ever given out (AUTOINCREMENT's counter), 0 when none. */
    lastIssuedId(): number {
      return issued.get()?.seq ?? 0;
    },
    /** Days before `today` (YYYY-MM-DD) whose entries no checkpoint closes yet, each with its last entry. */
    openDays(today: string): { day: string; lastId: number }[] {
      return openDays.all(today).map((r) => ({ day: r.day, lastId: r.last_id }));
    },
    addCheckpoint(c: Omit<AuditCheckpoint, 'anchorTxid'>): void {
      insertCheckpoint.run({ ...c, late: c.late ? 1 : 0 });
    },
    /** The id of the newest entry (0 with none). */
    lastId(): number {
      return lastEntryId.get()?.m ?? 0;
    },
    checkpoints(): AuditCheckpoint[] {
      return checkpoints.all().map(checkpointOf);
    },
    /** Checkpoints of the days from `fromDay` to `toDay` (both YYYY-MM-DD, inclusive). */
    checkpointsBetween(fromDay: string, toDay: string): AuditCheckpoint[] {
      return checkpointsBetween.all(fromDay, toDay).map(checkpointOf);
    },
    checkpoint(day: string): AuditCheckpoint | null {
      const r = checkpointByDay.get(day);
      return r ? checkpointOf(r) : null;
    },
    setAnchor(day: string, txid: string): void {
      setAnchor.run(txid, day);
    },
  };
}
export type AuditRepo = ReturnType<typeof createAuditRepo>;
