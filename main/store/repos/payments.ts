import type { Db } from '../database.js';

export interface PaymailRef {
  reference: string;
  walletRow: number;
  outputs: { script: string; satoshis: number }[];
  satoshis: number;
  createdAt: number;
  expiresAt: number;
  txid: string | null;
}

/** P2P paymail references this host issued, and idempotency keys of pay calls. */
export function createPaymentRepo(db: Db) {
  const insertRef = db.prepare('INSERT INTO paymail_refs (reference, wallet_row, outputs, satoshis, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)');
  const getRef = db.prepare<[string], { reference: string; wallet_row: number; outputs: string; satoshis: number; created_at: number; expires_at: number; txid: string | null }>(
    'SELECT * FROM paymail_refs WHERE reference = ?',
  );
  const settleRef = db.prepare('UPDATE paymail_refs SET txid = ? WHERE reference = ? AND (txid IS NULL OR txid = ?)');
  const claimKey = db.prepare("INSERT INTO idempotency (uid, key, state, created_at) VALUES (?, ?, 'pending', ?) ON CONFLICT DO NOTHING");
  const getKey = db.prepare<[string, string], { state: 'pending' | 'done'; response: string | null }>('SELECT state, response FROM idempotency WHERE uid = ? AND key = ?');
  const finishKey = db.prepare("UPDATE idempotency SET state = 'done', response = ? WHERE uid = ? AND key = ?");
  const dropKey = db.prepare("DELETE FROM idempotency WHERE uid = ? AND key = ? AND state = 'pending'");
  const dropPending = db.prepare("DELETE FROM idempotency WHERE state = 'pending'");
  return {
    insertRef(r: Omit<PaymailRef, 'txid'>): void {
      insertRef.run(r.reference, r.walletRow, JSON.stringify(r.outputs), r.satoshis, r.createdAt, r.expiresAt);
    },
    getRef(reference: string): PaymailRef | null {
      const r = getRef.get(reference);
      return r ? { reference: r.reference, walletRow: r.wallet_row, outputs: JSON.parse(r.outputs), satoshis: r.satoshis, createdAt: r.created_at, expiresAt: r.expires_at, txid: r.txid } : null;
    },
    /** Binds a reference to the transaction that paid it; false if it was paid by another. */
    settleRef(reference: string, txid: string): boolean {
      return settleRef.run(txid, reference, txid).changes > 0;
    },
    /** Claims an idempotency key; returns the earlier state if it was claimed before. */
    claimKey(uid: string, key: string, at: number): { claimed: true } | { claimed: false; state: 'pending' | 'done'; response: string | null } {
      if (claimKey.run(uid, key, at).changes > 0) return { claimed: true };
      const r = getKey.get(uid, key)!;
      return { claimed: false, state: r.state, response: r.response };
    },
    finishKey(uid: string, key: string, response: string): void {
      finishKey.run(response, uid, key);
    },
    dropKey(uid: string, key: string): void {
      dropKey.run(uid, key);
    },
    /** After a crash, pending keys belong to calls that never answered; they may be retried. */
    dropPendingKeys(): number {
      return dropPending.run().changes;
    },
  };
}
export type PaymentRepo = ReturnType<typeof createPaymentRepo>;
