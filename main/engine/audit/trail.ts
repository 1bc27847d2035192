import type { Logger } from '../../log/logger.js';
import type { Db } from '../../store/database.js';
import { entryHash, GENESIS_HASH, utcDay, type AuditCheckpoint, type AuditEntry, type ChainedAuditEntry } from '../../store/repos/audit.js';
import type { Repos } from '../context.js';
import { AuditKey, checkpointMessage, verifyCheckpointSignature } from './audit-key.js';

/** How many entries verify hashes between two turns of the event loop. */
const VERIFY_SLICE = 2_000;

/** The settings key of the anchoring switch ('on' or absent). */
export const AUDIT_ANCHOR_SETTING = 'audit.anchor';
/**
 * Set once the first day is closed: from then on every finished day is closed before a later entry is written.
 * Before it (a data dir from before the chain), several finished days are closed at once without being late.
 */
export const AUDIT_CLOSING_SETTING = 'audit.closing';

/** What a checkpoint writes on chain; resolves with the transaction's id. */
export type AnchorWriter = (checkpoint: { day: string; lastId: number; lastHash: string }) => Promise<string>;

export interface AuditTrailDeps {
  repos: Pick<Repos, 'audit' | 'settings'>;
  db: Pick<Db, 'transaction'>;
  now: () => number;
  logger: Logger;
  /** The data dir's sealing key (the audit key is sealed under a key derived from it). */
  sealingKey(): Buffer;
  /** Writes a checkpoint's hash on chain, paid by the fee manager (build-services.ts wires it). */
  anchor: AnchorWriter;
}

export interface Mismatch {
  id: number;
  reason: string;
  day: string | null;
}

export interface Verdict {
  ok: boolean;
  entries: number;
  checkpoints: number;
  firstMismatch: Mismatch | null;
  publicKey: string;
  publicKeyPem: string;
  anchoring: boolean;
  anchored: number;
  unanchored: string[];
}

/**
 * The tamper-evident audit trail: every entry is appended to the hash chain (the audit repo), and each
 * finished UTC day is closed by a checkpoint (its last entry's id and hash) signed with the organisation's
 * audit key. Days are closed when the first entry of a later day is appended, when the engine opens, and
 * before a verify. When the organisation opts in, each new checkpoint's hash is then written on chain, after
 * the database transaction that made it, one at a time; a failure leaves it unanchored (verify lists it)
 * and never fails the append.
 */
export class AuditTrail {
  readonly key: AuditKey;
  /** The UTC day of the last append (or of the open): a later day closes the days before it. */
  private day: string | null = null;
  /** Anchors run one after another (each is a payment from the fee manager). */
  private anchoring: Promise<void> = Promise.resolve();

  constructor(private readonly deps: AuditTrailDeps) {
    this.key = new AuditKey({ settings: deps.repos.settings, sealingKey: deps.sealingKey });
  }

  /** Chains entries written before the chain existed (one transaction) and closes the finished days. */
  open(): void {
    this.deps.repos.audit.open();
    this.closeDays();
  }

  /**
   * Appends one entry; the first of a new day closes the days before it, before it is written (so a day is
   * closed while no entry follows it: see closeDays). Cheap: one insert, the last hash in memory.
   */
  append(entry: Omit<AuditEntry, 'id'>): ChainedAuditEntry {
    const day = utcDay(entry.at);
    if (this.day !== null && day > this.day) this.closeDays();
    const stored = this.deps.repos.audit.append(entry);
    if (this.day === null || day > this.day) this.day = day;
    return stored;
  }

  anchorOn(): boolean {
    return this.deps.repos.settings.get(AUDIT_ANCHOR_SETTING) === 'on';
  }

  setAnchor(on: boolean): void {
    this.deps.repos.settings.set(AUDIT_ANCHOR_SETTING, on ? 'on' : 'off');
  }

