import { Checkbox, Group, MultiSelect, Select, Stack, TagsInput } from '@mantine/core';
import type { Role } from '../../../shared/roles.js';
import { ROLE_OPTIONS } from './ActionFields.js';
import { AmountField } from './AmountField.js';
import { emptyAmount, type DestinationKind, type RuleDraft } from './draft.js';
import type { Person } from './draft-problems.js';

/** What the editor offers to pick from; values already in a rule stay selectable even when not listed. */
export interface PolicyChoices {
  wallets: { value: string; label: string }[];
  users: string[];
  payees: { value: string; label: string }[];
  /** Everyone with their role (to count who could approve); null until known. */
  people: Person[] | null;
}

const withValues = (data: { value: string; label: string }[], values: string[]) => [
  ...data,
  ...values.filter((v) => !data.some((d) => d.value === v)).map((v) => ({ value: v, label: v })),
];

const DESTINATIONS: { value: DestinationKind; label: string }[] = [
  { value: 'any', label: 'Any destination' },
  { value: 'inBook', label: 'Only payees in the book' },
  { value: 'notInBook', label: 'A destination not in the book (or cooling off)' },
  { value: 'payees', label: 'Only these payees' },
  { value: 'paymailDomains', label: 'A paymail at these domains' },
];

/** A rule's conditions: every one set must hold; inside a list, any entry matches. */
export function RuleConditions({
  rule,
  onChange,
  choices,
}: {
  rule: RuleDraft;
  onChange: (patch: Partial<RuleDraft>) => void;
  choices: PolicyChoices;
}) {
  return (
    <Stack gap="xs">
      <Group grow align="flex-start">
        <MultiSelect
          label="Who pays: roles"
          placeholder="Anyone"
          data={ROLE_OPTIONS}
          value={rule.initiatorRoles}
          onChange={(r) => onChange({ initiatorRoles: r as Role[] })}
        />
        <TagsInput
          label="Who pays: users"
          placeholder="E-mail or uid"
          data={choices.users}
          value={rule.initiatorUsers}
          onChange={(u) => onChange({ initiatorUsers: u })}
        />
        <TagsInput
          label="Who pays: API keys"
          placeholder="Key id"
          value={rule.initiatorApiKeys}
          onChange={(k) => onChange({ initiatorApiKeys: k })}
        />
      </Group>
      <Group grow align="flex-start">
        <MultiSelect
          label="From wallets"
          placeholder="Any wallet"
          data={withValues(choices.wallets, rule.wallets)}
          value={rule.wallets}
          onChange={(w) => onChange({ wallets: w })}
        />
        <MultiSelect
          label="Assets"
          placeholder="Any asset"
          data={[
            { value: 'bsv', label: 'BSV' },
            { value: 'tokens', label: 'Tokens' },
            { value: 'nfts', label: 'NFTs' },
          ]}
          value={rule.assets}
          onChange={(a) => onChange({ assets: a as RuleDraft['assets'] })}
        />
        <TagsInput label="Token ids" placeholder="Any token" value={rule.tokenIds} onChange={(t) => onChange({ tokenIds: t })} />
      </Group>
      <Checkbox
        label="Amount over"
        checked={rule.amountOver !== null}
        onChange={(e) => onChange({ amountOver: e.currentTarget.checked ? emptyAmount() : null })}
      />
      {rule.amountOver && <AmountField label="Over" value={rule.amountOver} onChange={(a) => onChange({ amountOver: a })} />}
      <Group grow align="flex-start">
        <Select
          label="Destination"
          data={DESTINATIONS}
          value={rule.destination}
          allowDeselect={false}
          onChange={(d) => d && onChange({ destination: d as DestinationKind })}
        />
        {rule.destination === 'payees' && (
          <MultiSelect
            label="Payees"
            data={withValues(choices.payees, rule.payees)}
            value={rule.payees}
            onChange={(p) => onChange({ payees: p })}
          />
        )}
        {rule.destination === 'paymailDomains' && (
          <TagsInput label="Paymail domains" placeholder="example.com" value={rule.domains} onChange={(d) => onChange({ domains: d })} />
        )}
      </Group>
      <Checkbox
        label="Total in a time window (payments awaiting approval included)"
        checked={rule.window !== null}
        onChange={(e) => onChange({ window: e.currentTarget.checked ? { per: 'initiator', period: '24h', over: emptyAmount() } : null })}
      />
      {rule.window && (
        <Group grow align="flex-start">
          <Select
            label="Window per"
            data={[
              { value: 'initiator', label: 'Who pays' },
              { value: 'wallet', label: 'Wallet' },
            ]}
            value={rule.window.per}
            allowDeselect={false}
            onChange={(per) => per && onChange({ window: { ...rule.window!, per: per as 'initiator' | 'wallet' } })}
          />
          <Select
            label="Window period"
            data={[
              { value: '24h', label: '24 hours' },
              { value: '7d', label: '7 days' },
              { value: '30d', label: '30 days' },
            ]}
            value={rule.window.period}
            allowDeselect={false}
            onChange={(p) => p && onChange({ window: { ...rule.window!, period: p as '24h' | '7d' | '30d' } })}
          />
          <AmountField
            label="Window total over"
            value={rule.window.over}
            onChange={(over) => onChange({ window: { ...rule.window!, over } })}
          />
        </Group>
      )}
    </Stack>
  );
}
