import type { Db } from '../database.js';

export type PolicyState = 'proposed' | 'active' | 'rejected' | 'superseded';

export interface PolicyVersionRow {
  version: number;
  document: string;
  state: PolicyState;
  proposedBy: string;
  proposedAt: number;
  decidedBy: string | null;
  decidedAt: number | null;
  note: string | null;
}

interface RawVersion {
  version: number;
  document: string;
  state: PolicyState;
  proposed_by: string;
  proposed_at: number;
  decided_by: string | null;
  decided_at: number | null;
  note: string | null;
}

const versionOf = (r: RawVersion): PolicyVersionRow => ({
  version: r.version,
  document: r.document,
  state: r.state,
  proposedBy: r.proposed_by,
  proposedAt: r.proposed_at,
  decidedBy: r.decided_by,
  decidedAt: r.decided_at,
  note: r.note,
});

/** What a window sums: one asset (`bsv`, `token:<id>`, `nfts`) of one initiator or one wallet since a time. */
export interface WindowKey {
  asset: string;
  since: number;
  initiator?: string;
  walletRow?: number;
}

/**
 * Policy versions (every one kept) and the value moves counted against the policy's time windows. A move is
 * `held` once the policy allowed it, `awaiting` while it waits for approval, and `released` when it ended
 * without moving anything; released moves no longer count.
 */
export function createPolicyRepo(db: Db) {
  const insertVersion = db.prepare(
    'INSERT INTO policy_versions (version, document, state, proposed_by, proposed_at, note) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const nextVersion = db.prepare<[], { v: number }>('SELECT coalesce(max(version), 0) + 1 AS v FROM policy_versions');
  const byVersion = db.prepare<[number], RawVersion>('SELECT * FROM policy_versions WHERE version = ?');
  const all = db.prepare<[], RawVersion>('SELECT * FROM policy_versions ORDER BY version DESC');
  const active = db.prepare<[], RawVersion>("SELECT * FROM policy_versions WHERE state = 'active' ORDER BY version DESC LIMIT 1");
  const proposed = db.prepare<[], RawVersion>("SELECT * FROM policy_versions WHERE state = 'proposed' ORDER BY version DESC LIMIT 1");
  const decide = db.prepare(
    "UPDATE policy_versions SET state = ?, decided_by = ?, decided_at = ?, note = coalesce(?, note) WHERE version = ? AND state = 'proposed'",
  );
  const selfDecided = db.prepare('UPDATE policy_versions SET decided_by = proposed_by, decided_at = proposed_at WHERE version = ?');
  const supersedeActive = db.prepare("UPDATE policy_versions SET state = 'superseded' WHERE state = 'active' AND version != ?");
  const supersedeProposed = db.prepare("UPDATE policy_versions SET state = 'superseded' WHERE state = 'proposed' AND version != ?");

  const insertMove = db.prepare(
    'INSERT INTO value_moves (at, initiator, wallet_row, asset, amount, state, approval_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const releaseMove = db.prepare("UPDATE value_moves SET state = 'released' WHERE id = ? AND state != 'released'");
  const releaseApproval = db.prepare("UPDATE value_moves SET state = 'released' WHERE approval_id = ? AND state != 'released'");
  const holdApproval = db.prepare("UPDATE value_moves SET state = 'held' WHERE approval_id = ? AND state = 'awaiting'");
  const moveOfApproval = db.prepare<[string], { id: number }>("SELECT id FROM value_moves WHERE approval_id = ? AND state != 'released'");
  const sumByInitiator = db.prepare<[string, string, number], { total: number }>(
    "SELECT coalesce(sum(amount), 0) AS total FROM value_moves WHERE initiator = ? AND asset = ? AND at > ? AND state != 'released'",
  );
  const sumByWallet = db.prepare<[number, string, number], { total: number }>(
    "SELECT coalesce(sum(amount), 0) AS total FROM value_moves WHERE wallet_row = ? AND asset = ? AND at > ? AND state != 'released'",
  );

  return {
    /** A new version: `active` (superseding the one in force) or `proposed` (superseding an older proposal). */
    addVersion(document: string, state: 'active' | 'proposed', by: string, at: number, note: string | null): number {
      const version = nextVersion.get()!.v;
      insertVersion.run(version, document, state, by, at, note);
      // A newer proposal replaces an older one; a version in force at once replaces both.
      supersedeProposed.run(version);
      if (state === 'active') {
        supersedeActive.run(version);
        selfDecided.run(version);
      }
      return version;
    },
    /** Decides a proposed version; an approval puts it in force. False when it is not (or no longer) proposed. */
    decide(version: number, approve: boolean, by: string, at: number, note: string | null): boolean {
      const changed = decide.run(approve ? 'active' : 'rejected', by, at, note, version).changes === 1;
      if (changed && approve) supersedeActive.run(version);
      return changed;
    },
    version(version: number): PolicyVersionRow | null {
      const r = byVersion.get(version);
      return r ? versionOf(r) : null;
    },
    active(): PolicyVersionRow | null {
      const r = active.get();
      return r ? versionOf(r) : null;
    },
    proposed(): PolicyVersionRow | null {
      const r = proposed.get();
      return r ? versionOf(r) : null;
    },
    versions(): PolicyVersionRow[] {
      return all.all().map(versionOf);
    },

    addMove(m: {
      at: number;
      initiator: string;
      walletRow: number;
      asset: string;
      amount: number;
      state: 'held' | 'awaiting';
      approvalId: string | null;
    }): number {
      return Number(insertMove.run(m.at, m.initiator, m.walletRow, m.asset, m.amount, m.state, m.approvalId).lastInsertRowid);
    },
    releaseMove(id: number): void {
      releaseMove.run(id);
    },
    releaseApproval(approvalId: string): void {
      releaseApproval.run(approvalId);
    },
    /** An approved request's move counts as held from now on; its id, or null when it was released. */
    holdApproval(approvalId: string): number | null {
      holdApproval.run(approvalId);
      return moveOfApproval.get(approvalId)?.id ?? null;
    },
    windowTotal(k: WindowKey): number {
      if (k.initiator !== undefined) return sumByInitiator.get(k.initiator, k.asset, k.since)!.total;
      return sumByWallet.get(k.walletRow!, k.asset, k.since)!.total;
    },
  };
}
export type PolicyRepo = ReturnType<typeof createPolicyRepo>;
