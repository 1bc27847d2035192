import type { Db } from '../database.js';

export type PayeeKind = 'paymail' | 'address' | 'identity_key';
export type PayeeState = 'active' | 'removed';

export interface PayeeRow {
  id: string;
  name: string;
  kind: PayeeKind;
  /** Normalised by the engine: a paymail lower-case, an address as given, an identity key lower-case hex. */
  destination: string;
  note: string | null;
  createdBy: string;
  createdAt: number;
  updatedBy: string | null;
  updatedAt: number;
  /** When it may first be paid without a rule's approvers (ms since 1970). */
  usableFrom: number;
  state: PayeeState;
}

interface Raw {
  id: string;
  name: string;
  kind: PayeeKind;
  destination: string;
  note: string | null;
  created_by: string;
  created_at: number;
  updated_by: string | null;
  updated_at: number;
  usable_from: number;
  state: PayeeState;
}

const toRow = (r: Raw): PayeeRow => ({
  id: r.id,
  name: r.name,
  kind: r.kind,
  destination: r.destination,
  note: r.note,
  createdBy: r.created_by,
  createdAt: r.created_at,
  updatedBy: r.updated_by,
  updatedAt: r.updated_at,
  usableFrom: r.usable_from,
  state: r.state,
});

export type NewPayee = Omit<PayeeRow, 'state' | 'updatedBy' | 'updatedAt'>;

/** What an edit may change; the engine decides `usableFrom` (a changed destination starts a new cooling-off). */
export interface PayeeChange {
  name: string;
  kind: PayeeKind;
  destination: string;
  note: string | null;
  usableFrom: number;
  updatedBy: string;
  updatedAt: number;
}

/**
 * The organisation's payee book (engine/payees). A removed payee is kept, marked `removed`, so the audit
 * trail and past decisions still name it; only active payees hold their destination (unique index).
 */
export function createPayeeRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO payees (id, name, kind, destination, note, created_by, created_at, updated_by, updated_at, usable_from, state)
     VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, 'active')`,
  );
  const update = db.prepare(
    `UPDATE payees SET name = ?, kind = ?, destination = ?, note = ?, usable_from = ?, updated_by = ?, updated_at = ?
     WHERE id = ? AND state = 'active'`,
  );
  const remove = db.prepare("UPDATE payees SET state = 'removed', updated_by = ?, updated_at = ? WHERE id = ? AND state = 'active'");
  const byId = db.prepare<[string], Raw>('SELECT * FROM payees WHERE id = ?');
  const active = db.prepare<[], Raw>("SELECT * FROM payees WHERE state = 'active' ORDER BY name COLLATE NOCASE, created_at, id");
  const all = db.prepare<[], Raw>("SELECT * FROM payees ORDER BY state = 'removed', name COLLATE NOCASE, created_at, id");
  const findActive = db.prepare<[PayeeKind, string], Raw>("SELECT * FROM payees WHERE kind = ? AND destination = ? AND state = 'active'");
  return {
    add(p: NewPayee): PayeeRow {
      insert.run(p.id, p.name, p.kind, p.destination, p.note, p.createdBy, p.createdAt, p.createdAt, p.usableFrom);
      return { ...p, updatedBy: null, updatedAt: p.createdAt, state: 'active' };
    },
    /** Changes an active payee; false when there is none with that id. */
    update(id: string, c: PayeeChange): boolean {
      return update.run(c.name, c.kind, c.destination, c.note, c.usableFrom, c.updatedBy, c.updatedAt, id).changes > 0;
    },
    /** Marks an active payee removed (kept for the record); false when there is none with that id. */
    remove(id: string, by: string, at: number): boolean {
      return remove.run(by, at, id).changes > 0;
    },
    /** Active payees by name; with `all`, the removed ones too (after the active ones). */
    list(opts: { all?: boolean } = {}): PayeeRow[] {
      return (opts.all ? all : active).all().map(toRow);
    },
    byId(id: string): PayeeRow | null {
      const r = byId.get(id);
      return r ? toRow(r) : null;
    },
    /** The active payee holding a (normalised) destination, if any. */
    findActive(kind: PayeeKind, destination: string): PayeeRow | null {
      const r = findActive.get(kind, destination);
      return r ? toRow(r) : null;
    },
  };
}
export type PayeeRepo = ReturnType<typeof createPayeeRepo>;
