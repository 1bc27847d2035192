import type { Db } from '../database.js';

export type AppOutputStatus = 'available' | 'reserved' | 'spent' | 'relinquished';

/**
 * An output an app put in a basket (BRC-46). Never a row of `utxos`: Keystead's own payments do not see it,
 * and only an action naming it as an input spends it.
 */
export interface AppOutput {
  id: number;
  walletRow: number;
  basket: string;
  txid: string;
  vout: number;
  satoshis: number;
  script: string;
  description: string | null;
  customInstructions: string | null;
  actionId: number | null;
  originator: string;
  status: AppOutputStatus;
  reservedBy: string | null;
  spentBy: string | null;
  createdAt: number;
}

export interface AppOutputRaw {
  id: number;
  wallet_row: number;
  basket: string;
  txid: string;
  vout: number;
  satoshis: number;
  script: string;
  description: string | null;
  custom_instructions: string | null;
  action_id: number | null;
  originator: string;
  status: AppOutputStatus;
  reserved_by: string | null;
  spent_by: string | null;
  created_at: number;
}

export const appOutputOf = (r: AppOutputRaw): AppOutput => ({
  id: r.id,
  walletRow: r.wallet_row,
  basket: r.basket,
  txid: r.txid,
  vout: r.vout,
  satoshis: r.satoshis,
  script: r.script,
  description: r.description,
  customInstructions: r.custom_instructions,
  actionId: r.action_id,
  originator: r.originator,
  status: r.status,
  reservedBy: r.reserved_by,
  spentBy: r.spent_by,
  createdAt: r.created_at,
});

/**
 * The write side of app_outputs and their tags: inserting basket outputs, and reserving, spending and giving
 * back the ones an action names as inputs (by the action's reference). Listing and relinquishing queries
 * live in app-output-queries.ts.
 */
export function createAppOutputRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO app_outputs (wallet_row, basket, txid, vout, satoshis, script, description, custom_instructions, action_id, originator, created_at)
     VALUES (@walletRow, @basket, @txid, @vout, @satoshis, @script, @description, @customInstructions, @actionId, @originator, @at)
     ON CONFLICT (wallet_row, txid, vout) DO NOTHING`,
  );
  const insertTag = db.prepare('INSERT OR IGNORE INTO app_output_tags (output_id, tag) VALUES (?, ?)');
  const get = db.prepare<[number, string, number], AppOutputRaw>(
    'SELECT * FROM app_outputs WHERE wallet_row = ? AND txid = ? AND vout = ?',
  );
  const reserve = db.prepare(
    "UPDATE app_outputs SET status = 'reserved', reserved_by = ? WHERE wallet_row = ? AND txid = ? AND vout = ? AND status = 'available'",
  );
  const release = db.prepare(
    "UPDATE app_outputs SET status = 'available', reserved_by = NULL WHERE reserved_by = ? AND status = 'reserved'",
  );
  const spend = db.prepare("UPDATE app_outputs SET status = 'spent', spent_by = ? WHERE reserved_by = ? AND status = 'reserved'");
  const unspend = db.prepare("UPDATE app_outputs SET status = 'available', spent_by = NULL, reserved_by = NULL WHERE spent_by = ?");
  const spenders = db.prepare<[string], { spent_by: string }>(
    'SELECT DISTINCT spent_by FROM app_outputs WHERE txid = ? AND spent_by IS NOT NULL',
  );
  const dropAllOfTx = db.prepare("DELETE FROM app_outputs WHERE txid = ? AND status IN ('available','reserved')");
  return {
    /** A basket output with its tags; false when the outpoint is already in a basket. Call inside the action's database transaction. */
    insert(
      o: Omit<AppOutput, 'id' | 'status' | 'reservedBy' | 'spentBy' | 'createdAt'> & { at: number },
      tags: readonly string[],
    ): boolean {
      const r = insert.run(o);
      if (r.changes === 0) return false;
      const id = Number(r.lastInsertRowid);
      for (const t of tags) insertTag.run(id, t);
      return true;
    },
    get(walletRow: number, txid: string, vout: number): AppOutput | null {
      const r = get.get(walletRow, txid, vout);
      return r ? appOutputOf(r) : null;
    },
    /** Whether the outpoint sits in one of the wallet's baskets (the wallets' sync must not book it as a coin). One index read. */
    isAppOutput(walletRow: number, txid: string, vout: number): boolean {
      return get.get(walletRow, txid, vout) !== undefined;
    },
    /** Reserves the outputs for one action (`by`: its reference); false if any is not available. Call inside a transaction. */
    reserve(walletRow: number, outpoints: readonly { txid: string; vout: number }[], by: string): boolean {
      return outpoints.every((o) => reserve.run(by, walletRow, o.txid, o.vout).changes === 1);
    },
    /** Gives back what an action that ended unsent had reserved. */
    release(by: string): number {
      return release.run(by).changes;
    },
    /** The action's reserved outputs are spent by its transaction. */
    spend(by: string, txid: string): number {
      return spend.run(txid, by).changes;
    },
    /** The chain refused `txid`: what it spent is available again. */
    unspend(txid: string): number {
      return unspend.run(txid).changes;
    },
    /** Transactions that spent basket outputs `txid` created. */
    spendersOf(txid: string): string[] {
      return spenders.all(txid).map((r) => r.spent_by);
    },
    /** Forgets the basket outputs of a transaction the chain never took, in every wallet. */
    dropAllOutputsOf(txid: string): number {
      return dropAllOfTx.run(txid).changes;
    },
  };
}
export type AppOutputRepo = ReturnType<typeof createAppOutputRepo>;
