/**
 * The plausible price of one BSV in USD, for the network's answer (chain/network) and the engine's rate table
 * (engine/rates) alike. An answer outside it is refused: 1,000,000 made a $100 invoice ask 10,000 satoshis;
 * 0.000001 made every USD policy limit effectively infinite.
 */
export const MIN_USD_PER_BSV = 0.01;
export const MAX_USD_PER_BSV = 1_000_000;

/** Whether a price of one BSV in USD is plausible at all. */
export function plausibleUsdRate(rate: unknown): rate is number {
  return typeof rate === 'number' && Number.isFinite(rate) && rate >= MIN_USD_PER_BSV && rate <= MAX_USD_PER_BSV;
}
