import type { TokenServices } from '../tokens/services.js';

/** What sweeping a key needs: the chain (its coins, broadcasting), the token templates, the books, a wallet's addresses. */
export type SweepServices = TokenServices;
