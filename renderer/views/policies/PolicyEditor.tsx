import { Alert, Button, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import { OPERATIONS as OPS } from '../../../shared/operations.js';
import { defaultWords } from '../../../shared/policy-words.js';
import { notifySuccess } from '../../components/notify.js';
import { useSubmit } from '../../components/useSubmit.js';
import { useSession } from '../../state/store.js';
import { ActionFields } from './ActionFields.js';
import { actionOfDraft, documentOfDraft, emptyRule, type PolicyDraft, type RuleDraft } from './draft.js';
import { draftProblems } from './draft-problems.js';
import { RuleCard } from './RuleCard.js';
import type { PolicyChoices } from './RuleConditions.js';
import { LocalCheck } from '../../components/errors.js';

/**
 * The rules in order (the first that matches decides) and the default, edited as a draft and saved as a
 * new version: in force at once with one admin, else once another admin approves it.
 */
export function PolicyEditor({
  initial,
  choices,
  payeeName,
  fourEyes,
  onSaved,
}: {
  initial: PolicyDraft;
  choices: PolicyChoices;
  payeeName: (id: string) => string;
  fourEyes: boolean;
  onSaved: () => void;
}) {
  const call = useSession((s) => s.call);
  const [draft, setDraft] = useState(initial);
  const [note, setNote] = useState('');
  const setRules = (rules: RuleDraft[]) => setDraft((d) => ({ ...d, rules }));
  const patchRule = (i: number, patch: Partial<RuleDraft>) => setRules(draft.rules.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const move = (i: number, by: -1 | 1) => {
    const rules = [...draft.rules];
    [rules[i], rules[i + by]] = [rules[i + by], rules[i]];
    setRules(rules);
  };
  const save = useSubmit(async () => {
    const problems = draftProblems(draft, choices.people);
    if (problems.length) throw new LocalCheck(problems.join(' '));
    const r = await call(OPS.proposePolicy, { document: documentOfDraft(draft), note: note.trim() || undefined });
    setNote('');
    notifySuccess(r.proposed ? `Version ${r.proposed.version} waits for another admin's approval.` : 'The new policy is in force.');
    onSaved();
  });

  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={4}>Edit the policy</Title>
        <Text size="sm" c="dimmed">
          Rules are checked in order and the first that matches decides. A rule matches when all its conditions hold; inside a list, any
          entry is enough.
        </Text>
        {draft.rules.map((rule, i) => (
          <RuleCard
            key={rule.key}
            rule={rule}
            index={i}
            count={draft.rules.length}
            onChange={(p) => patchRule(i, p)}
            onMove={(by) => move(i, by)}
            onRemove={() => setRules(draft.rules.filter((_, j) => j !== i))}
            choices={choices}
            payeeName={payeeName}
          />
        ))}
        <Group>
          <Button variant="default" onClick={() => setRules([...draft.rules, emptyRule()])}>
            Add rule
          </Button>
        </Group>
        <Paper withBorder p="sm" data-testid="policy-default">
          <Stack gap="xs">
            <Title order={5}>When no rule matches (the default)</Title>
            <Text fw={600} data-testid="default-words">
              {defaultWords(actionOfDraft(draft.default))}
            </Text>
            <ActionFields
              label="Default action"
              value={draft.default}
              onChange={(p) => setDraft((d) => ({ ...d, default: { ...d.default, ...p } }))}
              users={choices.users}
            />
          </Stack>
        </Paper>
        <Textarea label="Note (optional)" value={note} maxLength={500} onChange={(e) => setNote(e.currentTarget.value)} autosize />
        {save.error && (
          <Alert color="red" role="alert" data-testid="policy-error">
            {save.error}
          </Alert>
        )}
        <Group>
          <Button onClick={() => void save.run()} loading={save.busy}>
            {fourEyes ? 'Propose this policy' : 'Save policy'}
          </Button>
          <Button variant="subtle" onClick={() => setDraft(initial)}>
            Discard changes
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
