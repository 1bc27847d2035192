import type { Db } from '../database.js';

export type OrdinalValidity = 'none' | 'valid' | 'invalid' | 'pending';

/** An output carrying an `ord` envelope that pays one of the organisation's addresses (table `ordinal_outputs`). */
export interface OrdinalOutput {
  txid: string;
  vout: number;
  walletRow: number;
  address: string;
  chain: number | null;
  idx: number | null;
  satoshis: number;
  script: string;
  contentType: string;
  contentSize: number;
  bsv21Op: 'deploy+mint' | 'transfer' | 'burn' | null;
  tokenId: string | null;
  /** Decimal text of an unsigned 64-bit integer (token units), or null for other inscriptions. */
  amount: string | null;
  validity: OrdinalValidity;
  height: number | null;
  status: 'available' | 'reserved' | 'spent';
  reservedBy: string | null;
  spentBy: string | null;
}

export interface Bsv21Token {
  tokenId: string;
  sym: string | null;
  dec: number;
  supply: string;
  icon: string | null;
}

export interface Bsv21Proof {
  tokenId: string;
  op: string;
  amount: string;
  valid: boolean;
}

interface Raw {
  txid: string;
  vout: number;
  wallet_row: number;
  address: string;
  chain: number | null;
  idx: number | null;
  satoshis: number;
  script: string;
  content_type: string;
  content_size: number;
  bsv21_op: OrdinalOutput['bsv21Op'];
  token_id: string | null;
  amount: string | null;
  validity: OrdinalValidity;
  height: number | null;
  status: OrdinalOutput['status'];
  reserved_by: string | null;
  spent_by: string | null;
}

const toRow = (r: Raw): OrdinalOutput => ({
  txid: r.txid,
  vout: r.vout,
  walletRow: r.wallet_row,
  address: r.address,
  chain: r.chain,
  idx: r.idx,
  satoshis: r.satoshis,
  script: r.script,
  contentType: r.content_type,
  contentSize: r.content_size,
  bsv21Op: r.bsv21_op,
  tokenId: r.token_id,
  amount: r.amount,
  validity: r.validity,
  height: r.height,
  status: r.status,
  reservedBy: r.reserved_by,
  spentBy: r.spent_by,
});

