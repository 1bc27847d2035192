import { Alert, Badge, Button, Group, List, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import type { OutputOf } from '../../../shared/operation.js';
import { OPERATIONS as OPS } from '../../../shared/operations.js';
import { formatTime } from '../../components/format.js';
import { notifySuccess } from '../../components/notify.js';
import { useSubmit } from '../../components/useSubmit.js';
import { useSession } from '../../state/store.js';

type PolicyOutput = OutputOf<typeof OPS.getPolicy>;
type Version = NonNullable<PolicyOutput['active']>;

const STATE_COLOR: Record<Version['state'], string> = { active: 'teal', proposed: 'yellow', rejected: 'red', superseded: 'gray' };

export function PolicyWordsList({ words, testId }: { words: string[]; testId: string }) {
  return (
    <List spacing={4} type="ordered" data-testid={testId}>
      {words.map((w, i) => (
        <List.Item key={i}>{w}</List.Item>
      ))}
    </List>
  );
}

/** The version in force, in words (none written: everything the roles allow is allowed). */
export function ActivePolicy({ active }: { active: Version | null }) {
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={4}>In force{active ? ` — version ${active.version}` : ''}</Title>
        {active ? (
          <>
            <PolicyWordsList words={active.words} testId="policy-in-force" />
            <Text size="xs" c="dimmed">
              Proposed by {active.proposedBy} {formatTime(active.proposedAt)}
              {active.decidedBy ? `; approved by ${active.decidedBy} ${formatTime(active.decidedAt)}` : ''}
            </Text>
          </>
        ) : (
          <Text data-testid="policy-in-force">No policy written yet: every payment the roles allow is allowed.</Text>
        )}
      </Stack>
    </Paper>
  );
}

/** A change awaiting another admin (four-eyes): its proposer waits, another admin approves or rejects it. */
export function ProposedPolicy({
  proposed,
  myEmail,
  isAdmin,
  onDecided,
}: {
  proposed: Version;
  myEmail: string;
  isAdmin: boolean;
  onDecided: () => void;
}) {
  const call = useSession((s) => s.call);
  const [note, setNote] = useState('');
  const mine = proposed.proposedBy.toLowerCase() === myEmail.toLowerCase();
  const decide = async (decision: 'approve' | 'reject') => {
    await call(OPS.decidePolicy, { version: proposed.version, decision, note: note.trim() || undefined });
    notifySuccess(decision === 'approve' ? `Version ${proposed.version} is in force.` : `Version ${proposed.version} was rejected.`);
    onDecided();
  };
  const approve = useSubmit(() => decide('approve'));
  const reject = useSubmit(() => decide('reject'));
  return (
    <Paper withBorder p="md" data-testid="policy-proposed">
      <Stack gap="xs">
        <Title order={4}>Proposed — version {proposed.version}</Title>
        <Text size="sm">
          Proposed by {proposed.proposedBy} {formatTime(proposed.proposedAt)}
          {proposed.note ? ` — “${proposed.note}”` : ''}
        </Text>
        <PolicyWordsList words={proposed.words} testId="policy-proposed-words" />
        {mine ? (
          <Alert color="yellow">
            Waiting for another admin to approve it (four-eyes: an admin decides once they have been an admin for 24 hours).
          </Alert>
        ) : isAdmin ? (
          <>
            <TextInput label="Note (optional)" value={note} maxLength={500} onChange={(e) => setNote(e.currentTarget.value)} />
            {(approve.error || reject.error) && (
              <Alert color="red" role="alert">
                {approve.error ?? reject.error}
              </Alert>
            )}
            <Group>
              <Button color="teal" onClick={() => void approve.run()} loading={approve.busy}>
                Approve version {proposed.version}
              </Button>
              <Button color="red" variant="light" onClick={() => void reject.run()} loading={reject.busy}>
                Reject
              </Button>
            </Group>
          </>
        ) : (
          <Text size="sm" c="dimmed">
            Waiting for an admin's approval.
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

/** Every version, newest first, kept and shown. */
export function PolicyHistory({ versions }: { versions: Version[] }) {
  const [open, setOpen] = useState<number | null>(null);
  if (!versions.length) return null;
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={4}>Versions</Title>
        <Table data-testid="policy-versions">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Version</Table.Th>
              <Table.Th>State</Table.Th>
              <Table.Th>Proposed</Table.Th>
              <Table.Th>Decided</Table.Th>
              <Table.Th>Note</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {versions.map((v) => (
              <Table.Tr key={v.version}>
                <Table.Td>{v.version}</Table.Td>
                <Table.Td>
                  <Badge color={STATE_COLOR[v.state]} variant="light">
                    {v.state}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  {v.proposedBy}
                  <Text size="xs" c="dimmed">
                    {formatTime(v.proposedAt)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {v.decidedBy ?? '—'}
                  <Text size="xs" c="dimmed">
                    {v.decidedAt ? formatTime(v.decidedAt) : ''}
                  </Text>
                </Table.Td>
                <Table.Td>{v.note ?? ''}</Table.Td>
                <Table.Td>
                  <Button size="compact-xs" variant="subtle" onClick={() => setOpen(open === v.version ? null : v.version)}>
                    {open === v.version ? 'Hide rules' : 'Show rules'}
                  </Button>
                  {open === v.version && <PolicyWordsList words={v.words} testId={`policy-version-${v.version}`} />}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Paper>
  );
}
