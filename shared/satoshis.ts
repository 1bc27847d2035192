/**
 * The one exact reading of amount text as satoshis, for every path that takes an amount as text (the UI's
 * and CLI's inputs, BIP21 URIs, the API's decimal amounts). Only the digits move: no floating point, no
 * multiplication, so "0.00015" BSV is 15,000 satoshis and never 14,999.
 * The grammar is strict on purpose: plain digits with at most one point, nothing else (no sign, exponent,
 * spaces, separators, hex). Callers that take looser spellings (the UI's "1,000.50") tidy them first.
 */

export const SATOSHIS_PER_BSV = 100_000_000;
/** Digits after the point in a BSV amount: the eighth is one satoshi. */
export const BSV_DECIMALS = 8;
/** Every BSV there will ever be, in satoshis: no amount is larger. */
export const MAX_SATOSHIS = 21_000_000 * SATOSHIS_PER_BSV;

/** Why text is not an amount: not plain decimal digits, finer than a satoshi, or more than all the BSV there is. */
export type AmountProblem = 'format' | 'fraction' | 'too-large';
export type SatoshiReading = { ok: true; satoshis: number } | { ok: false; problem: AmountProblem };

const BSV_TEXT = /^([0-9]+)(?:\.([0-9]+))?$/;
const SATOSHI_TEXT = /^[0-9]+$/;

/** Digits to satoshis, refusing more than all the BSV there is (checked on the digits, before Number could round them). */
function fromDigits(digits: string): SatoshiReading {
  const significant = digits.replace(/^0+(?=[0-9])/, '');
  if (significant.length > String(MAX_SATOSHIS).length) return { ok: false, problem: 'too-large' };
  const satoshis = Number(significant);
  return satoshis <= MAX_SATOSHIS ? { ok: true, satoshis } : { ok: false, problem: 'too-large' };
}

/** BSV as decimal text ("0.00015") to satoshis (15000): at most 8 decimals; "1.000000000" is refused too (9 decimals). */
export function satoshisOfBsvText(text: string): SatoshiReading {
  const m = BSV_TEXT.exec(text);
  if (!m) return { ok: false, problem: 'format' };
  const [, whole, fraction = ''] = m;
  if (fraction.length > BSV_DECIMALS) return { ok: false, problem: 'fraction' };
  return fromDigits(whole + fraction.padEnd(BSV_DECIMALS, '0'));
}

/** Satoshis as text ("15000"): digits only (a satoshi cannot be split, so there is no point). */
export function satoshisOfText(text: string): SatoshiReading {
  return SATOSHI_TEXT.test(text) ? fromDigits(text) : { ok: false, problem: 'format' };
}
