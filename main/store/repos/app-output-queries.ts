import type { Db } from '../database.js';
import { appActionOf, type AppAction, type AppActionRaw } from './app-actions.js';
import { appOutputOf, type AppOutput, type AppOutputRaw } from './app-outputs.js';

/** The rows listings answer: the same as the write side's (app-actions.ts, app-outputs.ts). */
export type AppActionRow = AppAction;
export type AppOutputRow = AppOutput;

/**
 * Reads over migration 21's tables for BRC-100's listActions, listOutputs and relinquishOutput, and the rows
 * internalizeAction writes (an internalized action and the outputs it puts in baskets). The actions slice
 * (app-actions.ts, app-outputs.ts) writes the actions an app creates; both share these tables.
 */

export interface AppActionIo {
  actionId: number;
  kind: 'input' | 'output';
  idx: number;
  outpoint: string | null;
  satoshis: number;
  script: string | null;
  unlockingScript: string | null;
  description: string | null;
  basket: string | null;
  /** JSON array of strings, as written. */
  tags: string | null;
  customInstructions: string | null;
  sequence: number | null;
}

interface RawIo {
  action_id: number;
  kind: 'input' | 'output';
  idx: number;
  outpoint: string | null;
  satoshis: number;
  script: string | null;
  unlocking_script: string | null;
  description: string | null;
  basket: string | null;
  tags: string | null;
  custom_instructions: string | null;
  sequence: number | null;
}

const ioOf = (r: RawIo): AppActionIo => ({
  actionId: r.action_id,
  kind: r.kind,
  idx: r.idx,
  outpoint: r.outpoint,
  satoshis: r.satoshis,
  script: r.script,
  unlockingScript: r.unlocking_script,
  description: r.description,
  basket: r.basket,
  tags: r.tags,
  customInstructions: r.custom_instructions,
  sequence: r.sequence,
});

/** Filters by a set of labels or tags: any of them, or all of them (an empty set filters nothing). */
export interface SetFilter {
  values: readonly string[];
  mode: 'any' | 'all';
}

/** `?, ?, …` for `n` values (n ≥ 1). */
const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/** Rows of at most this many ids per IN (…) (SQLite's variable limit is far above; lists are paged at 10,000). */
const CHUNK = 500;

function chunked<T>(ids: readonly number[], read: (part: readonly number[]) => T[]): T[] {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) out.push(...read(ids.slice(i, i + CHUNK)));
  return out;
}

