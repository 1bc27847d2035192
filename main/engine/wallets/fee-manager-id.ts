/** The fee manager is a wallet with this reserved id: it never shows among, or acts as, a user's wallets. */
export const FEE_MANAGER_WALLET_ID = 'fee-manager';
