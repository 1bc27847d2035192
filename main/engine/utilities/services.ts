import type { TokenServices } from '../tokens/services.js';

/**
 * What the utilities need: the chain (raw transactions), the rate table (conversions), the token templates
 * and books (decoding what outputs carry), the wallets' books (metrics) and the value flow (writing data).
 */
export type UtilityServices = TokenServices;
