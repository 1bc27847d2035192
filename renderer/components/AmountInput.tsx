import { Group, SegmentedControl, TextInput } from '@mantine/core';
import { amountText, parseAmount, type AmountUnit } from '../../shared/amounts.js';
import { usePrefs } from '../state/store.js';
import { useFiat } from './Amount.js';

export interface AmountField {
  text: string;
  unit: AmountUnit;
}

/** What an amount field holds: satoshis, nothing (empty), or why the text is not an amount. */
export function amountOf(field: AmountField): { satoshis: number | null; error: string | null } {
  if (field.text.trim() === '') return { satoshis: null, error: null };
  const r = parseAmount(field.text, field.unit);
  return r.ok ? { satoshis: r.satoshis, error: null } : { satoshis: null, error: r.error };
}

export const emptyAmount = (unit: AmountUnit): AmountField => ({ text: '', unit });

/**
 * An amount typed in BSV or satoshis (a switch beside the field; switching converts what is typed, exactly).
 * The value is never rounded: half a satoshi is an error shown under the field.
 */
export function AmountInput({
  label,
  description,
  value,
  onChange,
  required,
  error: apiError,
}: {
  label: string;
  description?: string;
  value: AmountField;
  onChange: (v: AmountField) => void;
  required?: boolean;
  /** What the API said of the amount (e.g. none given, or one that differs from the URI's); the field's own check wins. */
  error?: string;
}) {
  const setInputUnit = usePrefs((s) => s.setInputUnit);
  const { satoshis, error } = amountOf(value);
  const fiat = useFiat(satoshis ?? 0);
  const switchUnit = (unit: AmountUnit) => {
    setInputUnit(unit);
    onChange({ unit, text: satoshis === null ? value.text : amountText(satoshis, unit) });
  };
  return (
    <Group gap={6} align="flex-start" wrap="nowrap">
      <TextInput
        style={{ flex: 1 }}
        label={`${label} (${value.unit === 'BSV' ? 'BSV' : 'satoshis'})`}
        description={
          description ?? (satoshis !== null ? `${satoshis.toLocaleString('en-US')} satoshis${fiat ? ` · ${fiat}` : ''}` : undefined)
        }
        value={value.text}
        onChange={(e) => onChange({ ...value, text: e.currentTarget.value })}
        error={error ?? apiError}
        inputMode="decimal"
        required={required}
      />
      <SegmentedControl
        mt={description || satoshis !== null ? 44 : 25}
        size="xs"
        data={['BSV', 'sat']}
        value={value.unit}
        onChange={(v) => switchUnit(v as AmountUnit)}
        aria-label={`Unit of the ${label.toLowerCase()}`}
      />
    </Group>
  );
}
