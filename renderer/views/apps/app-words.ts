import type { AppOutput, WalletSummary } from '../../../shared/operations.js';

/** What a wallet picker for apps needs: the user's wallets, and the default wallet for apps (null: the organisation's). */
export interface WalletWords {
  wallets: WalletSummary[] | null;
  defaultWalletId: string | null;
}

/** In a wallet picker: the app is answered by the default wallet for apps (its walletId is then null). */
export const DEFAULT_CHOICE = '';

export const STATE_LABEL: Record<AppOutput['state'], string> = {
  pending: 'waiting',
  allowed: 'allowed',
  denied: 'denied',
  revoked: 'revoked',
};

export const STATE_COLOR: Record<AppOutput['state'], string> = { pending: 'yellow', allowed: 'teal', denied: 'red', revoked: 'gray' };

/** A wallet's title when the user can see it; otherwise its id (a wallet of another user, still the one that answers). */
export function walletName(id: string, wallets: readonly WalletSummary[] | null): string {
  return wallets?.find((w) => w.walletID === id)?.walletTitle ?? id;
}

/** What answers apps allowed without a wallet of their own, in words. */
export function defaultWalletName(defaultWalletId: string | null, wallets: readonly WalletSummary[] | null): string {
  return defaultWalletId === null ? "the organisation's default wallet" : walletName(defaultWalletId, wallets);
}

/** The default wallet for apps as a choice or a table cell names it. */
export function defaultChoiceLabel(defaultWalletId: string | null, wallets: readonly WalletSummary[] | null): string {
  return `Default wallet for apps (${defaultWalletId === null ? 'organisation default' : walletName(defaultWalletId, wallets)})`;
}

/**
 * The choices for the wallet that answers an app: the default wallet for apps first, then the user's wallets,
 * and the `current` one when it is not among them (so a choice made by someone else still shows).
 */
export function walletChoices(wallets: readonly WalletSummary[] | null, defaultWalletId: string | null, current: string | null = null) {
  const mine = (wallets ?? []).map((w) => ({ value: w.walletID, label: w.walletTitle }));
  const other = current && current !== DEFAULT_CHOICE && !mine.some((w) => w.value === current) ? [{ value: current, label: current }] : [];
  return [{ value: DEFAULT_CHOICE, label: defaultChoiceLabel(defaultWalletId, wallets) }, ...mine, ...other];
}

/** decideApp's walletId for a choice: omitted for the default wallet for apps. */
export const chosenWallet = (choice: string) => (choice === DEFAULT_CHOICE ? undefined : choice);
