import { Group, MultiSelect, NumberInput, SegmentedControl, Stack, TagsInput, TextInput } from '@mantine/core';
import { ROLE_LABELS, ROLES, type Role } from '../../../shared/roles.js';
import type { ActionDraft, ActionKind } from './draft.js';

export const ROLE_OPTIONS = ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }));

/** What a rule (or the default) does: allow, deny with a reason shown to the initiator, or ask for N approvals. */
export function ActionFields({
  value,
  onChange,
  users,
  label,
}: {
  value: ActionDraft;
  onChange: (patch: Partial<ActionDraft>) => void;
  /** E-mails to suggest as approvers. */
  users: string[];
  label: string;
}) {
  return (
    <Stack gap="xs">
      <SegmentedControl
        aria-label={label}
        value={value.action}
        onChange={(a) => onChange({ action: a as ActionKind })}
        data={[
          { value: 'allow', label: 'Allow' },
          { value: 'deny', label: 'Deny' },
          { value: 'approve', label: 'Need approvals' },
        ]}
      />
      {value.action === 'deny' && (
        <TextInput
          label="Reason shown to who pays"
          value={value.reason}
          onChange={(e) => onChange({ reason: e.currentTarget.value })}
          maxLength={300}
          required
        />
      )}
      {value.action === 'approve' && (
        <Group grow align="flex-start">
          <NumberInput
            label="Approvals needed"
            min={1}
            max={10}
            value={value.count}
            onChange={(n) => onChange({ count: typeof n === 'number' ? n : 1 })}
            allowDecimal={false}
            hideControls
          />
          <MultiSelect label="Approver roles" data={ROLE_OPTIONS} value={value.roles} onChange={(r) => onChange({ roles: r as Role[] })} />
          <TagsInput
            label="Approver users"
            description="E-mail or uid"
            data={users}
            value={value.users}
            onChange={(u) => onChange({ users: u })}
          />
        </Group>
      )}
    </Stack>
  );
}
