/** How people type amounts: BSV (up to 8 decimals) or satoshis (whole). */
export type AmountUnit = 'BSV' | 'sat';

export const SATOSHIS_PER_BSV = 100_000_000;
/** Every BSV there will ever be, in satoshis: nothing larger is an amount. */
const MAX_SATOSHIS = 21_000_000 * SATOSHIS_PER_BSV;

export type ParsedAmount = { ok: true; satoshis: number } | { ok: false; error: string };

/**
 * Reads an amount exactly, never rounding: "0.00015" BSV is 15,000 satoshis; "0.000000005" BSV (half a
 * satoshi) and "1.5" sat are errors that say why. Thousands separators (`,`, `_`, spaces) are allowed.
 */
export function parseAmount(text: string, unit: AmountUnit): ParsedAmount {
  const t = text.trim().replace(/[,_\s]/g, '');
  if (t === '') return { ok: false, error: 'Enter an amount.' };
  const m = /^(\d+)(?:\.(\d*))?$/.exec(t);
  if (!m) return { ok: false, error: `“${text.trim()}” is not an amount: use digits${unit === 'BSV' ? ' and at most one decimal point' : ''}.` };
  const [, whole, frac = ''] = m;
  let satoshis: number;
  if (unit === 'sat') {
    if (/[1-9]/.test(frac)) return { ok: false, error: `${t} satoshis is not a whole number: a satoshi cannot be split.` };
    satoshis = Number(whole);
  } else {
    if (/[1-9]/.test(frac.slice(8))) {
      return { ok: false, error: `${t} BSV is not a whole number of satoshis: BSV amounts have at most 8 decimals (0.00000001 BSV is 1 satoshi).` };
    }
    satoshis = Number(whole) * SATOSHIS_PER_BSV + Number(frac.slice(0, 8).padEnd(8, '0'));
  }
  if (!Number.isSafeInteger(satoshis) || satoshis > MAX_SATOSHIS) return { ok: false, error: 'That is more than all the BSV there is.' };
  return { ok: true, satoshis };
}

/** Satoshis as text in a unit, exactly (the inverse of parseAmount): 15000 → "0.00015" BSV or "15000" sat. */
export function amountText(satoshis: number, unit: AmountUnit): string {
  if (unit === 'sat') return String(satoshis);
  const whole = Math.floor(satoshis / SATOSHIS_PER_BSV);
  const frac = String(satoshis % SATOSHIS_PER_BSV).padStart(8, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
}
