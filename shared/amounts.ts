import { satoshisOfBsvText, satoshisOfText, SATOSHIS_PER_BSV, type AmountProblem } from './satoshis.js';

export { SATOSHIS_PER_BSV } from './satoshis.js';

/** How people type amounts: BSV (up to 8 decimals) or satoshis (whole). */
export type AmountUnit = 'BSV' | 'sat';

export type ParsedAmount = { ok: true; satoshis: number } | { ok: false; error: string };

/**
 * Reads an amount exactly, never rounding: "0.00015" BSV is 15,000 satoshis; "0.000000005" BSV (half a
 * satoshi) and "1.5" sat are errors that say why. Thousands separators (`,`, `_`, spaces), a trailing
 * point and zeros past the last digit that counts are how people type, so they are tidied away here;
 * the reading itself is the shared exact one (satoshis.ts).
 */
export function parseAmount(text: string, unit: AmountUnit): ParsedAmount {
  const t = text.trim().replace(/[,_\s]/g, '');
  if (t === '') return { ok: false, error: 'Enter an amount.' };
  const m = /^(\d+)(?:\.(\d*))?$/.exec(t);
  if (!m)
    return { ok: false, error: `“${text.trim()}” is not an amount: use digits${unit === 'BSV' ? ' and at most one decimal point' : ''}.` };
  const [, whole, frac = ''] = m;
  const significant = frac.replace(/0+$/, '');
  if (unit === 'sat' && significant) return { ok: false, error: `${t} satoshis is not a whole number: a satoshi cannot be split.` };
  const r = unit === 'sat' ? satoshisOfText(whole) : satoshisOfBsvText(significant ? `${whole}.${significant}` : whole);
  return r.ok ? r : { ok: false, error: problemText(r.problem, t, unit) };
}

function problemText(problem: AmountProblem, t: string, unit: AmountUnit): string {
  if (problem === 'fraction')
    return `${t} BSV is not a whole number of satoshis: BSV amounts have at most 8 decimals (0.00000001 BSV is 1 satoshi).`;
  if (problem === 'too-large') return 'That is more than all the BSV there is.';
  return `“${t}” is not an amount${unit === 'BSV' ? ' in BSV' : ''}.`;
}

/** Satoshis as text in a unit, exactly (the inverse of parseAmount): 15000 → "0.00015" BSV or "15000" sat. */
export function amountText(satoshis: number, unit: AmountUnit): string {
  if (unit === 'sat') return String(satoshis);
  const whole = Math.floor(satoshis / SATOSHIS_PER_BSV);
  const frac = String(satoshis % SATOSHIS_PER_BSV)
    .padStart(8, '0')
    .replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
}