  /**
   * Closes every finished day (before today, UTC) that has entries and no checkpoint, in the caller's
   * transaction if there is one. A failure is logged and left for the next trigger: it never fails the
   * entry that caused it.
   *
   * In the normal course a day is closed before any entry of a later day is written (append, open). A day
   * whose entries are already followed by later ones had a checkpoint that is gone (deleted, perhaps with the
   * day rewritten: re-hashing needs no key) or failed to be made: its checkpoint is signed as late, and verify
   * names it. Signing it as on time would vouch for whatever the day now holds.
   */
  closeDays(): string[] {
    const { repos, now, logger } = this.deps;
    const today = utcDay(now());
    let closed: string[] = [];
    try {
      closed = this.deps.db.transaction(() =>
        repos.audit.openDays(today).map(({ day, lastId }) => {
          const last = repos.audit.byId(lastId)!;
          const lastHash = last.hash ?? GENESIS_HASH;
          const closing = repos.settings.get(AUDIT_CLOSING_SETTING) !== null;
          const late = closing && repos.audit.lastId() > lastId;
          if (!closing) repos.settings.set(AUDIT_CLOSING_SETTING, String(day));
          const signature = this.key.sign(checkpointMessage({ day, lastId, lastHash, late }));
          repos.audit.addCheckpoint({ day, lastId, lastHash, signature, publicKey: this.key.publicKey().hex, createdAt: now(), late });
          if (late) logger.error({ day }, 'an audit day was closed late: its checkpoint was missing while later entries existed');
          return day;
        }),
      )();
    } catch (err) {
      logger.error({ err: (err as Error).message }, 'closing the audit days failed; it is tried again at the next day, open or verify');
      return [];
    }
    this.day = this.day === null || today > this.day ? today : this.day;
    if (closed.length && this.anchorOn()) {
      // After the commit of the transaction that made them (setImmediate runs once the synchronous caller returned).
      setImmediate(() => this.anchorDays(closed));
    }
    return closed;
  }

  private anchorDays(days: readonly string[]): void {
    const { repos, logger, anchor } = this.deps;
    this.anchoring = this.anchoring.then(async () => {
      for (const day of days) {
        try {
          const c = repos.audit.checkpoint(day);
          if (!c || c.anchorTxid) continue; // rolled back with its transaction, or anchored meanwhile
          const txid = await anchor({ day: c.day, lastId: c.lastId, lastHash: c.lastHash });
          repos.audit.setAnchor(day, txid);
          logger.info({ day, txid }, 'audit checkpoint anchored on chain');
        } catch (err) {
          // Also when the engine closed meanwhile: the checkpoint stays unanchored either way.
          logger.warn(
            { day, err: (err as Error).message },
            'audit checkpoint not anchored (the fee manager could not pay); verify lists it',
          );
        }
      }
    });
  }

  /** Resolves when the anchors started so far have finished (tests; a clean shutdown). */
  anchorsSettled(): Promise<void> {
    return this.anchoring;
  }

  /**
   * Recomputes the chain from the first entry and checks every checkpoint: signed by this organisation's
   * audit key, over a last hash the chain has at its last id. Names the earliest problem.
   */
  async verify(): Promise<Verdict> {
    const { repos } = this.deps;
    this.closeDays();
    const checkpoints = repos.audit.checkpoints();
    const chain = await this.walkChain(new Set(checkpoints.map((c) => c.lastId)));
    const pub = this.key.publicKey();
    let firstCheckpoint: Mismatch | null = null;
    let previousLast = 0;
    for (const c of checkpoints) {
      const problem = this.checkpointProblem(c, pub.hex, chain.hashes);
      if (problem) {
        firstCheckpoint = {
          id: c.lastId,
          day: c.day,
          reason: `${problem} (checkpoint of ${c.day}: entries ${previousLast + 1}–${c.lastId} may have been rewritten)`,
        };
        break;
      }
      previousLast = c.lastId;
    }
    const firstMismatch =
      chain.mismatch && firstCheckpoint
        ? chain.mismatch.id <= firstCheckpoint.id
          ? chain.mismatch
          : firstCheckpoint
        : (chain.mismatch ?? firstCheckpoint);
    const anchoring = this.anchorOn();
    return {
      ok: firstMismatch === null,
      entries: chain.entries,
      checkpoints: checkpoints.length,
      firstMismatch,
      publicKey: pub.hex,
      publicKeyPem: pub.pem,
      anchoring,
      anchored: checkpoints.filter((c) => c.anchorTxid).length,
      unanchored: anchoring ? checkpoints.filter((c) => !c.anchorTxid).map((c) => c.day) : [],
    };
  }

