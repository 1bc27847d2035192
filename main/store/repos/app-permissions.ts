import type { Db } from '../database.js';

export type PermissionKind = 'protocol' | 'basket' | 'certificate' | 'asset' | 'spend';
/** `used`: a spend request granted for one action, which that action has taken. */
export type PermissionState = 'pending' | 'granted' | 'denied' | 'used';

/** What a grant, denial or request covers (migration 23 says what each column holds per kind). */
export interface PermissionScope {
  originator: string;
  kind: PermissionKind;
  subject: string;
  securityLevel: 0 | 1 | 2 | null;
  counterparty: string | null;
  /** Certificate fields, sorted; null: every field (or not a certificate). */
  fields: string[] | null;
  satoshis: number | null;
}

export interface AppPermissionRow extends PermissionScope {
  id: number;
  purpose: string | null;
  state: PermissionState;
  requestedAt: number | null;
  decidedBy: string | null;
  decidedAt: number | null;
  expiresAt: number | null;
}

/** An app's monthly spending authorisation: satoshis, or an amount in a currency converted at the latest rate. */
export type SpendLimit = { satoshis: number } | { currency: string; amount: string };

export interface SpendLimitRow {
  originator: string;
  limit: SpendLimit;
  setBy: string;
  setAt: number;
}

interface Raw {
  id: number;
  originator: string;
  kind: PermissionKind;
  subject: string;
  security_level: 0 | 1 | 2 | null;
  counterparty: string | null;
  fields: string | null;
  satoshis: number | null;
  purpose: string | null;
  state: PermissionState;
  requested_at: number | null;
  decided_by: string | null;
  decided_at: number | null;
  expires_at: number | null;
}

interface RawLimit {
  originator: string;
  satoshis: number | null;
  currency: string | null;
  amount: string | null;
  set_by: string;
  set_at: number;
}

const toRow = (r: Raw): AppPermissionRow => ({
  id: r.id,
  originator: r.originator,
  kind: r.kind,
  subject: r.subject,
  securityLevel: r.security_level,
  counterparty: r.counterparty,
  fields: r.fields === null ? null : (JSON.parse(r.fields) as string[]),
  satoshis: r.satoshis,
  purpose: r.purpose,
  state: r.state,
  requestedAt: r.requested_at,
  decidedBy: r.decided_by,
  decidedAt: r.decided_at,
  expiresAt: r.expires_at,
});

const toLimit = (r: RawLimit): SpendLimitRow => ({
  originator: r.originator,
  limit: r.satoshis !== null ? { satoshis: r.satoshis } : { currency: r.currency!, amount: r.amount! },
  setBy: r.set_by,
  setAt: r.set_at,
});

/** Certificate fields in one spelling (sorted, once each), so the same set is the same key. */
export const canonicalFields = (fields: readonly string[] | null): string[] | null =>
  fields === null ? null : [...new Set(fields)].sort();

const scopeParams = (s: PermissionScope) => ({
  originator: s.originator,
  kind: s.kind,
  subject: s.subject,
  level: s.securityLevel,
  counterparty: s.counterparty,
  fields: s.fields === null ? null : JSON.stringify(canonicalFields(s.fields)),
  satoshis: s.satoshis,
});

/**
 * BRC-100 apps' permissions (engine/apps/permissions): grants, denials and pending requests, the monthly
 * spending authorisations and what each action counted against them. Callers group the read of a month's
 * remainder and the hold that uses it in one database transaction.
 */
