import type { Db } from '../database.js';

/** What happened to an invoice; "expired" is an open one past its expiry, decided when it is read. */
export type InvoiceStoredState = 'open' | 'paid' | 'cancelled';

export interface InvoiceRow {
  id: string;
  walletRow: number;
  createdBy: string;
  address: string;
  satoshis: number;
  /** The currency it was priced in (null when priced in BSV or satoshis), the amount given, and the rate then. */
  currency: string | null;
  currencyAmount: string | null;
  rate: number | null;
  memo: string | null;
  description: string | null;
  merchantData: string | null;
  createdAt: number;
  expiresAt: number;
  state: InvoiceStoredState;
  paidTxid: string | null;
  paidAt: number | null;
  cancelledAt: number | null;
}

interface Raw {
  id: string;
  wallet_row: number;
  created_by: string;
  address: string;
  satoshis: number;
  currency: string | null;
  currency_amount: string | null;
  rate: number | null;
  memo: string | null;
  description: string | null;
  merchant_data: string | null;
  created_at: number;
  expires_at: number;
  state: InvoiceStoredState;
  paid_txid: string | null;
  paid_at: number | null;
  cancelled_at: number | null;
}

const toRow = (r: Raw): InvoiceRow => ({
  id: r.id,
  walletRow: r.wallet_row,
  createdBy: r.created_by,
  address: r.address,
  satoshis: r.satoshis,
  currency: r.currency,
  currencyAmount: r.currency_amount,
  rate: r.rate,
  memo: r.memo,
  description: r.description,
  merchantData: r.merchant_data,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  state: r.state,
  paidTxid: r.paid_txid,
  paidAt: r.paid_at,
  cancelledAt: r.cancelled_at,
});

export type NewInvoice = Omit<InvoiceRow, 'state' | 'paidTxid' | 'paidAt' | 'cancelledAt'>;

/** Payment requests of the organisation's wallets (engine/invoices). */
export function createInvoiceRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO invoices (id, wallet_row, created_by, address, satoshis, currency, currency_amount, rate, memo, description,
       merchant_data, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const byId = db.prepare<[string], Raw>('SELECT * FROM invoices WHERE id = ?');
  const openOn = db.prepare<[string, number], Raw>(
    "SELECT * FROM invoices WHERE address = ? AND state = 'open' AND expires_at >= ? ORDER BY created_at",
  );
  const heldBy = db.prepare<[number, number], { address: string }>(
    "SELECT address FROM invoices WHERE wallet_row = ? AND state = 'open' AND expires_at >= ?",
  );
  const openByWallet = db.prepare<[number, number], { n: number }>(
    "SELECT count(*) AS n FROM invoices WHERE wallet_row = ? AND state = 'open' AND expires_at >= ?",
  );
  const openByCreator = db.prepare<[string, number], { n: number }>(
    "SELECT count(*) AS n FROM invoices WHERE created_by = ? AND state = 'open' AND expires_at >= ?",
  );
  // A wallet's invoice addresses past an index that no invoice waits on or was paid on any more: every invoice there
  // expired or was cancelled before `closedBefore`, unpaid, and the address never received anything booked.
  const dormant = db.prepare<[number, number, number, number], { address: string }>(
    `SELECT i.address FROM invoices i JOIN addresses a ON a.wallet_row = i.wallet_row AND a.chain = 0 AND a.address = i.address
     WHERE i.wallet_row = ? AND a.idx > ? AND a.used = 0
     GROUP BY i.address
     HAVING sum(CASE WHEN i.state = 'paid' OR (i.state = 'open' AND i.expires_at >= ?)
                       OR (i.state = 'cancelled' AND i.cancelled_at >= ?) THEN 1 ELSE 0 END) = 0
     ORDER BY min(a.idx)`,
  );
  const markPaid = db.prepare("UPDATE invoices SET state = 'paid', paid_txid = ?, paid_at = ? WHERE id = ? AND state = 'open'");
  const reopen = db.prepare("UPDATE invoices SET state = 'open', paid_txid = NULL, paid_at = NULL WHERE paid_txid = ? AND state = 'paid'");
  const cancel = db.prepare(
    "UPDATE invoices SET state = 'cancelled', cancelled_at = ? WHERE id = ? AND state = 'open' AND expires_at >= ?",
  );
  return {
    insert(i: NewInvoice): void {
      insert.run(
        i.id,
        i.walletRow,
        i.createdBy,
        i.address,
        i.satoshis,
        i.currency,
        i.currencyAmount,
        i.rate,
        i.memo,
        i.description,
        i.merchantData,
        i.createdAt,
        i.expiresAt,
      );
    },
    byId(id: string): InvoiceRow | null {
      const r = byId.get(id);
      return r ? toRow(r) : null;
    },
    /** The invoices still open at `now` that are paid to `address`, oldest first. */
    openOn(address: string, now: number): InvoiceRow[] {
      return openOn.all(address, now).map(toRow);
    },
    /** The addresses of a wallet that open invoices are waiting on. */
    heldAddresses(walletRow: number, now: number): Set<string> {
      return new Set(heldBy.all(walletRow, now).map((r) => r.address));
    },
    /** How many invoices open at `now` pay the wallet, and how many open at `now` the user made. */
    openCount(by: { walletRow: number } | { createdBy: string }, now: number): number {
      return ('walletRow' in by ? openByWallet.get(by.walletRow, now) : openByCreator.get(by.createdBy, now))?.n ?? 0;
    },
    /**
     * The wallet's receive addresses past index `pastIdx` that only invoices closed unpaid before `closedBefore`
     * had (expired or cancelled then; none paid or still open) and that never received anything booked: lowest
     * index first (sync/invoice-scan-plan.ts).
     */
    dormantAddresses(walletRow: number, closedBefore: number, pastIdx: number): string[] {
      return dormant.all(walletRow, pastIdx, closedBefore, closedBefore).map((r) => r.address);
    },
    /** Marks an open invoice paid by `txid`; false when it was not open. */
    markPaid(id: string, txid: string, at: number): boolean {
      return markPaid.run(txid, at, id).changes > 0;
    },
    /** Invoices paid by a transaction the chain never took are open again. */
    reopenPaidBy(txid: string): number {
      return reopen.run(txid).changes;
    },
    /** Cancels an invoice open at `now`; false when it was not. */
    cancel(id: string, now: number): boolean {
      return cancel.run(now, id, now).changes > 0;
    },
    /** Newest first; `walletRows` null for every wallet's; `state` as it stands at `now` (expired: open past its expiry). */
    list(q: {
      walletRows: readonly number[] | null;
      state?: InvoiceStoredState | 'expired';
      now: number;
      limit: number;
      offset: number;
    }): InvoiceRow[] {
      if (q.walletRows !== null && q.walletRows.length === 0) return [];
      const where: string[] = [];
      const args: (string | number)[] = [];
      if (q.walletRows !== null) {
        where.push(`wallet_row IN (${q.walletRows.map(() => '?').join(',')})`);
        args.push(...q.walletRows);
      }
      if (q.state === 'expired' || q.state === 'open') {
        where.push(`state = 'open' AND expires_at ${q.state === 'open' ? '>=' : '<'} ?`);
        args.push(q.now);
      } else if (q.state) {
        where.push('state = ?');
        args.push(q.state);
      }
      const sql = `SELECT * FROM invoices ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, id LIMIT ? OFFSET ?`;
      return db
        .prepare<unknown[], Raw>(sql)
        .all(...args, q.limit, q.offset)
        .map(toRow);
    },
  };
}
export type InvoiceRepo = ReturnType<typeof createInvoiceRepo>;