export function createAppOutputQueryRepo(db: Db) {
  const actionByTxid = db.prepare<[number, string], AppActionRaw>('SELECT * FROM app_actions WHERE wallet_row = ? AND txid = ?');
  const insertAction = db.prepare(
    `INSERT INTO app_actions (wallet_row, originator, reference, txid, status, is_outgoing, satoshis, description, version, lock_time, raw_tx, created_at, updated_at)
     VALUES (@walletRow, @originator, @reference, @txid, @status, 0, @satoshis, @description, @version, @lockTime, @rawTx, @now, @now)`,
  );
  const addSatoshis = db.prepare('UPDATE app_actions SET satoshis = satoshis + ?, updated_at = ? WHERE id = ?');
  const completed = db.prepare("UPDATE app_actions SET status = 'completed', updated_at = ? WHERE id = ? AND status = 'unproven'");
  const addLabel = db.prepare('INSERT OR IGNORE INTO app_action_labels (action_id, label) VALUES (?, ?)');
  const addIo = db.prepare(
    `INSERT OR IGNORE INTO app_action_io (action_id, kind, idx, outpoint, satoshis, script, unlocking_script, description, basket, tags, custom_instructions, sequence)
     VALUES (@actionId, @kind, @idx, @outpoint, @satoshis, @script, @unlockingScript, @description, @basket, @tags, @customInstructions, @sequence)`,
  );
  const outputAt = db.prepare<[number, string, number], AppOutputRaw>(
    'SELECT * FROM app_outputs WHERE wallet_row = ? AND txid = ? AND vout = ?',
  );
  const insertOutput = db.prepare(
    `INSERT OR IGNORE INTO app_outputs (wallet_row, basket, txid, vout, satoshis, script, description, custom_instructions, action_id, originator, status, created_at)
     VALUES (@walletRow, @basket, @txid, @vout, @satoshis, @script, @description, @customInstructions, @actionId, @originator, 'available', @now)`,
  );
  const addTag = db.prepare('INSERT OR IGNORE INTO app_output_tags (output_id, tag) VALUES (?, ?)');
  const relinquish = db.prepare(
    "UPDATE app_outputs SET status = 'relinquished' WHERE wallet_row = ? AND basket = ? AND txid = ? AND vout = ? AND status IN ('available', 'spent')",
  );

  /** The WHERE of a label or tag filter over `owner` ids of `table` (app_action_labels / app_output_tags). */
  function setClause(
    filter: SetFilter,
    table: string,
    ownerColumn: string,
    valueColumn: string,
    owner: string,
  ): { sql: string; params: string[] } {
    const values = [...new Set(filter.values)];
    if (values.length === 0) return { sql: '', params: [] };
    const inSet = `SELECT ${ownerColumn} FROM ${table} WHERE ${valueColumn} IN (${marks(values.length)})`;
    if (filter.mode === 'any') return { sql: ` AND ${owner} IN (${inSet})`, params: values };
    return {
      sql: ` AND ${owner} IN (${inSet} GROUP BY ${ownerColumn} HAVING count(DISTINCT ${valueColumn}) = ${values.length})`,
      params: values,
    };
  }

  return {
    actionByTxid(walletRow: number, txid: string): AppActionRow | null {
      const r = actionByTxid.get(walletRow, txid);
      return r ? appActionOf(r) : null;
    },

    /** Records an internalized action (incoming: is_outgoing 0); its id. */
    insertInternalized(a: {
      walletRow: number;
      originator: string;
      reference: string;
      txid: string;
      status: 'completed' | 'unproven';
      satoshis: number;
      description: string;
      version: number;
      lockTime: number;
      rawTx: Buffer;
      now: number;
    }): number {
      return Number(insertAction.run(a).lastInsertRowid);
    },

    /** Adds what another internalization of the same transaction gained. */
    addSatoshis(actionId: number, satoshis: number, now: number): void {
      if (satoshis !== 0) addSatoshis.run(satoshis, now, actionId);
    },

    /** The chain mined an unproven action's transaction. */
    markCompleted(actionId: number, now: number): void {
      completed.run(now, actionId);
    },

    addLabels(actionId: number, labels: readonly string[]): void {
      for (const l of labels) addLabel.run(actionId, l);
    },

    /** An output of the action as the app described it (kept once per index). */
    addOutputIo(io: Omit<AppActionIo, 'kind' | 'outpoint' | 'unlockingScript' | 'sequence'>): void {
      addIo.run({ ...io, kind: 'output', outpoint: null, unlockingScript: null, sequence: null });
    },

    outputAt(walletRow: number, txid: string, vout: number): AppOutputRow | null {
      const r = outputAt.get(walletRow, txid, vout);
      return r ? appOutputOf(r) : null;
    },

    /** Puts an output in a basket with its tags; false when the wallet already holds that outpoint in a basket. */
    insertOutput(
      o: Omit<AppOutputRow, 'id' | 'status' | 'walletRow' | 'actionId' | 'reservedBy' | 'spentBy' | 'createdAt'> & {
        walletRow: number;
        actionId: number | null;
        now: number;
      },
      tags: readonly string[],
    ): boolean {
      const r = insertOutput.run(o);
      if (r.changes === 0) return false;
      for (const t of tags) addTag.run(Number(r.lastInsertRowid), t);
      return true;
    },

    /**
     * A page of the wallet's actions, oldest first, with how many match. Actions still being built (unsigned
     * without a txid) are listed too, as the reference does; aborted ones are not.
     */
    listActions(walletRow: number, labels: SetFilter, limit: number, offset: number): { total: number; actions: AppActionRow[] } {
      const f = setClause(labels, 'app_action_labels', 'action_id', 'label', 'a.id');
      const where = `FROM app_actions a WHERE a.wallet_row = ? AND a.status <> 'aborted'${f.sql}`;
      const total = (db.prepare(`SELECT count(*) AS n ${where}`).get(walletRow, ...f.params) as { n: number }).n;
      const rows = db
        .prepare(`SELECT a.* ${where} ORDER BY a.id LIMIT ? OFFSET ?`)
        .all(walletRow, ...f.params, limit, offset) as AppActionRaw[];
      return { total, actions: rows.map(appActionOf) };
    },

    labelsOf(actionIds: readonly number[]): Map<number, string[]> {
      const out = new Map<number, string[]>();
      const rows = chunked(
        actionIds,
        (part) =>
          db
            .prepare(`SELECT action_id, label FROM app_action_labels WHERE action_id IN (${marks(part.length)}) ORDER BY label`)
            .all(...part) as { action_id: number; label: string }[],
      );
      for (const r of rows) out.set(r.action_id, [...(out.get(r.action_id) ?? []), r.label]);
      return out;
    },

    ioOf(actionIds: readonly number[]): AppActionIo[] {
      return chunked(actionIds, (part) =>
        (
          db
            .prepare(`SELECT * FROM app_action_io WHERE action_id IN (${marks(part.length)}) ORDER BY action_id, kind, idx`)
            .all(...part) as RawIo[]
        ).map(ioOf),
      );
    },

    /**
     * A page of a basket's outputs that are still the wallet's (available, or reserved by an action in
     * progress), with how many match. `offset` below zero counts from the newest (-1: the newest), as the
     * reference's listOutputs does; the page is then newest first.
     */
    listOutputs(
      walletRow: number,
      basket: string,
      tags: SetFilter,
      limit: number,
      offset: number,
    ): { total: number; outputs: AppOutputRow[] } {
      const f = setClause(tags, 'app_output_tags', 'output_id', 'tag', 'o.id');
      const where = `FROM app_outputs o WHERE o.wallet_row = ? AND o.basket = ? AND o.status IN ('available', 'reserved')${f.sql}`;
      const total = (db.prepare(`SELECT count(*) AS n ${where}`).get(walletRow, basket, ...f.params) as { n: number }).n;
      const newestFirst = offset < 0;
      const rows = db
        .prepare(`SELECT o.* ${where} ORDER BY o.id ${newestFirst ? 'DESC' : ''} LIMIT ? OFFSET ?`)
        .all(walletRow, basket, ...f.params, limit, newestFirst ? -offset - 1 : offset) as AppOutputRaw[];
      return { total, outputs: rows.map(appOutputOf) };
    },

    tagsOf(outputIds: readonly number[]): Map<number, string[]> {
      const out = new Map<number, string[]>();
      const rows = chunked(
        outputIds,
        (part) =>
          db.prepare(`SELECT output_id, tag FROM app_output_tags WHERE output_id IN (${marks(part.length)}) ORDER BY tag`).all(...part) as {
            output_id: number;
            tag: string;
          }[],
      );
      for (const r of rows) out.set(r.output_id, [...(out.get(r.output_id) ?? []), r.tag]);
      return out;
    },

    /** Takes an output out of its basket (nothing is spent); false when the basket holds no such output. */
    relinquish(walletRow: number, basket: string, txid: string, vout: number): boolean {
      return relinquish.run(walletRow, basket, txid, vout).changes === 1;
    },
  };
}
export type AppOutputQueryRepo = ReturnType<typeof createAppOutputQueryRepo>;
