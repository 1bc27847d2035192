import type { Db } from '../database.js';

export interface PaymailRef {
  reference: string;
  walletRow: number;
  outputs: { script: string; satoshis: number }[];
  satoshis: number;
  createdAt: number;
  expiresAt: number;
  txid: string | null;
  /** What pays it: plain satoshis (bsv), or outputs of one token (`tokenId`). */
  kind: 'bsv' | 'token';
  tokenId: string | null;
}

export type AttemptState = 'sending' | 'unknown' | 'pending' | 'cancelling' | 'done' | 'failed';

interface AttemptRaw {
  attempt: string;
  wallet_row: number;
  txid: string;
  raw: string;
  state: AttemptState;
  result: string;
  memo: string | null;
  counterparty: string | null;
  created_at: number;
  delivered_at: number | null;
  peer_txid: string | null;
  failure: string | null;
  change_addresses: string;
  cancel_raw: string | null;
  cancel_txid: string | null;
}

/**
 * A signed payment, kept from before it is sent until its outcome is known: `sending` (delivery under
 * way, or cut off by a crash), `unknown` (no clear answer), `pending` (the receiver took it, the chain has
 * not shown it yet), `cancelling` (the receiver refused it but may still hold it: a transaction spending
 * one of its coins back to the wallet is on its way), `done` (the chain has it), `failed` (the chain refused
 * it, or the cancellation took its place; its coins came back).
 */
export interface PaymentAttempt {
  attempt: string;
  walletRow: number;
  txid: string;
  raw: string;
  state: AttemptState;
  result: string;
  memo: string | null;
  counterparty: string | null;
  createdAt: number;
  deliveredAt: number | null;
  peerTxid: string | null;
  failure: string | null;
  /** The change addresses it claimed, given back if it fails. */
  changeAddresses: { walletRow: number; address: string }[];
  /** The transaction that cancels it (spends one of its coins back to the wallet), once one is signed. */
  cancelRaw: string | null;
  cancelTxid: string | null;
}

const toAttempt = (r: AttemptRaw): PaymentAttempt => ({
  attempt: r.attempt,
  walletRow: r.wallet_row,
  txid: r.txid,
  raw: r.raw,
  state: r.state,
  result: r.result,
  memo: r.memo,
  counterparty: r.counterparty,
  createdAt: r.created_at,
  deliveredAt: r.delivered_at,
  peerTxid: r.peer_txid,
  failure: r.failure,
  changeAddresses: JSON.parse(r.change_addresses),
  cancelRaw: r.cancel_raw,
  cancelTxid: r.cancel_txid,
});

