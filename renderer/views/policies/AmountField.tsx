import { Group, Select, TextInput } from '@mantine/core';
import { amountProblem, type AmountDraft, type AmountUnit } from './draft.js';

const UNITS: { value: AmountUnit; label: string }[] = [
  { value: 'bsv', label: 'BSV' },
  { value: 'tokens', label: 'tokens' },
  { value: 'count', label: 'NFTs (count)' },
  { value: 'value', label: 'value in a currency' },
];

/** An amount a rule compares with, in its asset's unit: BSV, token units, NFTs by count, or a currency value of BSV. */
export function AmountField({ label, value, onChange }: { label: string; value: AmountDraft; onChange: (v: AmountDraft) => void }) {
  return (
    <Group gap="xs" align="flex-start" wrap="nowrap">
      <TextInput
        style={{ flex: 1 }}
        label={label}
        value={value.text}
        onChange={(e) => onChange({ ...value, text: e.currentTarget.value })}
        error={amountProblem(value)}
        inputMode="decimal"
      />
      <Select
        w={170}
        label={`${label}: unit`}
        data={UNITS}
        value={value.unit}
        allowDeselect={false}
        onChange={(u) => u && onChange({ ...value, unit: u as AmountUnit })}
      />
      {value.unit === 'value' && (
        <TextInput
          w={90}
          label="Currency"
          maxLength={3}
          value={value.currency}
          onChange={(e) => onChange({ ...value, currency: e.currentTarget.value.toUpperCase() })}
        />
      )}
    </Group>
  );
}
