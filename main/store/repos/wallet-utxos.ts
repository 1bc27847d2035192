import type { Db } from '../database.js';

export interface WalletUtxo {
  walletRow: number;
  txid: string;
  vout: number;
  satoshis: number;
  script: string;
  chain: number | null;
  idx: number | null;
  status: 'available' | 'reserved' | 'spent';
  height: number | null;
  address: string | null;
  spentBy: string | null;
}

interface Raw {
  wallet_row: number;
  txid: string;
  vout: number;
  satoshis: number;
  script: string;
  chain: number | null;
  idx: number | null;
  status: WalletUtxo['status'];
  height: number | null;
  address: string | null;
  spent_by: string | null;
}
const toRow = (r: Raw): WalletUtxo => ({ walletRow: r.wallet_row, txid: r.txid, vout: r.vout, satoshis: r.satoshis, script: r.script, chain: r.chain, idx: r.idx, status: r.status, height: r.height, address: r.address, spentBy: r.spent_by });

/** The outputs the organisation's wallets own (table `utxos`): one row per outpoint. */
export function createWalletUtxoRepo(db: Db) {
  const get = db.prepare<[string, number], Raw>('SELECT * FROM utxos WHERE txid = ? AND vout = ?');
  const insert = db.prepare(
    'INSERT OR IGNORE INTO utxos (wallet_row, txid, vout, satoshis, script, chain, idx, status, height, address) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const spend = db.prepare("UPDATE utxos SET status = 'spent', spent_by = ? WHERE txid = ? AND vout = ?");
  const confirm = db.prepare('UPDATE utxos SET height = ? WHERE txid = ?');
  const balance = db.prepare<[number], { confirmed: number | null; unconfirmed: number | null }>(
    "SELECT sum(CASE WHEN height IS NOT NULL THEN satoshis END) AS confirmed, sum(CASE WHEN height IS NULL THEN satoshis END) AS unconfirmed FROM utxos WHERE wallet_row = ? AND status <> 'spent'",
  );
  const unspent = db.prepare<[number], Raw>("SELECT * FROM utxos WHERE wallet_row = ? AND status <> 'spent' ORDER BY height IS NULL, height, txid, vout");
  return {
    get(txid: string, vout: number): WalletUtxo | null {
      const r = get.get(txid, vout);
      return r ? toRow(r) : null;
    },
    insert(u: Omit<WalletUtxo, 'spentBy'>): boolean {
      return insert.run(u.walletRow, u.txid, u.vout, u.satoshis, u.script, u.chain, u.idx, u.status, u.height, u.address).changes > 0;
    },
    markSpent(txid: string, vout: number, spentBy: string): void {
      spend.run(spentBy, txid, vout);
    },
    confirm(txid: string, height: number): void {
      confirm.run(height, txid);
    },
    balance(walletRow: number): { confirmed: number; unconfirmed: number } {
      const r = balance.get(walletRow);
      return { confirmed: r?.confirmed ?? 0, unconfirmed: r?.unconfirmed ?? 0 };
    },
    unspent(walletRow: number): WalletUtxo[] {
      return unspent.all(walletRow).map(toRow);
    },
  };
}
export type WalletUtxoRepo = ReturnType<typeof createWalletUtxoRepo>;
