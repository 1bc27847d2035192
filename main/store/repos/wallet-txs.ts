import type { Db } from '../database.js';

export interface WalletTx {
  walletRow: number;
  txid: string;
  direction: 'in' | 'out' | 'self';
  amount: number;
  fee: number | null;
  counterparty: string | null;
  memo: string | null;
  height: number | null;
  time: number;
}

/** Each wallet's history: one row per transaction that touched it, with the net effect on its balance. */
export function createWalletTxRepo(db: Db) {
  const upsert = db.prepare(`INSERT INTO wallet_txs (wallet_row, txid, direction, amount, fee, counterparty, memo, height, time)
    VALUES (@walletRow, @txid, @direction, @amount, @fee, @counterparty, @memo, @height, @time)
    ON CONFLICT (wallet_row, txid) DO UPDATE SET direction = excluded.direction, amount = excluded.amount, fee = coalesce(excluded.fee, fee),
      counterparty = coalesce(counterparty, excluded.counterparty), memo = coalesce(memo, excluded.memo), height = coalesce(excluded.height, height)`);
  const get = db.prepare<[number, string], { height: number | null }>('SELECT height FROM wallet_txs WHERE wallet_row = ? AND txid = ?');
  const confirm = db.prepare('UPDATE wallet_txs SET height = ? WHERE txid = ?');
  const annotate = db.prepare('UPDATE wallet_txs SET memo = coalesce(?, memo), counterparty = coalesce(?, counterparty) WHERE wallet_row = ? AND txid = ?');
  return {
    upsert(t: WalletTx): void {
      upsert.run(t);
    },
    /** undefined when the wallet has no such transaction; else its height (null while unconfirmed). */
    heightOf(walletRow: number, txid: string): number | null | undefined {
      const r = get.get(walletRow, txid);
      return r === undefined ? undefined : r.height;
    },
    confirm(txid: string, height: number): void {
      confirm.run(height, txid);
    },
    annotate(walletRow: number, txid: string, memo: string | null, counterparty: string | null): void {
      annotate.run(memo, counterparty, walletRow, txid);
    },
  };
}
export type WalletTxRepo = ReturnType<typeof createWalletTxRepo>;
