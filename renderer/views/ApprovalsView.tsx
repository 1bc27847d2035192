import { Alert, Badge, Group, Loader, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { OPERATIONS as OPS } from '../../shared/operations.js';
import { formatTime } from '../components/format.js';
import { useLiveReload } from '../components/useLive.js';
import { useLoad } from '../components/useLoad.js';
import { useSession } from '../state/store.js';
import { ApprovalActions } from './policies/ApprovalActions.js';
import { ApprovalReview } from './policies/ApprovalReview.js';
import { ApprovalSettings } from './policies/ApprovalSettings.js';
import { reviewAmount, STATE_COLOR, STATE_LABEL, type Approval, type NamedDestination } from './policies/approval-words.js';

/**
 * An app's action (BRC-100): approving it sends nothing; it allows the app's same action once (engine/apps/actions/scope.ts),
 * so an approved one waits for the app, not for its initiator's wallet password.
 */
function AppActionNote({ a }: { a: Approval }) {
  if (a.state === 'approved')
    return (
      <Alert color="blue" data-testid="approval-app-ready">
        Approved: the app may now send exactly this action once, within 24 hours of the approval. Nothing is sent until it asks again.
      </Alert>
    );
  if (a.state === 'sent') return <Text size="sm">The app sent the approved action{a.txid ? ` (${a.txid})` : ''}.</Text>;
  return (
    <Text size="sm" c="dimmed" data-testid="approval-app-note">
      Asked for by an app. Approving it sends nothing: it lets the app send exactly this action once, within 24 hours.
    </Text>
  );
}

function ApprovalCard({
  a,
  myUid,
  twoStep,
  payees,
  onDone,
}: {
  a: Approval;
  myUid: string;
  twoStep: boolean;
  payees: readonly NamedDestination[];
  onDone: () => void;
}) {
  const appAction = a.review.operation.startsWith('brc100.');
  return (
    <Paper withBorder p="md" data-testid="approval-card" data-approval-id={a.approvalId}>
      <Stack gap="xs">
        <Group justify="space-between">
          <Group gap="xs">
            <Text fw={700}>{reviewAmount(a.review)}</Text>
            <Text c="dimmed" data-testid="approval-wallet">
              from wallet “{a.review.walletTitle}”
            </Text>
          </Group>
          <Badge color={STATE_COLOR[a.state]} variant="light" data-testid="approval-state">
            {STATE_LABEL[a.state]}
          </Badge>
        </Group>
        <Text size="xs" c="dimmed" ff="monospace">
          {a.approvalId} · asked {formatTime(a.createdAt)}
        </Text>
        <ApprovalReview a={a} />
        {appAction && <AppActionNote a={a} />}
        {!(appAction && a.state === 'approved') && (
          <ApprovalActions a={a} myUid={myUid} twoStep={twoStep} payees={payees} onDone={onDone} />
        )}
      </Stack>
    </Paper>
  );
}

/** Payments awaiting approval (or all of them): each with its review, and the votes, cancel or send the caller may give. */
export function ApprovalsView() {
  const call = useSession((s) => s.call);
  const me = useSession((s) => s.me)!;
  const [state, setState] = useState<'awaiting_approval' | 'all'>('awaiting_approval');
  const list = useLoad(() => call(OPS.listApprovals, { state }), [state]);
  const twoStep = useLoad(async () => (await call(OPS.twoStepStatus, {})).enabled, []);
  // The payee book names who a payment goes to in the approval's confirmation (when it cannot be read: the destination alone).
  const payees = useLoad(async () => (await call(OPS.listPayees, {})).payees, []);
  useLiveReload(['approvals'], () => void list.reload());
  const reload = () => void list.reload();

  return (
    <Stack maw={900}>
      <Title order={2}>Approvals</Title>
      <Group justify="space-between">
        <SegmentedControl
          aria-label="Which payments"
          value={state}
          onChange={(s) => setState(s as typeof state)}
          data={[
            { value: 'awaiting_approval', label: 'Awaiting approval' },
            { value: 'all', label: 'All' },
          ]}
        />
        {list.data && (
          <Text size="sm" data-testid="awaiting-my-vote">
            {list.data.awaitingMyVote} awaiting your vote
          </Text>
        )}
      </Group>
      {me.role === 'admin' && <ApprovalSettings />}
      {list.error && (
        <Alert color="red" role="alert">
          {list.error}
        </Alert>
      )}
      {!list.data && list.loading && <Loader size="sm" />}
      {list.data && !list.data.approvals.length && (
        <Text c="dimmed">{state === 'all' ? 'No payments have needed approval.' : 'No payments are awaiting approval.'}</Text>
      )}
      {list.data?.approvals.map((a) => (
        <ApprovalCard key={a.approvalId} a={a} myUid={me.uid} twoStep={twoStep.data === true} payees={payees.data ?? []} onDone={reload} />
      ))}
    </Stack>
  );
}