  /** The chain walked in id order: the first problem, the entry count, and the verified hashes of `wanted` (checkpoints' last entries). */
  private async walkChain(
    wanted: ReadonlySet<number>,
  ): Promise<{ entries: number; mismatch: Mismatch | null; hashes: Map<number, string> }> {
    const { audit } = this.deps.repos;
    const hashes = new Map<number, string>();
    let mismatch: Mismatch | null = null;
    let entries = 0;
    let expectedId = 1;
    let prev = GENESIS_HASH;
    const fail = (id: number, reason: string, at: number | null) => (mismatch ??= { id, reason, day: at === null ? null : utcDay(at) });
    // In slices, giving the event loop back between them: a long trail must not stall every other call.
    for (let slice = audit.after(0, VERIFY_SLICE); slice.length; slice = audit.after(slice[slice.length - 1].id, VERIFY_SLICE)) {
      if (entries > 0) await new Promise((resolve) => setImmediate(resolve));
      for (const e of slice) {
        entries++;
        if (mismatch) continue;
        if (e.id !== expectedId) {
          fail(expectedId, `entry ${expectedId} is missing (ids jump from ${expectedId - 1} to ${e.id})`, e.at);
        } else if (e.hash === null || e.prevHash === null) {
          fail(e.id, `entry ${e.id} has no hash: it was not written by Keystead's audit log`, e.at);
        } else if (e.prevHash !== prev) {
          fail(
            e.id,
            `prev_hash of entry ${e.id} does not match the hash of the entry before (entry ${e.id - 1} was changed, or this one)`,
            e.at,
          );
        } else if (entryHash(e.prevHash, e) !== e.hash) {
          fail(e.id, `hash of entry ${e.id} does not match its content (the entry was changed)`, e.at);
        } else {
          if (wanted.has(e.id)) hashes.set(e.id, e.hash);
          prev = e.hash;
          expectedId = e.id + 1;
        }
      }
    }
    // Entries removed from the end leave the id counter ahead of the last id.
    const issued = audit.lastIssuedId();
    if (!mismatch && issued >= expectedId) fail(expectedId, `entry ${expectedId} is missing (ids up to ${issued} were given out)`, null);
    return { entries, mismatch, hashes };
  }

  private checkpointProblem(c: AuditCheckpoint, publicKey: string, hashes: Map<number, string>): string | null {
    if (c.publicKey !== publicKey) return 'checkpoint signed by another key than the audit key';
    if (!verifyCheckpointSignature(checkpointMessage(c), c.signature, c.publicKey)) return 'checkpoint signature invalid';
    const entry = this.deps.repos.audit.byId(c.lastId);
    // The hash the verified chain has there; past a break in the chain (reported by the walk, which comes first), the stored one.
    if (!entry || (hashes.get(c.lastId) ?? entry.hash) !== c.lastHash) return 'checkpoint does not match the chain';
    if (utcDay(entry.at) !== c.day) return 'checkpoint does not match the chain (its last entry is of another day)';
    if (c.late)
      return 'checkpoint made late: the day had no checkpoint while later entries existed (deleted, or its closing failed), so its entries are not vouched for';
    return null;
  }
}
