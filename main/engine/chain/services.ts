import type { RateServices } from '../rates/services.js';
import type { WalletServices } from '../wallets/services.js';

/** What the network view and the development chain's tools need: wallets (for their next address) and rates. */
export type ChainOpServices = WalletServices & RateServices;
