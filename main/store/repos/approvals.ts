import type { Db } from '../database.js';

/** `sending`: approved and claimed by the one call carrying it out (or cut off there by a crash; see claim). */
export type ApprovalState = 'awaiting_approval' | 'approved' | 'sending' | 'sent' | 'failed' | 'rejected' | 'expired' | 'cancelled';

/**
 * What became of the payments an approved request's operation recorded, found by the idempotency key it ran
 * under (its id, or `send:<id>#<item>` for a batch's items): `sent` when one was delivered or the chain has
 * it (txid), `open` while one awaits its outcome, `none` when nothing was recorded or what was failed.
 */
export type ApprovalPayment = { outcome: 'sent'; txid: string | null } | { outcome: 'open' } | { outcome: 'none' };

export interface ApprovalRow {
  id: string;
  operation: string;
  /** The operation's input as JSON, secrets removed. */
  input: string;
  /** The review as JSON (shared/contracts/approvals.ts approvalReview). */
  review: string;
  walletRow: number;
  initiatorUid: string;
  initiatorKey: string | null;
  policyVersion: number;
  rule: string;
  needed: number;
  approverRoles: string[];
  approverUids: string[];
  state: ApprovalState;
  createdAt: number;
  expiresAt: number;
  decidedAt: number | null;
  txid: string | null;
  error: string | null;
}

interface Raw {
  id: string;
  operation: string;
  input: string;
  review: string;
  wallet_row: number;
  initiator_uid: string;
  initiator_key: string | null;
  policy_version: number;
  rule: string;
  needed: number;
  approver_roles: string;
  approver_uids: string;
  state: ApprovalState;
  created_at: number;
  expires_at: number;
  decided_at: number | null;
  txid: string | null;
  error: string | null;
}

const rowOf = (r: Raw): ApprovalRow => ({
  id: r.id,
  operation: r.operation,
  input: r.input,
  review: r.review,
  walletRow: r.wallet_row,
  initiatorUid: r.initiator_uid,
  initiatorKey: r.initiator_key,
  policyVersion: r.policy_version,
  rule: r.rule,
  needed: r.needed,
  approverRoles: JSON.parse(r.approver_roles) as string[],
  approverUids: JSON.parse(r.approver_uids) as string[],
  state: r.state,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  decidedAt: r.decided_at,
  txid: r.txid,
  error: r.error,
});

export interface Vote {
  voterUid: string;
  vote: 'approve' | 'reject';
  at: number;
}

