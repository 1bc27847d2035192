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
  reservedBy?: string | null;
  /**
   * A wallet payment an app internalized over BRC-100 (BRC-29; JSON: senderIdentityKey, derivationPrefix,
   * derivationSuffix): no HD address (chain/idx null); signed with the BRC-42 child of the BRC-100 root key.
   */
  brc29?: string | null;
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
  reserved_by?: string | null;
  brc29?: string | null;
}
const toRow = (r: Raw): WalletUtxo => ({
  walletRow: r.wallet_row,
  txid: r.txid,
  vout: r.vout,
  satoshis: r.satoshis,
  script: r.script,
  chain: r.chain,
  idx: r.idx,
  status: r.status,
  height: r.height,
  address: r.address,
  spentBy: r.spent_by,
  reservedBy: r.reserved_by ?? null,
  brc29: r.brc29 ?? null,
});

/** The outputs the organisation's wallets own (table `utxos`): one row per outpoint. */
export function createWalletUtxoRepo(db: Db) {
  const get = db.prepare<[string, number], Raw>('SELECT * FROM utxos WHERE txid = ? AND vout = ?');
  const insert = db.prepare(
    'INSERT OR IGNORE INTO utxos (wallet_row, txid, vout, satoshis, script, chain, idx, status, height, address, brc29) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const spend = db.prepare("UPDATE utxos SET status = 'spent', spent_by = ? WHERE txid = ? AND vout = ?");
  const confirm = db.prepare('UPDATE utxos SET height = ? WHERE txid = ?');
  const txidsFrom = db.prepare<[number], { txid: string }>('SELECT DISTINCT txid FROM utxos WHERE height >= ?');
  const balance = db.prepare<[number], { confirmed: number | null; unconfirmed: number | null }>(
    "SELECT sum(CASE WHEN height IS NOT NULL THEN satoshis END) AS confirmed, sum(CASE WHEN height IS NULL THEN satoshis END) AS unconfirmed FROM utxos WHERE wallet_row = ? AND status <> 'spent'",
  );
  const totals = db.prepare<[], { wallet_row: number; confirmed: number | null; unconfirmed: number | null }>(
    "SELECT wallet_row, sum(CASE WHEN height IS NOT NULL THEN satoshis END) AS confirmed, sum(CASE WHEN height IS NULL THEN satoshis END) AS unconfirmed FROM utxos WHERE status <> 'spent' GROUP BY wallet_row",
  );
  // Coin selection reads a few candidates, not every coin: the smallest coins from a value up, and the largest.
  // Ordered by value alone, so the partial index answers in order (no sort of every coin).
  const smallestFrom = db.prepare<[number, number, number], Raw>(
    "SELECT * FROM utxos WHERE wallet_row = ? AND status = 'available' AND satoshis >= ? ORDER BY satoshis LIMIT ?",
  );
  const largest = db.prepare<[number, number], Raw>(
    "SELECT * FROM utxos WHERE wallet_row = ? AND status = 'available' ORDER BY satoshis DESC LIMIT ?",
  );
  const availableSum = db.prepare<[number], { s: number | null }>(
    "SELECT sum(satoshis) AS s FROM utxos WHERE wallet_row = ? AND status = 'available'",
  );
  const available = db.prepare<[number], Raw>(
    "SELECT * FROM utxos WHERE wallet_row = ? AND status = 'available' ORDER BY satoshis DESC, txid, vout",
  );
  const reserve = db.prepare(
    "UPDATE utxos SET status = 'reserved', reserved_by = ?, reserved_at = ? WHERE txid = ? AND vout = ? AND status = 'available'",
  );
  const release = db.prepare(
    "UPDATE utxos SET status = 'available', reserved_by = NULL, reserved_at = NULL WHERE reserved_by = ? AND status = 'reserved'",
  );
  const releaseCoin = db.prepare(
    "UPDATE utxos SET status = 'available', reserved_by = NULL, reserved_at = NULL WHERE txid = ? AND vout = ? AND status = 'reserved'",
  );
  const reservedAll = db.prepare<[], Raw>("SELECT * FROM utxos WHERE status = 'reserved'");
  const reservedSum = db.prepare<[number], { s: number | null }>(
    "SELECT sum(satoshis) AS s FROM utxos WHERE wallet_row = ? AND status = 'reserved'",
  );
  const all = db.prepare<[number, number], Raw>(
    'SELECT * FROM utxos WHERE wallet_row = ? ORDER BY height IS NULL DESC, height DESC, txid, vout LIMIT ?',
  );
  // With the time the wallet first booked the output's transaction (its history row), spent ones only when asked.
  const listed = db.prepare<[number, number, number], Raw & { booked_at: number | null }>(
    `SELECT u.*, t.time AS booked_at FROM utxos u LEFT JOIN wallet_txs t ON t.wallet_row = u.wallet_row AND t.txid = u.txid
     WHERE u.wallet_row = ? AND (? = 1 OR u.status <> 'spent') ORDER BY u.height IS NULL DESC, u.height DESC, u.txid, u.vout LIMIT ?`,
  );
  const unspent = db.prepare<[number], Raw>(
    "SELECT * FROM utxos WHERE wallet_row = ? AND status <> 'spent' ORDER BY height IS NULL, height, txid, vout",
  );
  const outputsOf = db.prepare<[string], Raw>('SELECT * FROM utxos WHERE txid = ? ORDER BY vout');
  const spentByTx = db.prepare<[string], Raw>('SELECT * FROM utxos WHERE spent_by = ?');
  const unspend = db.prepare(
    "UPDATE utxos SET status = 'available', spent_by = NULL, reserved_by = NULL, reserved_at = NULL WHERE spent_by = ?",
  );
  const removeOutput = db.prepare('DELETE FROM utxos WHERE txid = ? AND vout = ?');
  const onAddress = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM utxos WHERE address = ?');
  return {
    get(txid: string, vout: number): WalletUtxo | null {
      const r = get.get(txid, vout);
      return r ? toRow(r) : null;
    },
    insert(u: Omit<WalletUtxo, 'spentBy'>): boolean {
      return (
        insert.run(u.walletRow, u.txid, u.vout, u.satoshis, u.script, u.chain, u.idx, u.status, u.height, u.address, u.brc29 ?? null)
          .changes > 0
      );
    },
    markSpent(txid: string, vout: number, spentBy: string): void {
      spend.run(spentBy, txid, vout);
    },
    /** null: no block holds the transaction (any more). */
    confirm(txid: string, height: number | null): void {
      confirm.run(height, txid);
    },
    /** Transactions whose outputs are dated at `height` or above. */
    txidsFrom(height: number): string[] {
      return txidsFrom.all(height).map((r) => r.txid);
    },
    balance(walletRow: number): { confirmed: number; unconfirmed: number } {
      const r = balance.get(walletRow);
      return { confirmed: r?.confirmed ?? 0, unconfirmed: r?.unconfirmed ?? 0 };
    },
    /** Every wallet's balance (wallets holding nothing are left out). */
    balances(): { walletRow: number; confirmed: number; unconfirmed: number }[] {
      return totals.all().map((r) => ({ walletRow: r.wallet_row, confirmed: r.confirmed ?? 0, unconfirmed: r.unconfirmed ?? 0 }));
    },
    unspent(walletRow: number): WalletUtxo[] {
      return unspent.all(walletRow).map(toRow);
    },
    available(walletRow: number): WalletUtxo[] {
      return available.all(walletRow).map(toRow);
    },
    /**
     * A few spendable coins to choose from, largest first (as `available` orders them): the `smallest` coins
     * worth at least `from` satoshis, and the `largest` coins. Two index range reads, whatever the wallet holds.
     */
    candidates(walletRow: number, from: number, smallest = 50, largestN = 200): WalletUtxo[] {
      const seen = new Set<string>();
      const rows = [...(largestN > 0 ? largest.all(walletRow, largestN) : []), ...smallestFrom.all(walletRow, from, smallest)].filter(
        (r) => {
          const k = `${r.txid}:${r.vout}`;
          return seen.has(k) ? false : (seen.add(k), true);
        },
      );
      // Plain code-unit order for the tie-break (txids are lower-case hex): localeCompare was most of the cost.
      return rows.map(toRow).sort((a, b) => b.satoshis - a.satoshis || (a.txid < b.txid ? -1 : a.txid > b.txid ? 1 : a.vout - b.vout));
    },
    /** Satoshis of the wallet's spendable coins. */
    availableTotal(walletRow: number): number {
      return availableSum.get(walletRow)?.s ?? 0;
    },
    /** Marks coins as taken by one payment; false if any was taken meanwhile. Call inside a transaction. */
    reserve(coins: readonly { txid: string; vout: number }[], by: string, at: number): boolean {
      return coins.every((c) => reserve.run(by, at, c.txid, c.vout).changes === 1);
    },
    /** Gives back the coins a payment held (when it failed before reaching the chain). */
    release(by: string): number {
      return release.run(by).changes;
    },
    releaseCoin(txid: string, vout: number): void {
      releaseCoin.run(txid, vout);
    },
    /** Satoshis of the wallet's coins held by payments in flight. */
    reservedTotal(walletRow: number): number {
      return reservedSum.get(walletRow)?.s ?? 0;
    },
    reserved(): WalletUtxo[] {
      return reservedAll.all().map(toRow);
    },
    /** The outputs of one transaction that belong to the organisation's wallets. */
    outputsOf(txid: string): WalletUtxo[] {
      return outputsOf.all(txid).map(toRow);
    },
    /** The coins a transaction spent, by the books. */
    spentBy(txid: string): WalletUtxo[] {
      return spentByTx.all(txid).map(toRow);
    },
    /** Undoes a spend the chain never took: the coins are spendable again. */
    unspend(txid: string): number {
      return unspend.run(txid).changes;
    },
    /** Forgets an output of a transaction the chain never took. */
    remove(txid: string, vout: number): void {
      removeOutput.run(txid, vout);
    },
    /** Whether any booked output pays this address. */
    usedOnAddress(address: string): boolean {
      return onAddress.get(address)!.n > 0;
    },
    /** Every output of the wallet, newest first (spent ones too), for the fee manager's metrics. */
    recent(walletRow: number, limit: number): WalletUtxo[] {
      return all.all(walletRow, limit).map(toRow);
    },
    /** The newest outputs with the time their transaction was booked (ms), spent ones only with `includeSpent`. */
    listed(walletRow: number, limit: number, includeSpent: boolean): (WalletUtxo & { bookedAt: number | null })[] {
      return listed.all(walletRow, includeSpent ? 1 : 0, limit).map((r) => ({ ...toRow(r), bookedAt: r.booked_at }));
    },
  };
}
export type WalletUtxoRepo = ReturnType<typeof createWalletUtxoRepo>;
