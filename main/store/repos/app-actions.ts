import type { Db } from '../database.js';

export type AppActionStatus = 'unsigned' | 'nosend' | 'unprocessed' | 'sending' | 'unproven' | 'completed' | 'failed' | 'aborted';

/** A transaction an app asked a wallet to create over BRC-100 (engine/apps/actions), as migration 21 keeps it. */
export interface AppAction {
  id: number;
  walletRow: number;
  originator: string;
  /** Names the action to signAction/abortAction (base64). */
  reference: string;
  /** Known once every input is signed. */
  txid: string | null;
  status: AppActionStatus;
  isOutgoing: boolean;
  /** Net change of the wallet's balance (negative when it pays). */
  satoshis: number;
  description: string;
  version: number;
  lockTime: number;
  /** The transaction as it stands (unsigned inputs empty until signAction fills them). */
  rawTx: Buffer | null;
  /** The BEEF the app gave for its inputs' sources. */
  inputBeef: Buffer | null;
  /** The reservation of the wallet's funding coins (utxos.reserved_by) and, once signed, its payment attempt. */
  attempt: string | null;
  createdAt: number;
  updatedAt: number;
}

/** One input or output of an action as the app described it (listActions' include options read these). */
export interface AppActionIo {
  kind: 'input' | 'output';
  idx: number;
  outpoint: string | null;
  satoshis: number;
  script: string | null;
  unlockingScript: string | null;
  description: string | null;
  basket: string | null;
  tags: string[] | null;
  customInstructions: string | null;
  sequence: number | null;
}

export interface AppActionRaw {
  id: number;
  wallet_row: number;
  originator: string;
  reference: string;
  txid: string | null;
  status: AppActionStatus;
  is_outgoing: number;
  satoshis: number;
  description: string;
  version: number;
  lock_time: number;
  raw_tx: Buffer | null;
  input_beef: Buffer | null;
  attempt: string | null;
  created_at: number;
  updated_at: number;
}

