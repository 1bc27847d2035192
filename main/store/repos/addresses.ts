import type { Db } from '../database.js';

export interface AddressRow {
  chain: 0 | 1;
  idx: number;
  address: string;
  used: boolean;
}

/** Derived addresses of each wallet: chain 0 receives, chain 1 takes change. */
export function createAddressRepo(db: Db) {
  const insert = db.prepare('INSERT OR IGNORE INTO addresses (wallet_row, chain, idx, address, created_at) VALUES (?, ?, ?, ?, ?)');
  // Indexes are 0..n-1 with no gaps, so the count is the highest index + 1: one step down the key, not a walk.
  const count = db.prepare<[number, number], { n: number }>(
    'SELECT coalesce(max(idx) + 1, 0) AS n FROM addresses WHERE wallet_row = ? AND chain = ?',
  );
  const unused = db.prepare<[number, number, number], { chain: 0 | 1; idx: number; address: string; used: number }>(
    'SELECT chain, idx, address, used FROM addresses WHERE wallet_row = ? AND chain = ? AND used = 0 ORDER BY idx LIMIT ?',
  );
  // From the top of the key down: past the unused gap (about GAP_LIMIT addresses) to the first used one.
  const highestUsed = db.prepare<[number, number], { idx: number | null }>(
    'SELECT idx FROM addresses WHERE wallet_row = ? AND chain = ? AND used = 1 ORDER BY idx DESC LIMIT 1',
  );
  const markUsed = db.prepare('UPDATE addresses SET used = 1 WHERE wallet_row = ? AND address = ?');
  const markUnused = db.prepare('UPDATE addresses SET used = 0 WHERE wallet_row = ? AND address = ?');
  const owner = db.prepare<[string], { wallet_row: number; chain: 0 | 1; idx: number }>(
    'SELECT wallet_row, chain, idx FROM addresses WHERE address = ? ORDER BY wallet_row LIMIT 1',
  );
  const leastRecentlyIssued = db.prepare<[number, number, number], { address: string }>(
    'SELECT address FROM addresses WHERE wallet_row = ? AND chain = 0 AND used = 0 AND idx <= ? ORDER BY issued_at IS NOT NULL, issued_at, idx LIMIT ?',
  );
  const issue = db.prepare('UPDATE addresses SET issued_at = ? WHERE wallet_row = ? AND address = ?');
  const neverIssued = db.prepare<[number, number], { address: string }>(
    `SELECT address FROM addresses a WHERE wallet_row = ? AND chain = 0 AND used = 0 AND issued_at IS NULL AND idx <= ?
       AND NOT EXISTS (SELECT 1 FROM invoices i WHERE i.address = a.address) ORDER BY idx LIMIT 1`,
  );
  const at = db.prepare<[number, number, number], { address: string; used: number }>(
    'SELECT address, used FROM addresses WHERE wallet_row = ? AND chain = ? AND idx = ?',
  );
  return {
    /** Number of derived addresses on a chain; they are always 0..n-1 with no gaps. */
    count(walletRow: number, chain: 0 | 1): number {
      return count.get(walletRow, chain)!.n;
    },
    insertMany(walletRow: number, rows: readonly { chain: 0 | 1; idx: number; address: string }[], at: number): void {
      db.transaction(() => {
        for (const r of rows) insert.run(walletRow, r.chain, r.idx, r.address, at);
      })();
    },
    unused(walletRow: number, chain: 0 | 1, limit: number): AddressRow[] {
      return unused.all(walletRow, chain, limit).map((r) => ({ chain: r.chain, idx: r.idx, address: r.address, used: r.used === 1 }));
    },
    highestUsed(walletRow: number, chain: 0 | 1): number {
      return highestUsed.get(walletRow, chain)?.idx ?? -1;
    },
    /** Which wallet derived this address (the first, if the same seed was imported twice). */
    owner(address: string): { walletRow: number; chain: 0 | 1; idx: number } | null {
      const r = owner.get(address);
      return r ? { walletRow: r.wallet_row, chain: r.chain, idx: r.idx } : null;
    },
    at(walletRow: number, chain: 0 | 1, idx: number): { address: string; used: boolean } | null {
      const r = at.get(walletRow, chain, idx);
      return r ? { address: r.address, used: r.used === 1 } : null;
    },
    /** Hands back an address a failed payment had claimed for change (nothing was ever paid to it). */
    markUnused(walletRow: number, address: string): void {
      markUnused.run(walletRow, address);
    },
    /**
     * The unpaid receive address, at index `maxIdx` or below, handed out longest ago (never handed out
     * first), now marked as handed out: so handing out addresses never walks past the gap limit. Null when
     * every one is in `except`.
     */
    issueLeastRecent(walletRow: number, maxIdx: number, at: number, except: ReadonlySet<string> = new Set()): string | null {
      // Addresses in `except` (those open invoices wait on) are never handed out.
      const r = leastRecentlyIssued.all(walletRow, maxIdx, except.size + 1).find((a) => !except.has(a.address));
      if (!r) return null;
      issue.run(at, walletRow, r.address);
      return r.address;
    },
    /**
     * For an invoice: the lowest unpaid receive address at `maxIdx` or below that nothing ever handed out (the
     * paymail host, Receive, a sweep) and no invoice ever had, now marked as handed out; null when none is
     * left. Any payment to an invoice's address pays the invoice, so no other payer may ever know it.
     */
    issueForInvoice(walletRow: number, maxIdx: number, at: number): string | null {
      const r = neverIssued.get(walletRow, maxIdx);
      if (!r) return null;
      issue.run(at, walletRow, r.address);
      return r.address;
    },
    /** Marks addresses as handed out (shown by Receive, a sweep's destination): no invoice takes them after. */
    markIssued(walletRow: number, addresses: readonly string[], at: number): void {
      for (const a of addresses) issue.run(at, walletRow, a);
    },
    markUsed(walletRow: number, address: string): boolean {
      return markUsed.run(walletRow, address).changes > 0;
    },
  };
}
export type AddressRepo = ReturnType<typeof createAddressRepo>;
