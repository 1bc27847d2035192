import { OPERATIONS } from '../../../shared/operations.js';
import type { ParsedInputOf, OutputOf } from '../../../shared/operation.js';
import type { OpContext } from '../context.js';
import type { AuditServices } from './services.js';

const iso = (t: number) => new Date(t).toISOString();

export function auditLog(
  ctx: OpContext<AuditServices>,
  input: ParsedInputOf<typeof OPERATIONS.auditLog>,
): OutputOf<typeof OPERATIONS.auditLog> {
  const before = input.nextPageToken ?? Number.MAX_SAFE_INTEGER;
  // One extra row tells whether another page exists.
  const rows = ctx.services.repos.audit.page(before, input.limit + 1);
  const entries = rows.slice(0, input.limit).map((e) => ({ ...e, at: iso(e.at) }));
  const nextPageToken = rows.length > input.limit ? entries[entries.length - 1].id : null;
  return { entries, meta: { nextPageToken } };
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

/** Writes one audit entry for an operation call. Never receives inputs, so no secret can reach the log. */
export function recordAudit(ctx: OpContext<AuditServices>, record: AuditRecord): void {
  if (record.outcome === 'success' && successWritten.has(ctx)) return;
  ctx.services.repos.audit.append({
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