export const appActionOf = (r: AppActionRaw): AppAction => ({
  id: r.id,
  walletRow: r.wallet_row,
  originator: r.originator,
  reference: r.reference,
  txid: r.txid,
  status: r.status,
  isOutgoing: r.is_outgoing === 1,
  satoshis: r.satoshis,
  description: r.description,
  version: r.version,
  lockTime: r.lock_time,
  rawTx: r.raw_tx,
  inputBeef: r.input_beef,
  attempt: r.attempt,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

interface IoRaw {
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

/** The write side of app_actions, their labels and inputs/outputs (listing queries live with listActions). */
export function createAppActionRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO app_actions (wallet_row, originator, reference, txid, status, is_outgoing, satoshis, description, version, lock_time, raw_tx, input_beef, attempt, created_at, updated_at)
     VALUES (@walletRow, @originator, @reference, @txid, @status, @isOutgoing, @satoshis, @description, @version, @lockTime, @rawTx, @inputBeef, @attempt, @at, @at)`,
  );
  const insertLabel = db.prepare('INSERT OR IGNORE INTO app_action_labels (action_id, label) VALUES (?, ?)');
  const insertIo = db.prepare(
    `INSERT OR REPLACE INTO app_action_io (action_id, kind, idx, outpoint, satoshis, script, unlocking_script, description, basket, tags, custom_instructions, sequence)
     VALUES (@actionId, @kind, @idx, @outpoint, @satoshis, @script, @unlockingScript, @description, @basket, @tags, @customInstructions, @sequence)`,
  );
  const byReference = db.prepare<[number, string], AppActionRaw>('SELECT * FROM app_actions WHERE wallet_row = ? AND reference = ?');
  const byTxid = db.prepare<[number, string], AppActionRaw>('SELECT * FROM app_actions WHERE wallet_row = ? AND txid = ?');
  const signed = db.prepare('UPDATE app_actions SET txid = ?, raw_tx = ?, status = ?, satoshis = ?, updated_at = ? WHERE id = ?');
  const setStatus = db.prepare('UPDATE app_actions SET status = ?, updated_at = ? WHERE id = ?');
  const completed = db.prepare(
    "UPDATE app_actions SET status = 'completed', updated_at = ? WHERE txid = ? AND status IN ('unprocessed','sending','unproven')",
  );
  const failed = db.prepare(
    "UPDATE app_actions SET status = 'failed', updated_at = ? WHERE txid = ? AND status NOT IN ('aborted','failed')",
  );
  const claim = db.prepare('UPDATE app_actions SET status = ?, updated_at = ? WHERE id = ? AND status = ?');
  const setUnlocking = db.prepare(
    "UPDATE app_action_io SET unlocking_script = ?, sequence = ? WHERE action_id = ? AND kind = 'input' AND idx = ?",
  );
  const holdsBack = db.prepare<[string], { n: number }>("SELECT count(*) AS n FROM app_actions WHERE attempt = ? AND status = 'nosend'");
  const liveSince = db.prepare<[number, number], { reference: string; raw_tx: Buffer }>(
    "SELECT reference, raw_tx FROM app_actions WHERE wallet_row = ? AND created_at >= ? AND raw_tx IS NOT NULL AND status NOT IN ('aborted','failed')",
  );
  const io = db.prepare<[number], IoRaw>('SELECT * FROM app_action_io WHERE action_id = ? ORDER BY kind, idx');
  const labels = db.prepare<[number], { label: string }>('SELECT label FROM app_action_labels WHERE action_id = ? ORDER BY label');
  return {
    /** A new action with its labels and inputs/outputs; call inside the database transaction that reserves or records it. */
    insert(
      a: Omit<AppAction, 'id' | 'createdAt' | 'updatedAt'> & { at: number },
      labelList: readonly string[],
      ios: readonly AppActionIo[],
    ): number {
      const id = Number(
        insert.run({
          ...a,
          isOutgoing: a.isOutgoing ? 1 : 0,
        }).lastInsertRowid,
      );
      for (const l of labelList) insertLabel.run(id, l);
      for (const x of ios)
        insertIo.run({
          actionId: id,
          ...x,
          tags: x.tags ? JSON.stringify(x.tags) : null,
        });
      return id;
    },
    byReference(walletRow: number, reference: string): AppAction | null {
      const r = byReference.get(walletRow, reference);
      return r ? appActionOf(r) : null;
    },
    byTxid(walletRow: number, txid: string): AppAction | null {
      const r = byTxid.get(walletRow, txid);
      return r ? appActionOf(r) : null;
    },
    /** The action is signed: its txid, final transaction and status (and its net satoshis, known once funded). */
    signed(id: number, txid: string, rawTx: Buffer, status: AppActionStatus, satoshis: number, at: number): void {
      signed.run(txid, rawTx, status, satoshis, at, id);
    },
    setStatus(id: number, status: AppActionStatus, at: number): void {
      setStatus.run(status, at, id);
    },
    /** A block holds the transaction: the actions it is are completed. */
    completed(txid: string, at: number): void {
      completed.run(at, txid);
    },
    /** The chain refused the transaction (or never took it): the actions it is failed. */
    failed(txid: string, at: number): void {
      failed.run(at, txid);
    },
    /** Moves the action from one status to another; false when it was not in `from` (another call took it). */
    claim(id: number, from: AppActionStatus, to: AppActionStatus, at: number): boolean {
      return claim.run(to, at, id, from).changes === 1;
    },
    /** An input's unlocking script and sequence as signAction gave them. */
    setUnlocking(actionId: number, idx: number, unlockingScript: string, sequence: number): void {
      setUnlocking.run(unlockingScript, sequence, actionId, idx);
    },
    /** Whether the payment attempt is a noSend action's, which the app asked not to be sent (until sendWith or abortAction). */
    holdsBack(attempt: string): boolean {
      return holdsBack.get(attempt)!.n > 0;
    },
    /** The transactions of the wallet's live actions (not aborted or failed) created since `since`: what spends noSend change. */
    liveTransactionsSince(walletRow: number, since: number): { reference: string; rawTx: Buffer }[] {
      return liveSince.all(walletRow, since).map((r) => ({ reference: r.reference, rawTx: r.raw_tx }));
    },
    io(actionId: number): AppActionIo[] {
      return io.all(actionId).map((r) => ({
        kind: r.kind,
        idx: r.idx,
        outpoint: r.outpoint,
        satoshis: r.satoshis,
        script: r.script,
        unlockingScript: r.unlocking_script,
        description: r.description,
        basket: r.basket,
        tags: r.tags ? (JSON.parse(r.tags) as string[]) : null,
        customInstructions: r.custom_instructions,
        sequence: r.sequence,
      }));
    },
    labels(actionId: number): string[] {
      return labels.all(actionId).map((r) => r.label);
    },
  };
}
export type AppActionRepo = ReturnType<typeof createAppActionRepo>;
