/** The fee manager is a wallet with this reserved id: it never shows among, or acts as, a user's wallets. */
export const FEE_MANAGER_WALLET_ID = 'fee-manager';

/** Whether a wallet row is the organisation's fee manager (its reserved id, as the escrow wallet it is). */
export const isFeeManagerWallet = (w: { walletId: string; type: string }) => w.walletId === FEE_MANAGER_WALLET_ID && w.type === 'escrow';