/** P2P paymail references this host issued, idempotency keys of pay calls, and payment attempts. */
export function createPaymentRepo(db: Db) {
  const insertRef = db.prepare(
    'INSERT INTO paymail_refs (reference, wallet_row, outputs, satoshis, created_at, expires_at, kind, token_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const purgeRefs = db.prepare('DELETE FROM paymail_refs WHERE txid IS NULL AND expires_at < ?');
  const getRef = db.prepare<
    [string],
    {
      reference: string;
      wallet_row: number;
      outputs: string;
      satoshis: number;
      created_at: number;
      expires_at: number;
      txid: string | null;
      kind: PaymailRef['kind'];
      token_id: string | null;
    }
  >('SELECT * FROM paymail_refs WHERE reference = ?');
  const claimRef = db.prepare('UPDATE paymail_refs SET txid = ? WHERE reference = ? AND txid IS NULL');
  const unclaimRef = db.prepare('UPDATE paymail_refs SET txid = NULL WHERE reference = ? AND txid = ?');
  const settleRef = db.prepare('UPDATE paymail_refs SET txid = ? WHERE reference = ? AND (txid IS NULL OR txid = ?)');
  const claimKey = db.prepare(
    "INSERT INTO idempotency (uid, key, state, created_at, request_hash) VALUES (?, ?, 'pending', ?, ?) ON CONFLICT DO NOTHING",
  );
  const getKey = db.prepare<[string, string], { state: 'pending' | 'done'; response: string | null; request_hash: string | null }>(
    'SELECT state, response, request_hash FROM idempotency WHERE uid = ? AND key = ?',
  );
  const linkKey = db.prepare('UPDATE idempotency SET attempt = ? WHERE uid = ? AND key = ?');
  const finishByAttempt = db.prepare("UPDATE idempotency SET state = 'done', response = ? WHERE attempt = ?");
  const dropByAttempt = db.prepare('DELETE FROM idempotency WHERE attempt = ?');
  const cancelledHoldingKeys = db.prepare<[], AttemptRaw>(
    "SELECT * FROM payment_attempts a WHERE state = 'failed' AND cancel_txid IS NOT NULL AND EXISTS (SELECT 1 FROM idempotency i WHERE i.attempt = a.attempt)",
  );
  const insertAttempt = db.prepare(
    "INSERT INTO payment_attempts (attempt, wallet_row, txid, raw, state, result, memo, counterparty, created_at, change_addresses) VALUES (?, ?, ?, ?, 'sending', ?, ?, ?, ?, ?)",
  );
  const setAttempt = db.prepare('UPDATE payment_attempts SET state = ? WHERE attempt = ?');
  const setPending = db.prepare(
    "UPDATE payment_attempts SET state = 'pending', delivered_at = ?, peer_txid = ? WHERE attempt = ? AND state IN ('sending','unknown')",
  );
  const setFailed = db.prepare("UPDATE payment_attempts SET state = 'failed', failure = ? WHERE attempt = ?");
  const openAttempts = db.prepare<[], AttemptRaw>(
    "SELECT * FROM payment_attempts WHERE state IN ('sending','unknown','pending','cancelling') ORDER BY created_at",
  );
  const setCancelling = db.prepare(
    "UPDATE payment_attempts SET state = 'cancelling', cancel_raw = ?, cancel_txid = ?, failure = ? WHERE attempt = ?",
  );
  const byTxid = db.prepare<[string], AttemptRaw>('SELECT * FROM payment_attempts WHERE txid = ? ORDER BY created_at DESC LIMIT 1');
  const byId = db.prepare<[string], AttemptRaw>('SELECT * FROM payment_attempts WHERE attempt = ?');
  const attemptExists = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM payment_attempts WHERE attempt = ?');
  const finishKey = db.prepare("UPDATE idempotency SET state = 'done', response = ? WHERE uid = ? AND key = ?");
  const dropKey = db.prepare("DELETE FROM idempotency WHERE uid = ? AND key = ? AND state = 'pending'");
  const dropPending = db.prepare("DELETE FROM idempotency WHERE state = 'pending' AND attempt IS NULL");
  const dropUnsentKey = db.prepare("DELETE FROM idempotency WHERE uid = ? AND key = ? AND state = 'pending' AND attempt IS NULL");
  return {
    insertRef(r: Omit<PaymailRef, 'txid' | 'kind' | 'tokenId'> & Partial<Pick<PaymailRef, 'kind' | 'tokenId'>>): void {
      insertRef.run(
        r.reference,
        r.walletRow,
        JSON.stringify(r.outputs),
        r.satoshis,
        r.createdAt,
        r.expiresAt,
        r.kind ?? 'bsv',
        r.tokenId ?? null,
      );
    },
    /** Forgets unpaid references that expired before `before`. */
    purgeExpiredRefs(before: number): number {
      return purgeRefs.run(before).changes;
    },
    getRef(reference: string): PaymailRef | null {
      const r = getRef.get(reference);
      return r
        ? {
            reference: r.reference,
            walletRow: r.wallet_row,
            outputs: JSON.parse(r.outputs),
            satoshis: r.satoshis,
            createdAt: r.created_at,
            expiresAt: r.expires_at,
            txid: r.txid,
            kind: r.kind,
            tokenId: r.token_id,
          }
        : null;
    },
    /** Binds a reference to the transaction that paid it; false if it was paid by another. */
    settleRef(reference: string, txid: string): boolean {
      return settleRef.run(txid, reference, txid).changes > 0;
    },
    /** Claims an idempotency key for one request; returns the earlier state if it was claimed before. */
    claimKey(
      uid: string,
      key: string,
      at: number,
      requestHash: string,
    ): { claimed: true } | { claimed: false; state: 'pending' | 'done'; response: string | null; sameRequest: boolean } {
      if (claimKey.run(uid, key, at, requestHash).changes > 0) return { claimed: true };
      const r = getKey.get(uid, key)!;
      return {
        claimed: false,
        state: r.state,
        response: r.response,
        sameRequest: r.request_hash === null || r.request_hash === requestHash,
      };
    },
    linkKey(uid: string, key: string, attempt: string): void {
      linkKey.run(attempt, uid, key);
    },
    /** Claims a P2P reference for one transaction before broadcasting; false if another already holds it. */
    claimRef(reference: string, txid: string): boolean {
      try {
        return claimRef.run(txid, reference).changes > 0;
      } catch (err) {
        // The transaction already paid another reference (one transaction pays one reference).
        if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') return false;
        throw err;
      }
    },
    unclaimRef(reference: string, txid: string): void {
      unclaimRef.run(reference, txid);
    },
    recordAttempt(a: {
      attempt: string;
      walletRow: number;
      txid: string;
      raw: string;
      result: string;
      memo: string | null;
      counterparty: string | null;
      at: number;
      changeAddresses: { walletRow: number; address: string }[];
    }): void {
      insertAttempt.run(a.attempt, a.walletRow, a.txid, a.raw, a.result, a.memo, a.counterparty, a.at, JSON.stringify(a.changeAddresses));
    },
    attemptExists(attempt: string): boolean {
      return attemptExists.get(attempt)!.n > 0;
    },
    /** The chain has it: the attempt and every key waiting on it are done. */
    attemptDone(attempt: string, result: string): void {
      setAttempt.run('done', attempt);
      finishByAttempt.run(result, attempt);
    },
    /** The receiver took it and the chain has not shown it yet; the key is done with the pending result. */
    attemptPending(attempt: string, deliveredAt: number, peerTxid: string | null, result: string): void {
      setPending.run(deliveredAt, peerTxid, attempt);
      finishByAttempt.run(result, attempt);
    },
    /** The chain refused it for good: the keys waiting on it may be used again. */
    attemptFailed(attempt: string, failure: string): void {
      setFailed.run(failure, attempt);
      dropByAttempt.run(attempt);
    },
    /**
     * Cancelled on chain, the cancellation not yet in a block: failed, but its keys stay held (a retry is told it
     * is in progress), since the refused payment could still be mined instead until a block holds the cancellation.
     */
    attemptCancelled(attempt: string, failure: string): void {
      setFailed.run(failure, attempt);
    },
    /** Cancelled attempts whose keys are still held (their cancellation not yet seen in a block). */
    cancelledHoldingKeys(): PaymentAttempt[] {
      return cancelledHoldingKeys.all().map(toAttempt);
    },
    /** A block holds the cancellation: the keys of the cancelled attempt may be used again. */
    releaseKeys(attempt: string): void {
      dropByAttempt.run(attempt);
    },
    /** The receiver refused it: it is cancelled by spending one of its coins back to the wallet. */
    attemptCancelling(attempt: string, cancelRaw: string, cancelTxid: string, reason: string): void {
      setCancelling.run(cancelRaw, cancelTxid, reason, attempt);
    },
    attemptUnknown(attempt: string): void {
      setAttempt.run('unknown', attempt);
    },
    openAttempts(): PaymentAttempt[] {
      return openAttempts.all().map(toAttempt);
    },
    attempt(attempt: string): PaymentAttempt | null {
      const r = byId.get(attempt);
      return r ? toAttempt(r) : null;
    },
    /** The newest attempt that signed this transaction, if it was ours. */
    attemptFor(txid: string): PaymentAttempt | null {
      const r = byTxid.get(txid);
      return r ? toAttempt(r) : null;
    },
    finishKey(uid: string, key: string, response: string): void {
      finishKey.run(response, uid, key);
    },
    dropKey(uid: string, key: string): void {
      dropKey.run(uid, key);
    },
    /** Frees a key whose call failed before its transaction was stored; a key bound to a stored one stays. */
    dropUnsentKey(uid: string, key: string): void {
      dropUnsentKey.run(uid, key);
    },
    /** After a crash: pending keys of calls that never sent anything may be used again. */
    dropUnsentPendingKeys(): number {
      return dropPending.run().changes;
    },
  };
}
export type PaymentRepo = ReturnType<typeof createPaymentRepo>;
