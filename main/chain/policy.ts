import type { FeePolicy } from './types.js';

/** The most one faucet request of a development chain may ask for (its route documents it). */
export { MAX_FAUCET } from '../../shared/routes/chain.js';

/** The local node's default policy: 1 satoshi per 1,000 bytes (today's usual BSV rate), dust below 1 satoshi. */
export const DEFAULT_FEE_POLICY: FeePolicy = { satoshis: 1, bytes: 1000, dustLimit: 1 };

/** The fee a transaction of `size` bytes must pay, rounded up, never less than 1 satoshi. */
export function requiredFee(size: number, policy: FeePolicy): number {
  return Math.max(1, Math.ceil((size * policy.satoshis) / policy.bytes));
}

/** Data carriers (OP_RETURN, OP_FALSE OP_RETURN) may carry 0 satoshis; anything else must meet the dust limit. */
export function isDataCarrier(scriptHex: string): boolean {
  return scriptHex.startsWith('6a') || scriptHex.startsWith('006a');
}

export function isDust(satoshis: number, scriptHex: string, policy: FeePolicy): boolean {
  return !isDataCarrier(scriptHex) && satoshis < policy.dustLimit;
}