/** Payments awaiting approval and their votes. A state changes only from the state it is expected in. */
export function createApprovalRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO approval_requests (id, operation, input, review, wallet_row, initiator_uid, initiator_key, policy_version, rule, needed,
       approver_roles, approver_uids, state, created_at, expires_at)
     VALUES (@id, @operation, @input, @review, @walletRow, @initiatorUid, @initiatorKey, @policyVersion, @rule, @needed,
       @approverRoles, @approverUids, 'awaiting_approval', @createdAt, @expiresAt)`,
  );
  const byId = db.prepare<[string], Raw>('SELECT * FROM approval_requests WHERE id = ?');
  const byState = db.prepare<[string], Raw>('SELECT * FROM approval_requests WHERE state = ? ORDER BY created_at DESC LIMIT 500');
  const recent = db.prepare<[], Raw>('SELECT * FROM approval_requests ORDER BY created_at DESC LIMIT 500');
  const expiredOpen = db.prepare<[number], { id: string }>(
    "SELECT id FROM approval_requests WHERE state = 'awaiting_approval' AND expires_at <= ?",
  );
  const move = db.prepare(
    'UPDATE approval_requests SET state = ?, decided_at = coalesce(?, decided_at), txid = coalesce(?, txid), error = ? WHERE id = ? AND state = ?',
  );
  const claim = db.prepare("UPDATE approval_requests SET state = 'sending', error = NULL WHERE id = ? AND state = 'approved'");
  const payments = db.prepare<[string], { key_state: string; response: string | null; attempt_state: string | null; txid: string | null }>(
    `SELECT i.state AS key_state, i.response, p.state AS attempt_state, p.txid
       FROM approval_requests a
       JOIN idempotency i ON i.uid = a.initiator_uid
        AND (i.key = a.id OR substr(i.key, 1, length(a.id) + 6) = 'send:' || a.id || '#')
       LEFT JOIN payment_attempts p ON p.attempt = i.attempt
      WHERE a.id = ?`,
  );
  const moveStates = db.prepare<[string], { state: string }>('SELECT state FROM value_moves WHERE approval_id = ?');
  const insertVote = db.prepare('INSERT OR IGNORE INTO approval_votes (request_id, voter_uid, vote, at) VALUES (?, ?, ?, ?)');
  const votes = db.prepare<[string], { voter_uid: string; vote: 'approve' | 'reject'; at: number }>(
    'SELECT voter_uid, vote, at FROM approval_votes WHERE request_id = ? ORDER BY at, voter_uid',
  );

  return {
    insert(r: Omit<ApprovalRow, 'state' | 'decidedAt' | 'txid' | 'error'>): void {
      insert.run({ ...r, approverRoles: JSON.stringify(r.approverRoles), approverUids: JSON.stringify(r.approverUids) });
    },
    byId(id: string): ApprovalRow | null {
      const r = byId.get(id);
      return r ? rowOf(r) : null;
    },
    list(state: ApprovalState | 'all'): ApprovalRow[] {
      return (state === 'all' ? recent.all() : byState.all(state)).map(rowOf);
    },
    expiredOpen(now: number): string[] {
      return expiredOpen.all(now).map((r) => r.id);
    },
    /** Moves a request from `from` to `to`; false when it was not in `from` (another caller got there first). */
    transition(
      id: string,
      from: ApprovalState,
      to: ApprovalState,
      at: number | null,
      extra: { txid?: string; error?: string } = {},
    ): boolean {
      return move.run(to, at, extra.txid ?? null, extra.error ?? null, id, from).changes === 1;
    },
    /**
     * Claims an approved request for the one call that carries it out: approved → sending in one conditional
     * UPDATE, in a transaction of its own. False when it was not approved (another call claimed it first).
     */
    claim(id: string): boolean {
      return db.transaction(() => claim.run(id).changes === 1)();
    },
    /** What the request's operation recorded and what became of it (ApprovalPayment). */
    payment(id: string): ApprovalPayment {
      const rows = payments.all(id);
      const sent = rows.find((r) => r.attempt_state === 'done' || r.attempt_state === 'pending' || (r.key_state === 'done' && r.response));
      if (sent) {
        let txid = sent.txid;
        try {
          const t = (JSON.parse(sent.response ?? '{}') as { txid?: unknown }).txid;
          if (!txid && typeof t === 'string') txid = t;
        } catch {
          // the attempt's txid (if any) is enough
        }
        return { outcome: 'sent', txid };
      }
      if (rows.some((r) => r.attempt_state === 'sending' || r.attempt_state === 'unknown' || r.attempt_state === 'cancelling'))
        return { outcome: 'open' };
      return { outcome: 'none' };
    },
    /** Whether the request's move passed the policy's check as approved (its coins were reserved at least). */
    moveReserved(id: string): boolean {
      return moveStates.all(id).some((m) => m.state === 'held' || m.state === 'done');
    },
    /** One vote per person: false when this person has voted already. */
    vote(id: string, voterUid: string, vote: 'approve' | 'reject', at: number): boolean {
      return insertVote.run(id, voterUid, vote, at).changes === 1;
    },
    votes(id: string): Vote[] {
      return votes.all(id).map((v) => ({ voterUid: v.voter_uid, vote: v.vote, at: v.at }));
    },
  };
}
export type ApprovalRepo = ReturnType<typeof createApprovalRepo>;
