import type { WalletRow } from '../store/repos/wallets.js';

/**
 * The contract between the moves of value (payments/value-flow.ts, the sweep) and the organisation's check
 * of them (policies/authorise.ts, or a test's): at the engine's root, so neither capability imports the other.
 */

/** What kind of transaction moves value out of a wallet (every one goes through value-flow.ts), or into one from a swept key. */
export type ValueMoveKind =
  | 'payment'
  | 'token-contract'
  | 'token-issue'
  | 'token-transfer'
  | 'token-merge'
  | 'token-redeem'
  // A swap offer (its tokens are promised to whoever takes it), and a swap taken (what the taker pays).
  | 'token-offer'
  | 'token-swap'
  | 'sweep'
  | 'app-action';

/** What a value move is about to do, as the organisation's policy sees it before anything is signed. */
export interface ValueMoveIntent {
  kind: ValueMoveKind;
  /** The wallet whose value moves (the fee manager may pay the fee). */
  wallet: WalletRow;
  /** What it pays: every output but its change, with its locking script and satoshis (for token moves, the token outputs). */
  outputs: readonly { script: string; satoshis: number }[];
  /** The token it moves or issues; null for a payment. */
  tokenId: string | null;
  /** The paymail or payment URI it pays, when there is one (value-flow.ts fills it from the move). */
  counterparty?: string | null;
  /**
   * Whether the counterparty's paymail is vouched for by its host: every output leaving the wallet pays an
   * address that paymail's host gave this engine when it resolved it (paymail/vouched.ts). Only then does the
   * policy treat the outputs as paying that paymail; otherwise a counterparty is a caller's label, and the
   * outputs are judged by their addresses.
   */
  paymailVouched?: boolean;
  /**
   * What the move moves in its asset's own unit, when its outputs' satoshis do not say it: a BSV-21 send's
   * units (written in its inscriptions), an inscription (one NFT). Without it the policy measures a token
   * move by its token's satoshis per token, and BSV in satoshis.
   */
  measure?: { asset: 'tokens' | 'nfts'; amount: number };
  /**
   * The network fee the move pays in BSV (by its wallet or the fee manager), when known before signing
   * (value-flow.ts): a BSV move's amount includes it, so fees count in the policy's limits and windows.
   */
  fee?: number;
}

/**
 * What the check answered, when it holds something: an allowed move's place in the policy's windows, given
 * back when the move ends before it is recorded; or, for a move that must wait for approvals, the error the
 * call answers with (raised by the caller once the request it recorded is committed).
 */
export interface ValueMoveTicket {
  release(): void;
  awaiting?: Error;
  /**
   * For a move that waits: tells the approvers, once the caller's transaction holding the request has
   * committed (told inside it, a transaction rolled back would announce a request that does not exist).
   */
  announce?(): void;
}

/**
 * The organisation's check of a value move: throws (a DomainError) to refuse it. Called once for every
 * transaction that moves value (value-flow.ts), inside the database transaction that then reserves its
 * coins, before anything is built or signed: a refusal reserves nothing. Synchronous, so that what it reads
 * and writes (a limit's window) is one step with the reservation. The place for limits and approvals.
 */
export type AuthoriseValueMove = (move: ValueMoveIntent) => void | ValueMoveTicket;