/** The wallets' 1Sat Ordinals outputs, the BSV-21 tokens seen, and the local index's proofs (migration 24). */
export function createOrdinalRepo(db: Db) {
  const get = db.prepare<[string, number], Raw>('SELECT * FROM ordinal_outputs WHERE txid = ? AND vout = ?');
  const insert = db.prepare(
    `INSERT OR IGNORE INTO ordinal_outputs (txid, vout, wallet_row, address, chain, idx, satoshis, script, content_type, content_size,
       bsv21_op, token_id, amount, validity, height, created_at)
     VALUES (@txid, @vout, @walletRow, @address, @chain, @idx, @satoshis, @script, @contentType, @contentSize,
       @bsv21Op, @tokenId, @amount, @validity, @height, @createdAt)`,
  );
  const unspentOf = db.prepare<[number], Raw>(
    "SELECT * FROM ordinal_outputs WHERE wallet_row = ? AND status <> 'spent' ORDER BY height IS NULL, height, txid, vout",
  );
  const spendable = db.prepare<[number, string], Raw>(
    "SELECT * FROM ordinal_outputs WHERE wallet_row = ? AND token_id = ? AND status = 'available' AND validity = 'valid' AND bsv21_op <> 'burn' ORDER BY CAST(amount AS INTEGER) DESC",
  );
  const markSpent = db.prepare("UPDATE ordinal_outputs SET status = 'spent', spent_by = ?, reserved_by = NULL WHERE txid = ? AND vout = ?");
  const reserveOne = db.prepare(
    "UPDATE ordinal_outputs SET status = 'reserved', reserved_by = ?, reserved_at = ? WHERE txid = ? AND vout = ? AND status = 'available'",
  );
  const release = db.prepare(
    "UPDATE ordinal_outputs SET status = 'available', reserved_by = NULL, reserved_at = NULL WHERE reserved_by = ?",
  );
  const reserving = db.prepare<[], { reserved_by: string }>(
    "SELECT DISTINCT reserved_by FROM ordinal_outputs WHERE status = 'reserved' AND reserved_by IS NOT NULL",
  );
  const spentBy = db.prepare<[string], Raw>('SELECT * FROM ordinal_outputs WHERE spent_by = ?');
  const unspend = db.prepare("UPDATE ordinal_outputs SET status = 'available', spent_by = NULL WHERE spent_by = ?");
  const outputsOf = db.prepare<[string], Raw>('SELECT * FROM ordinal_outputs WHERE txid = ?');
  const removeOf = db.prepare('DELETE FROM ordinal_outputs WHERE txid = ?');
  const confirm = db.prepare('UPDATE ordinal_outputs SET height = ? WHERE txid = ?');
  const txidsFrom = db.prepare<[number], { txid: string }>('SELECT DISTINCT txid FROM ordinal_outputs WHERE height >= ?');
  const setValidity = db.prepare('UPDATE ordinal_outputs SET validity = ? WHERE txid = ? AND vout = ?');
  const pending = db.prepare<[], Raw>("SELECT * FROM ordinal_outputs WHERE validity = 'pending' AND status <> 'spent' LIMIT 500");
  const heldOfToken = db.prepare<[string], { amount: string }>(
    "SELECT amount FROM ordinal_outputs WHERE token_id = ? AND status <> 'spent' AND validity = 'valid' AND bsv21_op <> 'burn'",
  );
  const putToken = db.prepare(
    'INSERT OR IGNORE INTO bsv21_tokens (token_id, sym, dec, supply, icon, created_at) VALUES (@tokenId, @sym, @dec, @supply, @icon, @createdAt)',
  );
  const token = db.prepare<[string], { token_id: string; sym: string | null; dec: number; supply: string; icon: string | null }>(
    'SELECT token_id, sym, dec, supply, icon FROM bsv21_tokens WHERE token_id = ?',
  );
  const proof = db.prepare<[string, number], { token_id: string; op: string; amount: string; valid: number }>(
    'SELECT token_id, op, amount, valid FROM bsv21_proofs WHERE txid = ? AND vout = ?',
  );
  const putProof = db.prepare(
    'INSERT OR REPLACE INTO bsv21_proofs (txid, vout, token_id, op, amount, valid, proven_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const origin = db.prepare<[string, number], { origin: string }>('SELECT origin FROM ordinal_origins WHERE txid = ? AND vout = ?');
  const putOrigin = db.prepare('INSERT OR REPLACE INTO ordinal_origins (txid, vout, origin) VALUES (?, ?, ?)');
  const movesOf = db.prepare<[number, string, number, string], { token_id: string; amount: string; sign: number; validity: string }>(
    `SELECT token_id, amount, 1 AS sign, validity FROM ordinal_outputs WHERE wallet_row = ? AND txid = ? AND token_id IS NOT NULL AND bsv21_op <> 'burn'
     UNION ALL
     SELECT token_id, amount, -1 AS sign, validity FROM ordinal_outputs WHERE wallet_row = ? AND spent_by = ? AND token_id IS NOT NULL AND bsv21_op <> 'burn'`,
  );

  return {
    get(txid: string, vout: number): OrdinalOutput | null {
      const r = get.get(txid, vout);
      return r ? toRow(r) : null;
    },
    insert(o: Omit<OrdinalOutput, 'status' | 'reservedBy' | 'spentBy'>, now: number): boolean {
      return insert.run({ ...o, createdAt: now }).changes === 1;
    },
    /** Outputs a wallet holds (available or reserved), oldest first. */
    unspent(walletRow: number): OrdinalOutput[] {
      return unspentOf.all(walletRow).map(toRow);
    },
    /** Valid token outputs of a wallet free to spend, largest first. */
    spendable(walletRow: number, tokenId: string): OrdinalOutput[] {
      return spendable.all(walletRow, tokenId).map(toRow);
    },
    markSpent(txid: string, vout: number, by: string): void {
      markSpent.run(by, txid, vout);
    },
    /** Reserves all or none (inside the caller's database transaction). */
    reserve(outputs: readonly { txid: string; vout: number }[], attempt: string, now: number): boolean {
      for (const o of outputs) if (reserveOne.run(attempt, now, o.txid, o.vout).changes !== 1) return false;
      return true;
    },
    release(attempt: string): void {
      release.run(attempt);
    },
    /** The attempts holding reservations now. */
    reservingAttempts(): string[] {
      return reserving.all().map((r) => r.reserved_by);
    },
    /** Transactions that spent outputs `txid` created. */
    dependents(txid: string): string[] {
      return [
        ...new Set(
          outputsOf
            .all(txid)
            .map((r) => r.spent_by)
            .filter((t): t is string => t !== null),
        ),
      ];
    },
    /** Undoes a transaction: what it spent is available again, what it created is forgotten. */
    revert(txid: string): void {
      unspend.run(txid);
      removeOf.run(txid);
    },
    spentBy(txid: string): OrdinalOutput[] {
      return spentBy.all(txid).map(toRow);
    },
    /** null: no block holds the transaction (any more). */
    confirm(txid: string, height: number | null): void {
      confirm.run(height, txid);
    },
    /** Transactions whose outputs are dated at `height` or above. */
    txidsFrom(height: number): string[] {
      return txidsFrom.all(height).map((r) => r.txid);
    },
    setValidity(txid: string, vout: number, validity: OrdinalValidity): void {
      setValidity.run(validity, txid, vout);
    },
    pending(): OrdinalOutput[] {
      return pending.all().map(toRow);
    },
    /** Valid units of a token the organisation's wallets hold. */
    heldOf(tokenId: string): bigint {
      return heldOfToken.all(tokenId).reduce((s, r) => s + BigInt(r.amount), 0n);
    },
    putToken(t: Bsv21Token, now: number): void {
      putToken.run({ ...t, createdAt: now });
    },
    token(tokenId: string): Bsv21Token | null {
      const r = token.get(tokenId);
      return r ? { tokenId: r.token_id, sym: r.sym, dec: r.dec, supply: r.supply, icon: r.icon } : null;
    },
    proof(txid: string, vout: number): Bsv21Proof | null {
      const r = proof.get(txid, vout);
      return r ? { tokenId: r.token_id, op: r.op, amount: r.amount, valid: r.valid === 1 } : null;
    },
    putProof(txid: string, vout: number, p: Bsv21Proof, now: number): void {
      putProof.run(txid, vout, p.tokenId, p.op, p.amount, p.valid ? 1 : 0, now);
    },
    /** A 1-satoshi output's traced origin inscription (`<txid>_<vout>`), '' when it carries none, undefined when not traced. */
    origin(txid: string, vout: number): string | undefined {
      return origin.get(txid, vout)?.origin;
    },
    putOrigin(txid: string, vout: number, value: string): void {
      putOrigin.run(txid, vout, value);
    },
    /** BSV-21 units a transaction moved for a wallet, per token: what it received minus what it spent. */
    moves(walletRow: number, txid: string): { tokenId: string; net: bigint; proven: boolean }[] {
      const by = new Map<string, { tokenId: string; net: bigint; proven: boolean }>();
      for (const r of movesOf.all(walletRow, txid, walletRow, txid)) {
        if (r.sign > 0 && r.validity === 'invalid') continue;
        const m = by.get(r.token_id) ?? { tokenId: r.token_id, net: 0n, proven: true };
        m.net += BigInt(r.sign) * BigInt(r.amount);
        if (r.sign > 0 && r.validity !== 'valid') m.proven = false;
        by.set(r.token_id, m);
      }
      return [...by.values()];
    },
  };
}
export type OrdinalRepo = ReturnType<typeof createOrdinalRepo>;
