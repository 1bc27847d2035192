import { Alert, Badge, Button, Group, Paper, SimpleGrid, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { ScrollTable } from '../components/ScrollTable.js';
import { useState } from 'react';
import { ApiError } from '../api/client.js';
import { CopyField } from '../components/CopyField.js';
import { formatBsv, formatSats } from '../components/format.js';
import { notifySuccess } from '../components/notify.js';
import { QrCode } from '../components/QrCode.js';
import { useLoad } from '../components/useLoad.js';
import { useSubmit } from '../components/useSubmit.js';
import { useSession } from '../state/store.js';
import { OPERATIONS as OPS } from '../../shared/operations.js';

const STATE_COLORS = { available: 'teal', reserved: 'blue', dust: 'gray', spent: 'dark' } as const;

/** The organisation's fee wallet: set it up, fund it, and watch what it pays. */
export function FeeManagerView() {
  const call = useSession((s) => s.call);
  const metrics = useLoad(async () => {
    try {
      return await call(OPS.feeManagerMetrics, {});
    } catch (err) {
      if (err instanceof ApiError && err.code === 'NOT_FOUND') return null;
      throw err;
    }
  });
  const addresses = useLoad(async () => (metrics.data ? (await call(OPS.feeManagerAddresses, {})).addresses : []), [metrics.data]);
  const [mnemonic, setMnemonic] = useState('');
  const init = useSubmit(async () => {
    const r = await call(OPS.feeManagerInit, { mnemonic: mnemonic || undefined });
    notifySuccess(`Fee manager ready. Fund it at ${r.address}.`);
    await metrics.reload();
  });

  if (metrics.loading && !metrics.data) return <Title order={2}>Fee manager</Title>;
  if (!metrics.data) {
    return (
      <Stack maw={640}>
        <Title order={2}>Fee manager</Title>
        {metrics.error && <Alert color="red">{metrics.error}</Alert>}
        <Text>
          The fee manager is a wallet of the organisation that pays the network fee of every payment its users make, so they can move coins
          without holding fee money.
        </Text>
        <form onSubmit={init.onSubmit}>
          <Stack gap="sm">
            <Textarea
              label="Recovery phrase (optional)"
              description="Import an existing fee wallet; leave empty for a new one."
              value={mnemonic}
              onChange={(e) => setMnemonic(e.currentTarget.value)}
              autosize
              minRows={2}
            />
            {init.error && <Alert color="red">{init.error}</Alert>}
            <Group>
              <Button type="submit" loading={init.busy}>
                Initialise fee manager
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    );
  }
  const m = metrics.data;
  const first = addresses.data?.[0];
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Fee manager</Title>
        <Button variant="default" onClick={() => void metrics.reload()} loading={metrics.loading}>
          Refresh
        </Button>
      </Group>
      {m.lowBalance && (
        <Alert color="orange" title="Low balance" data-testid="fee-low-balance">
          The fee manager holds {formatSats(m.totalBalance.balance)}. Fund it soon, or payments fall back to paying their own fees.
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Paper withBorder p="md">
          <Stack gap="xs">
            <Title order={4}>Balance</Title>
            <Text size="xl" fw={700} data-testid="fee-balance">
              {formatBsv(m.totalBalance.balance)} BSV
            </Text>
            <Text size="sm" c="dimmed">
              {formatSats(m.totalBalance.balance)} · dust {formatSats(m.totalBalance.dustBalance)}
            </Text>
          </Stack>
        </Paper>
        {first && (
          <Paper withBorder p="md">
            <Group align="flex-start" wrap="nowrap">
              <QrCode value={first} size={140} label={`QR code of ${first}`} />
              <Stack gap="xs" style={{ minWidth: 0 }}>
                <Title order={4}>Fund it</Title>
                <CopyField label="Fee address" value={first} />
                <Text size="xs" c="dimmed">
                  {addresses.data!.length} fresh addresses are available.
                </Text>
              </Stack>
            </Group>
          </Paper>
        )}
      </SimpleGrid>
      <ScrollTable fit striped aria-label="Fee manager outputs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Output</Table.Th>
            <Table.Th>Path</Table.Th>
            <Table.Th ta="right">Value</Table.Th>
            <Table.Th>State</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {m.availableUtxos.map((u) => (
            <Table.Tr key={`${u.tx_hash}:${u.tx_pos}`}>
              <Table.Td ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                {u.tx_hash.slice(0, 16)}…:{u.tx_pos}
              </Table.Td>
              <Table.Td ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                {u.path}
              </Table.Td>
              <Table.Td ta="right">{formatSats(u.value)}</Table.Td>
              <Table.Td>
                <Badge color={STATE_COLORS[u.state]} variant="light">
                  {u.state}
                </Badge>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </ScrollTable>
    </Stack>
  );
}
