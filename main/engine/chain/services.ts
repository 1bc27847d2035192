import type { RateServices } from '../rates/services.js';
import type { WalletSync } from '../sync/wallet-sync.js';
import type { WalletServices } from '../wallets/services.js';

/**
 * What the network view and the development chain's tools need: wallets (for their next address), rates,
 * and whether the books are syncing.
 */
export type ChainOpServices = WalletServices & RateServices & { sync: WalletSync };
