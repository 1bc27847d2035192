import { Alert, Badge, Button, Group, Table, Text, Title, Stack } from '@mantine/core';
import { useState } from 'react';
import { OPERATIONS as OPS } from '../../../shared/operations.js';
import { Amount } from '../../components/Amount.js';
import { formatTime } from '../../components/format.js';
import { HIDE_MEDIUM, ScrollTable, WhenNarrow } from '../../components/ScrollTable.js';
import { useLiveReload } from '../../components/useLive.js';
import { useLoad } from '../../components/useLoad.js';
import { useSession } from '../../state/store.js';

const PAGE = 20;

/** How an action's status reads to a person, and its colour. */
const STATUS: Record<string, { label: string; color: string }> = {
  unsigned: { label: 'waiting for the app to sign', color: 'yellow' },
  nosend: { label: 'signed, not sent', color: 'gray' },
  unprocessed: { label: 'being sent', color: 'blue' },
  sending: { label: 'being sent', color: 'blue' },
  unproven: { label: 'sent', color: 'teal' },
  completed: { label: 'in a block', color: 'green' },
  failed: { label: 'failed', color: 'red' },
  aborted: { label: 'aborted', color: 'gray' },
};

/**
 * What apps have done with the wallets: their actions (newest first, a page at a time) and what they keep in
 * baskets. Reloads when the books change.
 */
export function ActivityPanel() {
  const call = useSession((s) => s.call);
  const [offset, setOffset] = useState(0);
  const activity = useLoad(() => call(OPS.listAppActivity, { limit: PAGE, offset }), [offset]);
  useLiveReload(['apps', 'history'], () => void activity.reload());
  const data = activity.data;
  if (activity.error) {
    return (
      <Alert color="red" role="alert">
        {activity.error}
      </Alert>
    );
  }
  if (!data || (data.totalActions === 0 && data.baskets.length === 0)) return null;
  return (
    <Stack gap="xs" component="section" aria-labelledby="apps-activity">
      <Title order={3} id="apps-activity">
        What apps have done
      </Title>
      {data.baskets.length > 0 && (
        <ScrollTable fit aria-label="App baskets">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>App</Table.Th>
              <Table.Th>Wallet</Table.Th>
              <Table.Th>Basket</Table.Th>
              <Table.Th>Outputs</Table.Th>
              <Table.Th>Value</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.baskets.map((b) => (
              <Table.Tr key={`${b.originator} ${b.walletId} ${b.basket}`} data-testid="app-basket">
                <Table.Td ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                  {b.originator}
                </Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{b.walletId}</Table.Td>
                <Table.Td ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                  {b.basket}
                </Table.Td>
                <Table.Td>{b.outputs.toLocaleString('en-US')}</Table.Td>
                <Table.Td>
                  <Amount satoshis={b.satoshis} inline />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </ScrollTable>
      )}
      {data.totalActions > 0 && (
        <ScrollTable fit aria-label="App actions">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>When</Table.Th>
              <Table.Th>App</Table.Th>
              <Table.Th className={HIDE_MEDIUM}>Wallet</Table.Th>
              <Table.Th>What the app said</Table.Th>
              <Table.Th>Wallet's change</Table.Th>
              <Table.Th>Status</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.actions.map((a, i) => (
              <Table.Tr key={a.txid ?? `${a.createdAt} ${i}`} data-testid="app-action">
                <Table.Td>{formatTime(a.createdAt)}</Table.Td>
                <Table.Td ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                  {a.originator}
                  {/* The wallet, whose column gives way in a narrow table. */}
                  <WhenNarrow below="medium">
                    <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {a.walletId}
                    </Text>
                  </WhenNarrow>
                </Table.Td>
                <Table.Td className={HIDE_MEDIUM} style={{ overflowWrap: 'anywhere' }}>
                  {a.walletId}
                </Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  {/* The app's own words: shown as text, never as markup. */}
                  <Text size="sm">{a.description}</Text>
                  {a.labels.length > 0 && (
                    <Group gap={4} mt={2}>
                      {a.labels.map((l) => (
                        <Badge key={l} size="xs" variant="light">
                          {l}
                        </Badge>
                      ))}
                    </Group>
                  )}
                  {a.txid && (
                    <Text size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                      {a.txid}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Amount satoshis={a.satoshis} signed inline />
                </Table.Td>
                <Table.Td>
                  <Badge color={STATUS[a.status]?.color ?? 'gray'} variant="light">
                    {STATUS[a.status]?.label ?? a.status}
                  </Badge>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </ScrollTable>
      )}
      {data.totalActions > PAGE && (
        <Group gap="xs">
          <Button size="xs" variant="default" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
            Newer
          </Button>
          <Text size="sm" c="dimmed">
            {offset + 1}–{Math.min(offset + PAGE, data.totalActions)} of {data.totalActions.toLocaleString('en-US')}
          </Text>
          <Button size="xs" variant="default" disabled={offset + PAGE >= data.totalActions} onClick={() => setOffset(offset + PAGE)}>
            Older
          </Button>
        </Group>
      )}
    </Stack>
  );
}
