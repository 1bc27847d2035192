import type { Db } from '../database.js';

/**
 * Whether the chain has the transaction: `unseen` (signed and sent, but no provider has confirmed seeing it
 * yet), `seen` (in the mempool or a block), or `failed` (the chain refused it, or it vanished; its effect
 * on the books was undone).
 */
export type ChainState = 'unseen' | 'seen' | 'failed';

export interface WalletTx {
  walletRow: number;
  txid: string;
  direction: 'in' | 'out' | 'self';
  amount: number;
  fee: number | null;
  /** Who paid the fee: this wallet, or the organisation's fee manager (null: not ours to pay, e.g. incoming). */
  feePaidBy: 'wallet' | 'feeManager' | null;
  counterparty: string | null;
  memo: string | null;
  height: number | null;
  time: number;
}

/**
 * What a transaction moved of one token for a wallet, from the token books: `amount` in tokens (NFTs: how
 * many), `direction` in (received more than spent), out, or self (moved between its own outputs);
 * `proven` false while a received output is not yet traced back to its issue (look-alikes never count).
 */
export interface TokenMove {
  id: string;
  /** The token's protocol: KST-20, KST-789, STAS, STAS-20, STAS-789 or BSV-21. */
  protocol: string;
  symbol: string;
  amount: number;
  direction: 'in' | 'out' | 'self';
  proven: boolean;
}

/** A history row as stored, with where it stands with the chain, and the tokens it moved. */
export interface WalletTxRow extends Omit<WalletTx, 'walletRow'> {
  state: ChainState;
  failure: string | null;
  peerTxid: string | null;
  tokens: TokenMove[];
}

export interface UnconfirmedTx {
  txid: string;
  state: ChainState;
  /** When a check first found the chain without it (null: never, or seen since). */
  unseenSince: number | null;
  checkedAt: number | null;
  time: number;
}

