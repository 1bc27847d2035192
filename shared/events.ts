/**
 * Live events: what changed, streamed to signed-in clients (`GET /v1/events` as Server-Sent Events, and
 * over IPC on the desktop). Each event has an id that only grows; a client that reconnects with the last
 * id it saw gets what it missed, or one `reset` event when that is no longer kept (then it reloads). A
 * stream whose credentials lapse (signed out, expired) gets a last `end` event with the reason.
 */
export interface LiveEventData {
  /** A wallet's balance moved (satoshis; confirmed + unconfirmed = satoshis). */
  balance: { walletID: string; walletTitle: string; satoshis: number; confirmed: number; unconfirmed: number };
  /** A transaction paying one of the wallet's addresses was booked. */
  'payment.received': { walletID: string; walletTitle: string; txid: string; satoshis: number; counterparty: string | null };
  /** A history row is new or changed state (pending → confirmed, pending → failed, failed → pending). */
  'payment.state': {
    walletID: string;
    txid: string;
    state: 'pending' | 'confirmed' | 'failed';
    direction: 'in' | 'out' | 'self';
    amount: number;
    height: number | null;
    failureReason: string | null;
  };
  /** Token outputs paying one of the wallet's addresses were booked. */
  'token.received': { walletID: string; walletTitle: string; txid: string; tokenId: string; symbol: string; amount: number };
  /** The chain's tip moved. */
  block: { height: number };
  /** A rate in the rate table changed (null: removed). */
  rate: { currency: string; rate: number | null; source: string };
  /** A scan of the wallets against the chain started (true) or finished (false). */
  'sync.state': { syncing: boolean };
  /** Keeping the wallets in step with the chain failed (it is retried). */
  'sync.error': { message: string };
  /** The fee manager's spendable balance fell below what keeps it paying fees. */
  'feeManager.low': { satoshis: number; threshold: number };
  /** The payee book changed: a payee added, updated or removed (its id), or the cooling-off period set (payeeId null). */
  payees: { change: 'added' | 'updated' | 'removed' | 'settings'; payeeId: string | null };
  /** A payment awaiting approval was asked for, voted on, sent, or ended (rejected, expired, cancelled, failed). */
  approval: {
    approvalId: string;
    state: 'awaiting_approval' | 'approved' | 'sending' | 'sent' | 'failed' | 'rejected' | 'expired' | 'cancelled';
  };
  /** The payment policy changed: a version proposed, approved, rejected, or put in force. */
  policy: { version: number; state: 'proposed' | 'active' | 'rejected' | 'superseded' };
  /** A BRC-100 app called for the first time (pending: someone should decide), or was allowed, denied or revoked. */
  apps: { originator: string; state: 'pending' | 'allowed' | 'denied' | 'revoked' };
  /** Events the client asked to replay are no longer kept: reload everything, then follow the stream. */
  reset: { reason: string };
}

export type LiveEventType = keyof LiveEventData;

export const LIVE_EVENT_TYPES: readonly LiveEventType[] = [
  'balance',
  'payment.received',
  'payment.state',
  'token.received',
  'block',
  'rate',
  'sync.state',
  'sync.error',
  'feeManager.low',
  'payees',
  'approval',
  'policy',
  'apps',
  'reset',
];

export interface LiveEvent<T extends LiveEventType = LiveEventType> {
  id: number;
  type: T;
  /** ISO time the event happened. */
  time: string;
  data: LiveEventData[T];
}

/** The query parameter that carries a ticket where a client cannot set headers (the browser's EventSource). */
export const EVENT_TICKET_PARAM = 'ticket';
