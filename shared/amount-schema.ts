import { z } from 'zod';
import { MAX_SATOSHIS, satoshisOfBsvText } from './satoshis.js';

/**
 * The one way an amount enters Keystead (satoshis, token counts, BSV decimals, serials, supplies): a JSON
 * number, or, where strings are allowed (headers and query strings are text; the public service's
 * clients send body numbers as text too), a numeric string in plain notation. Nothing is coerced: `true`
 * is not 1, `[7]` is not 7, `"1e2"`, `"0x10"`, `" 7 "`, `""`, NaN and Infinity are not numbers, so a
 * value that is not plainly an amount is refused (VALIDATION_FAILED) rather than read as some other one.
 */

export { MAX_SATOSHIS } from './satoshis.js';
/** The most tokens one issue may create. */
export const MAX_TOKEN_SUPPLY = 1_000_000_000_000;

const DIGITS = /^[0-9]{1,16}$/;
const DECIMAL = /^[0-9]{1,16}(\.[0-9]{1,20})?$/;

export interface WholeOptions {
  /** Smallest value allowed (default 0). */
  min?: number;
  /** Largest value allowed (default: all the satoshis there are). */
  max?: number;
  /** Whether digits-only text is taken too (default true). */
  strings?: boolean;
  /** What the number counts, for the message: " of satoshis", " of tokens". */
  unit?: string;
  /** The message when it is below min. */
  minMessage?: string;
}

/** A whole number: a JSON number that is a safe integer, or (with `strings`) digits only. */
export function wholeNumber({ min = 0, max = MAX_SATOSHIS, strings = true, unit = '', minMessage }: WholeOptions = {}) {
  return z.preprocess(
    (v) => (strings && typeof v === 'string' && DIGITS.test(v) ? Number(v) : v),
    z
      .number({ error: strings ? 'must be a number (digits only)' : 'must be a number' })
      .int({ error: `must be a whole number${unit}` })
      .min(min, { error: minMessage ?? (min === 1 ? 'must be positive' : `must be at least ${min}`) })
      .max(max, { error: 'is too large' }),
  );
}

/** Satoshis: a whole number from `min` (0 by default) to all the satoshis there are. */
export const satoshisSchema = (opts: Omit<WholeOptions, 'unit'> = {}) =>
  wholeNumber({ ...opts, unit: ' of satoshis', max: opts.max ?? MAX_SATOSHIS });

/** A positive whole number of tokens. */
export const tokenCountSchema = (opts: Omit<WholeOptions, 'unit'> = {}) =>
  wholeNumber({ min: 1, ...opts, unit: ' of tokens', max: opts.max ?? MAX_TOKEN_SUPPLY });

/**
 * A number as plain decimal text, exactly as JavaScript writes it back (the shortest text that reads as
 * the same number, which is what a JSON sender wrote), with exponents spelled out: 1e-7 → "0.0000001".
 * No arithmetic: only the digits move.
 */
export function plainDecimal(n: number): string {
  const s = String(n);
  const m = /^(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const digits = m[1] + (m[2] ?? '');
  const point = m[1].length + Number(m[3]);
  if (point <= 0) return `0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return digits + '0'.repeat(point - digits.length);
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** "007.50" → "7.5": one spelling per value, so "1.0" and 1 are the same amount. */
function canonical(text: string): string {
  const [whole, frac = ''] = text.split('.');
  const w = whole.replace(/^0+(?=\d)/, '');
  const f = frac.replace(/0+$/, '');
  return f ? `${w}.${f}` : w;
}

/**
 * A positive decimal amount (BSV, or a whole number of tokens where the item says so), kept as its exact
 * decimal text: a finite JSON number (written back as plain text) or a plain decimal string. Converting
 * the text to satoshis is then exact (`satoshisOfBsv`), never through floating point.
 */
export const decimalAmount = z
  .union([z.number({ error: 'must be a number' }), z.string({ error: 'must be a number' })], {
    error: 'must be a number, or a decimal number as text',
  })
  .transform((v, ctx) => {
    if (typeof v === 'number' && Number.isFinite(v) && v <= 0) {
      ctx.addIssue({ code: 'custom', message: 'must be positive' });
      return z.NEVER;
    }
    const text = typeof v === 'number' ? (Number.isFinite(v) ? plainDecimal(v) : '') : v;
    if (!DECIMAL.test(text)) {
      ctx.addIssue({
        code: 'custom',
        message: 'must be a plain decimal number (digits and at most one point: no sign, exponent, spaces or hex)',
      });
      return z.NEVER;
    }
    const c = canonical(text);
    if (!/[1-9]/.test(c)) {
      ctx.addIssue({ code: 'custom', message: 'must be positive' });
      return z.NEVER;
    }
    return c;
  });

/**
 * Exact satoshis of a `decimalAmount` in BSV ("0.00015" → 15000), by the one shared reading (satoshis.ts);
 * null when it is not a whole number of satoshis or too large.
 */
export function satoshisOfBsv(text: string): number | null {
  const r = satoshisOfBsvText(text);
  return r.ok ? r.satoshis : null;
}

/** A whole number from decimal text ("12" → 12); null when it has a fraction or is not safe. */
export function wholeOfDecimal(text: string): number | null {
  if (!/^[0-9]+$/.test(text)) return null;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : null;
}

/**
 * A positive finite decimal number (an exchange rate), as a JSON number or plain decimal text: read as a
 * number, since a rate is a price, not an amount of coins.
 */
export const positiveDecimalNumber = z.preprocess(
  (v) => (typeof v === 'string' && DECIMAL.test(v) ? Number(v) : v),
  z.number({ error: 'must be a number' }).positive({ error: 'must be positive' }),
);