export function createAppPermissionRepo(db: Db) {
  const byId = db.prepare<[number], Raw>('SELECT * FROM app_permissions WHERE id = ?');
  const bySubject = db.prepare<[string, string, string], Raw>(
    "SELECT * FROM app_permissions WHERE originator = ? AND kind = ? AND subject = ? AND kind != 'spend' ORDER BY id",
  );
  const exact = db.prepare<Record<string, unknown>, Raw>(
    `SELECT * FROM app_permissions WHERE originator = @originator AND kind = @kind AND subject = @subject AND kind != 'spend'
       AND security_level IS @level AND counterparty IS @counterparty AND fields IS @fields ORDER BY id LIMIT 1`,
  );
  const insert = db.prepare<Record<string, unknown>>(
    `INSERT INTO app_permissions (originator, kind, subject, security_level, counterparty, fields, satoshis, purpose, state, requested_at,
       decided_by, decided_at, expires_at)
     VALUES (@originator, @kind, @subject, @level, @counterparty, @fields, @satoshis, @purpose, @state, @requestedAt, @by, @decidedAt, @expiresAt)`,
  );
  const decide = db.prepare<Record<string, unknown>>(
    'UPDATE app_permissions SET state = @state, decided_by = @by, decided_at = @at, expires_at = @expiresAt WHERE id = @id',
  );
  const remove = db.prepare<[number]>('DELETE FROM app_permissions WHERE id = ?');
  const list = db.prepare<[string | null, string | null], Raw>(
    `SELECT * FROM app_permissions WHERE (? IS NULL OR originator = ?)
     ORDER BY state != 'pending', originator, kind, subject, id DESC LIMIT 1000`,
  );
  const pendingOf = db.prepare<[string], { n: number }>(
    "SELECT count(*) AS n FROM app_permissions WHERE originator = ? AND state = 'pending'",
  );
  const pendingAll = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM app_permissions WHERE state = 'pending'");
  const limitOf = db.prepare<[string], RawLimit>('SELECT * FROM app_spend_limits WHERE originator = ?');
  const limits = db.prepare<[], RawLimit>('SELECT * FROM app_spend_limits ORDER BY originator');
  const putLimit = db.prepare(
    `INSERT INTO app_spend_limits (originator, satoshis, currency, amount, set_by, set_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (originator) DO UPDATE SET satoshis = excluded.satoshis, currency = excluded.currency, amount = excluded.amount,
       set_by = excluded.set_by, set_at = excluded.set_at`,
  );
  const dropLimit = db.prepare<[string]>('DELETE FROM app_spend_limits WHERE originator = ?');
  const counted = db.prepare<[string, number], { n: number | null }>(
    'SELECT sum(satoshis) AS n FROM app_spend_holds WHERE originator = ? AND at >= ? AND released = 0 AND request_id IS NULL',
  );
  const spent = db.prepare<[string, number], { n: number | null }>(
    'SELECT sum(satoshis) AS n FROM app_spend_holds WHERE originator = ? AND at >= ? AND released = 0',
  );
  const hold = db.prepare('INSERT INTO app_spend_holds (originator, at, satoshis, request_id) VALUES (?, ?, ?, ?)');
  const release = db.prepare<[number]>('UPDATE app_spend_holds SET released = 1 WHERE id = ?');

  return {
    get(id: number): AppPermissionRow | null {
      const r = byId.get(id);
      return r ? toRow(r) : null;
    },
    /** Every grant, denial and request (not spends) of an app about one protocol, basket, certificate type or asset. */
    about(originator: string, kind: Exclude<PermissionKind, 'spend'>, subject: string): AppPermissionRow[] {
      return bySubject.all(originator, kind, subject).map(toRow);
    },
    /** The row with exactly this scope (not spends), if any. */
    exact(scope: PermissionScope): AppPermissionRow | null {
      const r = exact.get(scopeParams(scope));
      return r ? toRow(r) : null;
    },
    /** Records a pending request of the app. */
    request(scope: PermissionScope, purpose: string, at: number): AppPermissionRow {
      const { lastInsertRowid } = insert.run({
        ...scopeParams(scope),
        purpose,
        state: 'pending',
        requestedAt: at,
        by: null,
        decidedAt: null,
        expiresAt: null,
      });
      return toRow(byId.get(Number(lastInsertRowid))!);
    },
    /** A grant or denial made ahead of any request. */
    insertDecided(scope: PermissionScope, state: 'granted' | 'denied', by: string, at: number, expiresAt: number | null): AppPermissionRow {
      const { lastInsertRowid } = insert.run({
        ...scopeParams(scope),
        purpose: null,
        state,
        requestedAt: null,
        by,
        decidedAt: at,
        expiresAt,
      });
      return toRow(byId.get(Number(lastInsertRowid))!);
    },
    decide(id: number, state: PermissionState, by: string | null, at: number, expiresAt: number | null): void {
      decide.run({ id, state, by, at, expiresAt });
    },
    remove(id: number): boolean {
      return remove.run(id).changes > 0;
    },
    /** Pending requests first. `originator` null: every app. */
    list(originator: string | null): AppPermissionRow[] {
      return list.all(originator, originator).map(toRow);
    },
    pendingCount(originator?: string): number {
      return (originator === undefined ? pendingAll.get() : pendingOf.get(originator))!.n;
    },
    spendLimit(originator: string): SpendLimitRow | null {
      const r = limitOf.get(originator);
      return r ? toLimit(r) : null;
    },
    spendLimits(): SpendLimitRow[] {
      return limits.all().map(toLimit);
    },
    setSpendLimit(originator: string, limit: SpendLimit | null, by: string, at: number): void {
      if (limit === null) dropLimit.run(originator);
      else if ('satoshis' in limit) putLimit.run(originator, limit.satoshis, null, null, by, at);
      else putLimit.run(originator, null, limit.currency, limit.amount, by, at);
    },
    /** Satoshis counted against the authorisation since `since` (actions let through on their own grant are not). */
    countedSince(originator: string, since: number): number {
      return counted.get(originator, since)!.n ?? 0;
    },
    /** Every satoshi the app's actions held since `since`, on the authorisation or on their own grant. */
    spentSince(originator: string, since: number): number {
      return spent.get(originator, since)!.n ?? 0;
    },
    hold(originator: string, at: number, satoshis: number, requestId: number | null): number {
      return Number(hold.run(originator, at, satoshis, requestId).lastInsertRowid);
    },
    release(holdId: number): void {
      release.run(holdId);
    },
  };
}
export type AppPermissionRepo = ReturnType<typeof createAppPermissionRepo>;
