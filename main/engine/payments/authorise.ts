import type { WalletRow } from '../../store/repos/wallets.js';

/** What kind of transaction moves value out of a wallet (every one goes through value-flow.ts). */
export type ValueMoveKind = 'payment' | 'token-contract' | 'token-issue' | 'token-transfer' | 'token-merge' | 'token-redeem';

/** What a value move is about to do, as the organisation's policy sees it before anything is signed. */
export interface ValueMoveIntent {
  kind: ValueMoveKind;
  /** The wallet whose value moves (the fee manager may pay the fee). */
  wallet: WalletRow;
  /** What it pays: every output but its change, with its locking script and satoshis (for token moves, the token outputs). */
  outputs: readonly { script: string; satoshis: number }[];
  /** The token it moves or issues; null for a payment. */
  tokenId: string | null;
}

/**
 * The organisation's check of a value move: throws (a DomainError) to refuse it. Called once for every
 * transaction that moves value (value-flow.ts), once its coins are held and before it is built and signed;
 * a refusal gives them back. The place for spending limits and approvals.
 */
export type AuthoriseValueMove = (move: ValueMoveIntent) => void | Promise<void>;

/**
 * The policy while the organisation has set none: who may move value is decided by the caller's role
 * (the operations table) and by wallet access (wallets/resolve.ts), before a move is described.
 */
export const allowEveryValueMove: AuthoriseValueMove = () => {};