/** Each wallet's history: one row per transaction that touched it, with the net effect on its balance. */
export function createWalletTxRepo(db: Db) {
  // A transaction the chain has: its effect is booked, and it is no longer unseen or failed.
  const upsert =
    db.prepare(`INSERT INTO wallet_txs (wallet_row, txid, direction, amount, fee, fee_paid_by, counterparty, memo, height, time, state)
    VALUES (@walletRow, @txid, @direction, @amount, @fee, @feePaidBy, @counterparty, @memo, @height, @time, 'seen')
    ON CONFLICT (wallet_row, txid) DO UPDATE SET direction = excluded.direction, amount = excluded.amount, fee = coalesce(excluded.fee, fee),
      fee_paid_by = coalesce(excluded.fee_paid_by, fee_paid_by),
      counterparty = coalesce(counterparty, excluded.counterparty), memo = coalesce(memo, excluded.memo), height = coalesce(excluded.height, height),
      state = 'seen', failure = NULL, unseen_since = NULL`);
  // A payment of ours the chain has not seen yet: shown in history, not booked. Signing is deterministic,
  // so a retry after a failure can be the very same transaction: its failed row becomes pending again.
  const insertUnseen =
    db.prepare(`INSERT INTO wallet_txs (wallet_row, txid, direction, amount, fee, fee_paid_by, counterparty, memo, height, time, state)
    VALUES (@walletRow, @txid, @direction, @amount, @fee, @feePaidBy, @counterparty, @memo, NULL, @time, 'unseen')
    ON CONFLICT (wallet_row, txid) DO UPDATE SET state = 'unseen', failure = NULL, time = excluded.time WHERE state = 'failed'`);
  const get = db.prepare<[number, string], { height: number | null; state: ChainState }>(
    'SELECT height, state FROM wallet_txs WHERE wallet_row = ? AND txid = ?',
  );
  // Only booked rows: a failed or never-booked one must be booked (its coins and outputs), not just dated.
  const confirm = db.prepare("UPDATE wallet_txs SET height = ? WHERE txid = ? AND state = 'seen'");
  const txidsFrom = db.prepare<[number], { txid: string }>('SELECT DISTINCT txid FROM wallet_txs WHERE height >= ?');
  const unbooked = db.prepare<[string], { n: number }>("SELECT count(*) AS n FROM wallet_txs WHERE txid = ? AND state <> 'seen'");
  const annotate = db.prepare(
    'UPDATE wallet_txs SET memo = coalesce(?, memo), counterparty = coalesce(?, counterparty) WHERE wallet_row = ? AND txid = ?',
  );
  const keepNote = db.prepare(
    'INSERT INTO pending_notes (wallet_row, txid, memo, counterparty, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
  );
  const forgetOldNotes = db.prepare(
    'DELETE FROM pending_notes WHERE created_at < ? OR rowid NOT IN (SELECT rowid FROM pending_notes ORDER BY created_at DESC LIMIT ?)',
  );
  const pendingNotes = db.prepare<[string], { wallet_row: number; memo: string | null; counterparty: string | null }>(
    'SELECT wallet_row, memo, counterparty FROM pending_notes WHERE txid = ?',
  );
  const dropNotes = db.prepare('DELETE FROM pending_notes WHERE txid = ?');
  const fail = db.prepare("UPDATE wallet_txs SET state = 'failed', failure = ?, height = NULL WHERE txid = ?");
  const peer = db.prepare('UPDATE wallet_txs SET peer_txid = ? WHERE txid = ?');
  const unconfirmed = db.prepare<
    [],
    { txid: string; state: ChainState; unseen_since: number | null; checked_at: number | null; time: number }
  >(
    "SELECT txid, min(state) AS state, min(unseen_since) AS unseen_since, max(checked_at) AS checked_at, min(time) AS time FROM wallet_txs WHERE height IS NULL AND state <> 'failed' GROUP BY txid ORDER BY min(time)",
  );
  const checked = db.prepare(
    'UPDATE wallet_txs SET checked_at = ?, unseen_since = CASE WHEN ? THEN coalesce(unseen_since, ?) ELSE NULL END WHERE txid = ?',
  );
  const statesOf = db.prepare<[string], { wallet_row: number; height: number | null; state: ChainState }>(
    'SELECT wallet_row, height, state FROM wallet_txs WHERE txid = ?',
  );
  const row = db.prepare<
    [number, string],
    Omit<WalletTxRow, 'peerTxid' | 'feePaidBy'> & { peer_txid: string | null; fee_paid_by: WalletTx['feePaidBy'] }
  >(
    'SELECT txid, direction, amount, fee, fee_paid_by, counterparty, memo, height, time, state, failure, peer_txid FROM wallet_txs WHERE wallet_row = ? AND txid = ?',
  );
  type PageRow = Omit<WalletTxRow, 'peerTxid' | 'feePaidBy'> & { peer_txid: string | null; fee_paid_by: WalletTx['feePaidBy'] };
  const PAGE_COLUMNS = 'txid, direction, amount, fee, fee_paid_by, counterparty, memo, height, time, state, failure, peer_txid';
  // Unconfirmed first, then newest block first, newest booked first: the wallet_txs_page index read backwards.
  const PAGE_ORDER = 'ORDER BY height IS NULL DESC, height DESC, time DESC, rowid DESC LIMIT ? OFFSET ?';
  const page = db.prepare<[number, number, number], PageRow>(`SELECT ${PAGE_COLUMNS} FROM wallet_txs WHERE wallet_row = ? ${PAGE_ORDER}`);
  /** The same, only what came in (`in`) or only what went out (`out` and `self`, which costs its fee). */
  const pageOf = {
    in: db.prepare<[number, number, number], PageRow>(
      `SELECT ${PAGE_COLUMNS} FROM wallet_txs WHERE wallet_row = ? AND direction = 'in' ${PAGE_ORDER}`,
    ),
    out: db.prepare<[number, number, number], PageRow>(
      `SELECT ${PAGE_COLUMNS} FROM wallet_txs WHERE wallet_row = ? AND direction IN ('out', 'self') ${PAGE_ORDER}`,
    ),
  };
  // The token outputs a transaction gave the wallet (look-alikes left out) and those of the wallet it spent.
  const tokenOutputs = db.prepare<
    [number, string, number, string],
    {
      token_id: string;
      protocol: string;
      satoshis: number;
      sign: number;
      proven: number;
      symbol: string | null;
      sats_per_token: number | null;
      splittable: number | null;
    }
  >(
    `SELECT m.token_id, m.protocol, m.satoshis, m.sign, m.proven, t.symbol, t.sats_per_token, t.splittable FROM (
       SELECT token_id, protocol, satoshis, 1 AS sign, validity = 'valid' AS proven FROM token_utxos WHERE wallet_row = ? AND txid = ? AND validity <> 'forged'
       UNION ALL
       SELECT token_id, protocol, satoshis, -1 AS sign, 1 AS proven FROM token_utxos WHERE wallet_row = ? AND spent_by = ?
     ) m LEFT JOIN tokens t ON t.token_id = m.token_id ORDER BY m.token_id`,
  );
  const tokenMoves = (walletRow: number, txid: string): TokenMove[] => {
    const by = new Map<string, TokenMove & { net: number }>();
    for (const o of tokenOutputs.all(walletRow, txid, walletRow, txid)) {
      const m = by.get(o.token_id) ?? {
        id: o.token_id,
        protocol: o.protocol,
        symbol: o.symbol ?? o.token_id.split('-').pop()!,
        amount: 0,
        direction: 'self',
        proven: true,
        net: 0,
      };
      // Fungible tokens count satoshis per token; an NFT output is one token.
      m.net += o.sign * (o.splittable === 0 ? 1 : Math.floor(o.satoshis / (o.sats_per_token ?? 1)));
      m.proven &&= o.proven === 1;
      by.set(o.token_id, m);
    }
    const moves: TokenMove[] = [...by.values()].map(({ net, ...m }) => ({
      ...m,
      amount: Math.abs(net),
      direction: net > 0 ? 'in' : net < 0 ? 'out' : 'self',
    }));
    return [...moves, ...bsv21Moves(walletRow, txid)];
  };
  // BSV-21 units a transaction moved for the wallet (1Sat Ordinals books, migration 24), in the token's smallest
  // unit; outputs proven invalid are never counted as received.
  const bsv21Outputs = db.prepare<
    [number, string, number, string],
    { token_id: string; amount: string; sign: number; valid: number; sym: string | null }
  >(
    `SELECT m.token_id, m.amount, m.sign, m.valid, t.sym FROM (
       SELECT token_id, amount, 1 AS sign, validity = 'valid' AS valid FROM ordinal_outputs
         WHERE wallet_row = ? AND txid = ? AND token_id IS NOT NULL AND bsv21_op <> 'burn' AND validity <> 'invalid'
       UNION ALL
       SELECT token_id, amount, -1 AS sign, 1 AS valid FROM ordinal_outputs
         WHERE wallet_row = ? AND spent_by = ? AND token_id IS NOT NULL AND bsv21_op <> 'burn' AND validity = 'valid'
     ) m LEFT JOIN bsv21_tokens t ON t.token_id = m.token_id ORDER BY m.token_id`,
  );
  const bsv21Moves = (walletRow: number, txid: string): TokenMove[] => {
    const by = new Map<string, { symbol: string; net: bigint; proven: boolean }>();
    for (const o of bsv21Outputs.all(walletRow, txid, walletRow, txid)) {
      const m = by.get(o.token_id) ?? { symbol: o.sym ?? 'BSV-21', net: 0n, proven: true };
      m.net += BigInt(o.sign) * BigInt(o.amount);
      m.proven &&= o.valid === 1;
      by.set(o.token_id, m);
    }
    return [...by.entries()].map(([id, m]) => ({
      id,
      protocol: 'BSV-21',
      symbol: m.symbol,
      amount: Number(m.net < 0n ? -m.net : m.net),
      direction: m.net > 0n ? 'in' : m.net < 0n ? 'out' : 'self',
      proven: m.proven,
    }));
  };
  return {
    upsert(t: WalletTx): void {
      upsert.run(t);
    },
    insertUnseen(t: WalletTx): void {
      insertUnseen.run(t);
    },
    /** undefined when the wallet has no such transaction; else its height (null while unconfirmed) and chain state. */
    stateOf(walletRow: number, txid: string): { height: number | null; state: ChainState } | undefined {
      return get.get(walletRow, txid);
    },
    /** Every wallet's row for this transaction: which wallet, its height and chain state. */
    statesOf(txid: string): { walletRow: number; height: number | null; state: ChainState }[] {
      return statesOf.all(txid).map((r) => ({ walletRow: r.wallet_row, height: r.height, state: r.state }));
    },
    row(walletRow: number, txid: string): WalletTxRow | undefined {
      const r = row.get(walletRow, txid);
      if (!r) return undefined;
      const { peer_txid, fee_paid_by, ...rest } = r;
      return { ...rest, peerTxid: peer_txid, feePaidBy: fee_paid_by, tokens: tokenMoves(walletRow, txid) };
    },
    /** Dates the transaction into the block at `height`; null: no block holds it (any more). */
    confirm(txid: string, height: number | null): void {
      confirm.run(height, txid);
    },
    /** Transactions booked at `height` or above (a reorganisation replaced those blocks). */
    txidsFrom(height: number): string[] {
      return txidsFrom.all(height).map((r) => r.txid);
    },
    /** Whether some wallet's row for this transaction is not booked (unseen, or undone as failed). */
    unbooked(txid: string): boolean {
      return unbooked.get(txid)!.n > 0;
    },
    annotate(walletRow: number, txid: string, memo: string | null, counterparty: string | null): void {
      annotate.run(memo, counterparty, walletRow, txid);
    },
    /**
     * Keeps a payer's note for a transaction not booked yet (`notePending` applies it when it is). At most
     * `keep` notes, none older than `maxAgeMs`: a stranger's words must not grow the database without bound.
     */
    keepNote(
      walletRow: number,
      txid: string,
      memo: string | null,
      counterparty: string | null,
      at: number,
      keep: number,
      maxAgeMs: number,
    ): void {
      db.transaction(() => {
        keepNote.run(walletRow, txid, memo, counterparty, at);
        forgetOldNotes.run(at - maxAgeMs, keep);
      })();
    },
    /** Applies the notes kept for a transaction the books now hold, and forgets them. */
    notePending(txid: string): void {
      const notes = pendingNotes.all(txid);
      if (notes.length === 0) return;
      db.transaction(() => {
        for (const n of notes) annotate.run(n.memo, n.counterparty, n.wallet_row, txid);
        dropNotes.run(txid);
      })();
    },
    markFailed(txid: string, reason: string): void {
      fail.run(reason, txid);
    },
    setPeerTxid(txid: string, peerTxid: string): void {
      peer.run(peerTxid, txid);
    },
    /** Transactions of the books that no block holds yet, each once, oldest first. */
    unconfirmed(): UnconfirmedTx[] {
      return unconfirmed
        .all()
        .map((r) => ({ txid: r.txid, state: r.state, unseenSince: r.unseen_since, checkedAt: r.checked_at, time: r.time }));
    },
    /** Remembers a check of the chain: when it was made and, if the chain lacked the transaction, since when. */
    noteCheck(txid: string, at: number, chainHasIt: boolean): void {
      checked.run(at, chainHasIt ? 0 : 1, at, txid);
    },
    /** A page of the wallet's history: unconfirmed first, then newest block first; only one direction when asked. */
    page(walletRow: number, limit: number, offset: number, only?: 'in' | 'out'): WalletTxRow[] {
      return (only ? pageOf[only] : page).all(walletRow, limit, offset).map(({ peer_txid, fee_paid_by, ...r }) => ({
        ...r,
        peerTxid: peer_txid,
        feePaidBy: fee_paid_by,
        tokens: tokenMoves(walletRow, r.txid),
      }));
    },
  };
}
export type WalletTxRepo = ReturnType<typeof createWalletTxRepo>;
