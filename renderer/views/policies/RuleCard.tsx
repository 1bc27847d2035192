import { ActionIcon, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { ruleWords } from '../../../shared/policy-words.js';
import { ActionFields } from './ActionFields.js';
import { ruleOfDraft, type RuleDraft } from './draft.js';
import { RuleConditions, type PolicyChoices } from './RuleConditions.js';

/** One rule in the editor: its words as they read now, its conditions and its action, and its place in the list. */
export function RuleCard({
  rule,
  index,
  count,
  onChange,
  onMove,
  onRemove,
  choices,
  payeeName,
}: {
  rule: RuleDraft;
  index: number;
  count: number;
  onChange: (patch: Partial<RuleDraft>) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
  choices: PolicyChoices;
  payeeName: (id: string) => string;
}) {
  const n = index + 1;
  return (
    <Paper withBorder p="sm" data-testid="policy-rule">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Title order={5}>Rule {n}</Title>
          <Group gap={4}>
            <ActionIcon variant="default" aria-label={`Move rule ${n} up`} disabled={index === 0} onClick={() => onMove(-1)}>
              ↑
            </ActionIcon>
            <ActionIcon variant="default" aria-label={`Move rule ${n} down`} disabled={index === count - 1} onClick={() => onMove(1)}>
              ↓
            </ActionIcon>
            <ActionIcon variant="default" color="red" aria-label={`Remove rule ${n}`} onClick={onRemove}>
              ✕
            </ActionIcon>
          </Group>
        </Group>
        <Text fw={600} data-testid="rule-words">
          {ruleWords(ruleOfDraft(rule), payeeName)}
        </Text>
        <TextInput label="Name (optional)" value={rule.name} maxLength={120} onChange={(e) => onChange({ name: e.currentTarget.value })} />
        <RuleConditions rule={rule} onChange={onChange} choices={choices} />
        <ActionFields label={`Rule ${n}: action`} value={rule} onChange={onChange} users={choices.users} />
      </Stack>
    </Paper>
  );
}
