import { MAX_USD_PER_BSV, MIN_USD_PER_BSV, plausibleUsdRate } from '../usd-rate-band.js';
/**
 * Strict readers of the provider answers that set money: ARC's fee policy and WhatsOnChain's USD rate. An
 * answer to our own request is as hostile as any other input: a fee rate or an exchange rate taken unchecked
 * decides how many satoshis a payment spends, an invoice asks, or a USD policy limit allows.
 */

/**
 * The highest fee rate Keystead pays: 1 satoshi per byte (1,000 sat/kB). Real BSV miners ask around
 * 0.1–1 sat/kB, so this is hundreds of times any real rate, yet it bounds a lying ARC: without it
 * `{satoshis: 100000, bytes: 1}` made a 10,000-satoshi payment pay a 22,600,000-satoshi fee.
 */
export const MAX_FEE_SATOSHIS_PER_BYTE = 1;

/** The largest `bytes` a fee policy may state its rate per (real policies say 1,000); anything larger is not a policy. */
export const MAX_FEE_POLICY_BYTES = 1_000_000;

/**
 * The highest dust limit Keystead accepts (BSV's is 1 satoshi; 546 was the old limit of the BTC era): a
 * larger one would silently give change to the miners.
 */
export const MAX_DUST_LIMIT = 1_000;

export type Checked<T> = { ok: true; value: T } | { ok: false; reason: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const show = (v: unknown): string => {
  try {
    return (JSON.stringify(v) ?? String(v)).slice(0, 80);
  } catch {
    return typeof v;
  }
};

/** ARC's `/v1/policy` answer, `{policy: {miningFee: {satoshis, bytes}}}`: a positive rate no higher than the ceiling. */
export function readMiningFee(body: unknown): Checked<{ satoshis: number; bytes: number }> {
  const policy = isObject(body) ? body.policy : undefined;
  const fee = isObject(policy) ? policy.miningFee : undefined;
  if (!isObject(fee)) return { ok: false, reason: 'the answer has no policy.miningFee object' };
  const { satoshis, bytes } = fee;
  if (typeof bytes !== 'number' || !Number.isSafeInteger(bytes) || bytes < 1 || bytes > MAX_FEE_POLICY_BYTES)
    return { ok: false, reason: `miningFee.bytes ${show(bytes)} is not a whole number from 1 to ${MAX_FEE_POLICY_BYTES}` };
  // Fractional satoshis are a real way to state a low rate per 1,000 bytes; the fee itself is rounded up.
  if (typeof satoshis !== 'number' || !Number.isFinite(satoshis) || satoshis <= 0)
    return { ok: false, reason: `miningFee.satoshis ${show(satoshis)} is not a positive number` };
  if (satoshis / bytes > MAX_FEE_SATOSHIS_PER_BYTE)
    return {
      ok: false,
      reason: `a mining fee of ${satoshis} satoshis per ${bytes} bytes is above the ceiling of ${MAX_FEE_SATOSHIS_PER_BYTE} satoshi per byte`,
    };
  return { ok: true, value: { satoshis, bytes } };
}

/** A configured dust limit: a whole number of satoshis from 0 to the ceiling. */
export function isDustLimit(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 && v <= MAX_DUST_LIMIT;
}

/**
 * WhatsOnChain's `/exchangerate` answer, `{currency: 'USD', rate, time}`: a USD rate within the plausible band.
 * A missing or unreadable `time` (seconds) is replaced by `nowMs`; it is only ever shown.
 */
export function readUsdRate(body: unknown, nowMs: number): Checked<{ rate: number; time: string }> {
  if (!isObject(body)) return { ok: false, reason: 'the answer is not an object' };
  if (body.currency !== undefined && body.currency !== 'USD')
    return { ok: false, reason: `the answer is in ${show(body.currency)}, not USD` };
  if (!plausibleUsdRate(body.rate))
    return { ok: false, reason: `rate ${show(body.rate)} is not a number from ${MIN_USD_PER_BSV} to ${MAX_USD_PER_BSV} USD per BSV` };
  const seconds = body.time;
  const ms = typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 && seconds * 1000 <= 8.64e15 ? seconds * 1000 : nowMs;
  return { ok: true, value: { rate: body.rate, time: new Date(ms).toISOString() } };
}
