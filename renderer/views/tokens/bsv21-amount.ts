/**
 * BSV-21 amounts are decimal strings of whole smallest units (up to 2^64-1, past a JS number's exact range),
 * so they are shown and read with BigInt: "123450" with 2 decimals ⇄ "1,234.50".
 */
export function formatUnits(units: string, dec: number): string {
  if (!/^\d+$/.test(units)) return units;
  const n = BigInt(units);
  const scale = 10n ** BigInt(dec);
  const whole = (n / scale).toLocaleString('en-US');
  return dec ? `${whole}.${(n % scale).toString().padStart(dec, '0')}` : whole;
}

/** Units of a typed amount ("1,234.5" with 2 decimals → "123450"); null when it is not a positive amount with at most `dec` decimals. */
export function parseUnits(text: string, dec: number): string | null {
  const m = /^(\d+)(?:\.(\d*))?$/.exec(text.trim().replace(/,/g, ''));
  if (!m) return null;
  const fraction = m[2] ?? '';
  if (fraction.length > dec) return null;
  const units = BigInt(m[1]) * 10n ** BigInt(dec) + BigInt(fraction.padEnd(dec, '0') || '0');
  return units > 0n ? units.toString() : null;
}
