import type { Db } from '../database.js';

export type ApprovalState = 'awaiting_approval' | 'approved' | 'sent' | 'failed' | 'rejected' | 'expired' | 'cancelled';

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
