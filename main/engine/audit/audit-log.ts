import { OPERATIONS } from '../../../shared/operations.js';
import type { ParsedInputOf, OutputOf } from '../../../shared/operation.js';
import { csvFile, type CsvCell } from '../../../shared/csv.js';
import { DomainError } from '../../../shared/errors.js';
import type { AuditCheckpoint, ChainedAuditEntry } from '../../store/repos/audit.js';
import type { OpContext } from '../context.js';
import type { AuditOpServices, AuditServices } from './services.js';

const iso = (t: number) => new Date(t).toISOString();
const DAY_MS = 86_400_000;
/** The most entries one export answers (a larger range is refused: export it in parts). */
export const MAX_EXPORT_ENTRIES = 100_000;

const wireEntry = (e: ChainedAuditEntry) => ({ ...e, at: iso(e.at) });
const wireCheckpoint = (c: AuditCheckpoint) => ({ ...c, createdAt: iso(c.createdAt) });

export function auditLog(
  ctx: OpContext<AuditOpServices>,
  input: ParsedInputOf<typeof OPERATIONS.auditLog>,
): OutputOf<typeof OPERATIONS.auditLog> {
  const before = input.nextPageToken ?? Number.MAX_SAFE_INTEGER;
  // One extra row tells whether another page exists.
  const rows = ctx.services.repos.audit.page(before, input.limit + 1);
  const entries = rows.slice(0, input.limit).map(wireEntry);
  const nextPageToken = rows.length > input.limit ? entries[entries.length - 1].id : null;
  return { entries, meta: { nextPageToken } };
}

export function auditVerify(ctx: OpContext<AuditOpServices>): Promise<OutputOf<typeof OPERATIONS.auditVerify>> {
  return ctx.services.auditTrail.verify();
}

export function auditCheckpoints(ctx: OpContext<AuditOpServices>): OutputOf<typeof OPERATIONS.auditCheckpoints> {
  const { auditTrail, repos } = ctx.services;
  const key = auditTrail.key.publicKey();
  return { checkpoints: repos.audit.checkpoints().map(wireCheckpoint), publicKey: key.hex, publicKeyPem: key.pem };
}

const CSV_HEAD = [
  'id',
  'at',
  'actor_uid',
  'actor_email',
  'action',
  'target',
  'outcome',
  'code',
  'client',
  'prev_hash',
  'hash',
  'checkpoint_day',
  'checkpoint_signature',
  'checkpoint_public_key',
  'anchor_txid',
];

/**
 * The entries as CSV, one row each; the row of a day's last entry also carries that day's checkpoint. Text a
 * spreadsheet would run is prefixed with `'` (shared/csv.ts): to recompute a hash from the CSV, drop that
 * prefix, or use the JSON export.
 */
export function auditCsv(entries: readonly ChainedAuditEntry[], checkpoints: readonly AuditCheckpoint[]): string {
  const closing = new Map(checkpoints.map((c) => [c.lastId, c]));
  const rows = entries.map((e): CsvCell[] => {
    const c = closing.get(e.id);
    return [
      e.id,
      iso(e.at),
      e.actorUid,
      e.actorEmail,
      e.action,
      e.target,
      e.outcome,
      e.code,
      e.client,
      e.prevHash,
      e.hash,
      c?.day ?? null,
      c?.signature ?? null,
      c?.publicKey ?? null,
      c?.anchorTxid ?? null,
    ];
  });
  return csvFile(CSV_HEAD, rows);
}

export function auditExport(
  ctx: OpContext<AuditOpServices>,
  input: ParsedInputOf<typeof OPERATIONS.auditExport>,
): OutputOf<typeof OPERATIONS.auditExport> {
  const { repos, auditTrail } = ctx.services;
  const from = Date.parse(`${input.from}T00:00:00Z`);
  const to = Date.parse(`${input.to}T00:00:00Z`);
  if (Number.isNaN(from) || Number.isNaN(to)) throw new DomainError('VALIDATION_FAILED', 'from, to: must be real dates, YYYY-MM-DD.');
  auditTrail.closeDays();
  const entries = repos.audit.between(from, to + DAY_MS);
  if (entries.length > MAX_EXPORT_ENTRIES)
    throw new DomainError(
      'PAYLOAD_TOO_LARGE',
      `The range holds ${entries.length} entries; an export answers ${MAX_EXPORT_ENTRIES} at most. Export a shorter range.`,
    );
  const checkpoints = repos.audit.checkpointsBetween(input.from, input.to);
  const key = auditTrail.key.publicKey();
  return {
    from: input.from,
    to: input.to,
    format: input.format,
    entries: entries.map(wireEntry),
    checkpoints: checkpoints.map(wireCheckpoint),
    publicKey: key.hex,
    publicKeyPem: key.pem,
    csv: input.format === 'csv' ? auditCsv(entries, checkpoints) : null,
  };
}

export function auditSettings(ctx: OpContext<AuditOpServices>): OutputOf<typeof OPERATIONS.auditSettings> {
  return { anchor: ctx.services.auditTrail.anchorOn(), feeManagerReady: ctx.services.repos.wallets.feeManager() !== null };
}

export function setAuditSettings(
  ctx: OpContext<AuditOpServices>,
  input: ParsedInputOf<typeof OPERATIONS.setAuditSettings>,
): OutputOf<typeof OPERATIONS.setAuditSettings> {
  ctx.services.auditTrail.setAnchor(input.anchor);
  return auditSettings(ctx);
}

export interface AuditRecord {
  action: string;
  target: string | null;
  outcome: 'success' | 'error';
  code: string | null;
}

/** Calls whose success entry their handler already wrote, inside the database transaction that finished them. */
const successWritten = new WeakSet<object>();

/**
 * Writes the success entry of an operation call from inside the database transaction that completes it
 * (a payment's booking), so the entry costs no commit of its own and is kept exactly when the completion
 * is. The caller must not fail after that transaction commits; recordAudit then skips the call's success
 * entry (a failure would still be recorded as one).
 */
export function recordSuccessInside(ctx: OpContext<AuditServices>, action: string, target: string | null): void {
  recordAudit(ctx, { action, target, outcome: 'success', code: null });
  successWritten.add(ctx);
}

/** Writes one audit entry for an operation call, chained to the one before. Never receives inputs, so no secret can reach the log. */
export function recordAudit(ctx: OpContext<AuditServices>, record: AuditRecord): void {
  if (record.outcome === 'success' && successWritten.has(ctx)) return;
  ctx.services.auditTrail.append({
    at: ctx.services.now(),
    actorUid: ctx.caller?.uid ?? null,
    actorEmail: ctx.caller?.email ?? null,
    action: record.action,
    target: record.target,
    outcome: record.outcome,
    code: record.code,
    client: ctx.meta.clientId,
  });
}
