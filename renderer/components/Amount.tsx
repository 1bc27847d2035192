import { Text } from '@mantine/core';
import { usePrefs } from '../state/store.js';
import { formatBsv, formatFiat, formatSats } from './format.js';

/** The amount in the user's currency, or null when the rate table has no rate for it. */
export function useFiat(satoshis: number): string | null {
  const currency = usePrefs((s) => s.currency);
  const rate = usePrefs((s) => s.rates[s.currency]);
  return rate === undefined ? null : formatFiat(satoshis, { currency, rate });
}

/**
 * An amount, one rule everywhere: BSV first, satoshis and the user's currency beside it (and the exact
 * satoshis on hover). `signed` shows a + for incoming amounts.
 */
export function Amount({
  satoshis,
  signed = false,
  testId,
  inline = false,
}: {
  satoshis: number;
  signed?: boolean;
  testId?: string;
  inline?: boolean;
}) {
  const fiat = useFiat(satoshis);
  const bsv = `${signed && satoshis > 0 ? '+' : ''}${formatBsv(satoshis)} BSV`;
  const beside = [formatSats(satoshis), fiat].filter(Boolean).join(' · ');
  return (
    <span title={`${satoshis.toLocaleString('en-US')} satoshis`} style={{ whiteSpace: 'nowrap' }}>
      <Text span fw={500} data-testid={testId}>
        {bsv}
      </Text>
      {inline ? ' ' : <br />}
      <Text span size="xs" c="dimmed">
        {beside}
      </Text>
    </span>
  );
}
