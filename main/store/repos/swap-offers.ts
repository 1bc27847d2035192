import type { Db } from '../database.js';

export type OfferStatus = 'open' | 'taken' | 'withdrawn';

/** One swap offer a wallet made (migration 25). `offered`, `wanted`, `payments` are the contract's JSON shapes. */
export interface SwapOfferRow {
  id: string;
  walletRow: number;
  offeredTxid: string;
  offeredVout: number;
  tokenId: string;
  offered: unknown;
  wanted: unknown;
  payments: { to: string; satoshis: number }[];
  hex: string;
  kept: boolean;
  status: OfferStatus;
  createdAt: number;
  takenTxid: string | null;
  closedAt: number | null;
}

interface Raw {
  id: string;
  wallet_row: number;
  offered_txid: string;
  offered_vout: number;
  token_id: string;
  offered: string;
  wanted: string;
  payments: string;
  hex: string;
  kept: number;
  status: OfferStatus;
  created_at: number;
  taken_txid: string | null;
  closed_at: number | null;
}

const toRow = (r: Raw): SwapOfferRow => ({
  id: r.id,
  walletRow: r.wallet_row,
  offeredTxid: r.offered_txid,
  offeredVout: r.offered_vout,
  tokenId: r.token_id,
  offered: JSON.parse(r.offered) as unknown,
  wanted: JSON.parse(r.wanted) as unknown,
  payments: JSON.parse(r.payments) as SwapOfferRow['payments'],
  hex: r.hex,
  kept: r.kept === 1,
  status: r.status,
  createdAt: r.created_at,
  takenTxid: r.taken_txid,
  closedAt: r.closed_at,
});

export type NewSwapOffer = Omit<SwapOfferRow, 'status' | 'takenTxid' | 'closedAt'>;

export function createSwapOfferRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO swap_offers (id, wallet_row, offered_txid, offered_vout, token_id, offered, wanted, payments, hex, kept, status, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?)`,
  );
  const byId = db.prepare<[string], Raw>('SELECT * FROM swap_offers WHERE id = ?');
  const byOutput = db.prepare<[string, number], Raw>(
    "SELECT * FROM swap_offers WHERE offered_txid = ? AND offered_vout = ? ORDER BY status = 'open' DESC, created_at DESC LIMIT 1",
  );
  const ofWallet = db.prepare<[number], Raw>('SELECT * FROM swap_offers WHERE wallet_row = ? ORDER BY created_at DESC, id LIMIT 500');
  const open = db.prepare<[], Raw>("SELECT * FROM swap_offers WHERE status = 'open'");
  const close = db.prepare("UPDATE swap_offers SET status = ?, taken_txid = ?, closed_at = ? WHERE id = ? AND status = 'open'");
  return {
    insert(o: NewSwapOffer): void {
      insert.run(
        o.id,
        o.walletRow,
        o.offeredTxid,
        o.offeredVout,
        o.tokenId,
        JSON.stringify(o.offered),
        JSON.stringify(o.wanted),
        JSON.stringify(o.payments),
        o.hex,
        o.kept ? 1 : 0,
        o.createdAt,
      );
    },
    get(id: string): SwapOfferRow | null {
      const r = byId.get(id);
      return r ? toRow(r) : null;
    },
    /** The offer (the open one first) of a token output. */
    ofOutput(txid: string, vout: number): SwapOfferRow | null {
      const r = byOutput.get(txid, vout);
      return r ? toRow(r) : null;
    },
    ofWallet(walletRow: number): SwapOfferRow[] {
      return ofWallet.all(walletRow).map(toRow);
    },
    open(): SwapOfferRow[] {
      return open.all().map(toRow);
    },
    /** Closes an open offer (taken or withdrawn, by `txid`); false if it was not open. */
    close(id: string, status: Exclude<OfferStatus, 'open'>, txid: string | null, at: number): boolean {
      return close.run(status, txid, at, id).changes === 1;
    },
  };
}
export type SwapOfferRepo = ReturnType<typeof createSwapOfferRepo>;
