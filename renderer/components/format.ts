/** Satoshis as BSV with up to 8 decimals, trailing zeros trimmed: 77000 → "0.00077". */
export function formatBsv(satoshis: number): string {
  const sign = satoshis < 0 ? '-' : '';
  const abs = Math.abs(satoshis);
  const whole = Math.floor(abs / 1e8);
  const frac = String(abs % 1e8)
    .padStart(8, '0')
    .replace(/0+$/, '');
  return `${sign}${whole.toLocaleString('en-US')}${frac ? `.${frac}` : ''}`;
}

export const formatSats = (satoshis: number) => `${satoshis.toLocaleString('en-US')} sat`;

export const formatTime = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

/** Satoshis in money at a rate (price of 1 BSV): "$0.0060"; never rounded to nothing. */
export function formatFiat(satoshis: number, rate: { currency: string; rate: number }): string {
  const value = (satoshis / 1e8) * rate.rate;
  const digits = Math.abs(value) >= 1 ? 2 : 4;
  const text = new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: rate.currency,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(value);
  return text;
}
