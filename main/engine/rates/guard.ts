import { MAX_USD_PER_BSV, MIN_USD_PER_BSV, plausibleUsdRate } from '../../chain/usd-rate-band.js';
import type { RateRow } from '../../store/repos/rates.js';

export { MAX_USD_PER_BSV, MIN_USD_PER_BSV };

/**
 * The most a fetched rate may move against the stored one: 50% (a factor of 1.5 up, or down to 1/1.5),
 * and that only once the stored rate is RATE_JUMP_WINDOW_MS old. A younger stored rate allows a
 * proportional part of it (1.5^(age/window)), so a provider that lies a little at every five-minute refresh
 * can still move the rate no more than 50% per window, however often it is asked.
 */
export const MAX_RATE_JUMP = 0.5;

/**
 * Past this age the stored rate is too old to judge a new one by: any plausible rate is accepted (a real
 * crash must not be refused forever), and a jump past MAX_RATE_JUMP is logged.
 */
export const RATE_JUMP_WINDOW_MS = 6 * 3600_000;

/**
 * The oldest rate fetched from a provider that may measure a payment policy's or authorisation's currency
 * limit. Rates an admin typed in (`manual`) and the local network's starting table (`default`) are the
 * deliberate table and have no age limit.
 */
export const POLICY_RATE_MAX_AGE_MS = 3600_000;

/** A rate the table holds because someone set it, not because a provider answered. */
export const isTableRate = (r: Pick<RateRow, 'source'>): boolean => r.source === 'manual' || r.source === 'default';

export type RateVerdict = { accept: true; note: string | null } | { accept: false; reason: string };

/** Whether a USD rate fetched now may replace `stored` (the row in the table, if any). */
export function judgeUsdRate(stored: RateRow | null, rate: number, now: number): RateVerdict {
  if (!plausibleUsdRate(rate))
    return { accept: false, reason: `${String(rate)} is not a number from ${MIN_USD_PER_BSV} to ${MAX_USD_PER_BSV} USD per BSV` };
  // Only a provider's earlier answer is a reference: the starting table and a hand-typed rate are not.
  if (!stored || isTableRate(stored) || !(stored.rate > 0)) return { accept: true, note: null };
  const age = now - stored.updatedAt;
  const moved = Math.abs(Math.log(rate / stored.rate));
  const limit = Math.log(1 + MAX_RATE_JUMP);
  const change = `${stored.rate} → ${rate} USD per BSV`;
  if (age >= RATE_JUMP_WINDOW_MS)
    return {
      accept: true,
      note: moved > limit ? `accepted a jump of ${change}: the stored rate was ${Math.round(age / 60_000)} minutes old` : null,
    };
  const allowed = limit * Math.max(0, age / RATE_JUMP_WINDOW_MS);
  if (moved > allowed)
    return {
      accept: false,
      reason: `${change} in ${Math.round(Math.max(0, age) / 60_000)} minutes moves faster than ${MAX_RATE_JUMP * 100}% per ${RATE_JUMP_WINDOW_MS / 3600_000} hours`,
    };
  return { accept: true, note: null };
}

/**
 * The rate a policy may measure a currency limit with: the table's row, unless a provider fetched it more
 * than POLICY_RATE_MAX_AGE_MS ago (then null, and the policy fails closed as it does without a rate).
 */
export function rateForPolicy(repo: { get(currency: string): RateRow | null }, currency: string, now: number): RateRow | null {
  const r = repo.get(currency.toUpperCase());
  if (!r || !(r.rate > 0) || !Number.isFinite(r.rate)) return null;
  if (!isTableRate(r) && !(now - r.updatedAt <= POLICY_RATE_MAX_AGE_MS)) return null;
  return r;
}
