import { Alert, Anchor, Badge, Stack, Table, Text, Title } from '@mantine/core';
import { OPERATIONS as OPS } from '../../../shared/operations.js';
import { formatTime } from '../../components/format.js';
import { HIDE_NARROW, ScrollTable, WhenNarrow } from '../../components/ScrollTable.js';
import { useLiveReload } from '../../components/useLive.js';
import { useLoad } from '../../components/useLoad.js';
import { useSession } from '../../state/store.js';
import { reviewAmount, STATE_COLOR, STATE_LABEL, type Approval } from '../policies/approval-words.js';

/** Requests that moved nothing (yet): a sent one is a transaction in the table below, so it is not repeated here. */
const SHOWN: ReadonlySet<Approval['state']> = new Set([
  'awaiting_approval',
  'approved',
  'sending',
  'rejected',
  'expired',
  'cancelled',
  'failed',
]);

/** Where the reviewed payment goes: the paymail or URI paid, else its outputs' addresses. */
function destinationOf(review: Approval['review']): string {
  if (review.counterparty) return review.counterparty;
  const [first, ...more] = review.outputs.map((o) => o.address ?? 'a script output');
  return `${first ?? '—'}${more.length ? ` and ${more.length} more` : ''}`;
}

/**
 * A wallet's payments that the payment policy sent for approval and that have not become transactions: awaiting
 * approval, approved (waiting for the wallet's password), or ended without moving anything. Refreshed on the
 * `approvals` live topic; the votes themselves are in the Approvals view.
 */
export function PaymentRequests({ walletId }: { walletId: string | null }) {
  const call = useSession((s) => s.call);
  const list = useLoad(() => call(OPS.listApprovals, { state: 'all' }), []);
  useLiveReload(['approvals'], () => void list.reload());
  if (list.error)
    return (
      <Alert color="red" title="Payments awaiting approval could not be loaded">
        {list.error}
      </Alert>
    );
  const shown = (list.data?.approvals ?? []).filter((a) => a.review.walletID === walletId && SHOWN.has(a.state));
  if (!walletId || !shown.length) return null;
  return (
    <Stack gap="xs" data-testid="history-approvals">
      <Title order={4}>Payments that needed approval</Title>
      <ScrollTable fit aria-label="Payments that needed approval">
        <Table.Thead>
          <Table.Tr>
            <Table.Th className={HIDE_NARROW}>Asked</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th ta="right">Amount</Table.Th>
            <Table.Th>To</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {shown.map((a) => (
            <Table.Tr key={a.approvalId} data-approval-id={a.approvalId}>
              <Table.Td className={HIDE_NARROW}>{formatTime(a.createdAt)}</Table.Td>
              <Table.Td>
                <Badge color={STATE_COLOR[a.state]} variant="light" data-testid="history-approval-state">
                  {STATE_LABEL[a.state]}
                </Badge>
                <WhenNarrow>
                  <Text size="xs" c="dimmed">
                    asked {formatTime(a.createdAt)}
                  </Text>
                </WhenNarrow>
                {a.error && (
                  <Text size="xs" c="red">
                    {a.error}
                  </Text>
                )}
              </Table.Td>
              <Table.Td ta="right">{reviewAmount(a.review)}</Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere', minWidth: 120 }}>{destinationOf(a.review)}</Table.Td>
              <Table.Td>
                <Anchor href="#/approvals" size="sm">
                  Approvals
                </Anchor>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </ScrollTable>
    </Stack>
  );
}
