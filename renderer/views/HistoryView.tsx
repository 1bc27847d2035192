import { Alert, Badge, Button, CopyButton, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { OPERATIONS as OPS, type HistoryEntry } from '../../shared/operations.js';
import { messageOf } from '../components/errors.js';
import { formatBsv, formatSats, formatTime } from '../components/format.js';
import { useInterval } from '../components/useInterval.js';
import { WalletSelect } from '../components/WalletSelect.js';
import { useSession } from '../state/store.js';
import { useWallets } from '../components/useWallets.js';

const COLORS = { in: 'teal', out: 'orange', self: 'gray' } as const;
const STATE_COLORS = { pending: 'yellow', confirmed: 'teal', failed: 'red' } as const;

/** The state as words: "confirmed · 3 confirmations", "pending · not seen by the network yet", "failed". */
function StateCell({ e }: { e: HistoryEntry }) {
  const detail =
    e.state === 'confirmed'
      ? `${e.confirmations} confirmation${e.confirmations === 1 ? '' : 's'}`
      : e.state === 'pending'
        ? e.seenByChain
          ? 'in the mempool'
          : 'not seen by the network yet'
        : e.failureReason;
  return (
    <Stack gap={2}>
      <Badge color={STATE_COLORS[e.state]} variant="light" style={{ overflow: 'visible' }} data-testid={`state-${e.txid.slice(0, 8)}`}>
        {e.state}
      </Badge>
      {detail && (
        <Text size="xs" c={e.state === 'failed' ? 'red' : 'dimmed'}>
          {detail}
        </Text>
      )}
      {e.peerTxid && (
        <Text size="xs" c="orange" title={e.peerTxid}>
          receiver answered another txid ({e.peerTxid.slice(0, 8)}…)
        </Text>
      )}
    </Stack>
  );
}

/** A wallet's transactions, newest first: amount, fee, counterparty, memo, confirmations. */
export function HistoryView() {
  const call = useSession((s) => s.call);
  const wallets = useWallets();
  const [walletId, setWalletId] = useState<string | null>(null);
  const [entries, setEntries] = useState<HistoryEntry[]>([]);
  const [next, setNext] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(
    async (from: number) => {
      try {
        const r = await call(OPS.history, { walletId: walletId ?? undefined, nextPageToken: from, maxResults: 25 });
        setEntries((prev) => (from === 0 ? r.history : [...prev, ...r.history]));
        setNext(r.meta.nextPageToken);
        setError(null);
      } catch (err) {
        setError(messageOf(err));
      }
    },
    [call, walletId],
  );
  useEffect(() => {
    void load(0);
  }, [load]);
  const refresh = useCallback(() => void load(0), [load]);
  useInterval(refresh, 5000);

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Title order={2}>History</Title>
        <WalletSelect wallets={wallets.data} value={walletId} onChange={setWalletId} />
      </Group>
      {error && <Alert color="red">{error}</Alert>}
      {entries.length === 0 && !error && <Text c="dimmed">No transactions yet.</Text>}
      {entries.length > 0 && (
        <Table striped aria-label="History">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>When</Table.Th>
              <Table.Th />
              <Table.Th ta="right">Amount (BSV)</Table.Th>
              <Table.Th>Fee</Table.Th>
              <Table.Th>Counterparty</Table.Th>
              <Table.Th>Memo</Table.Th>
              <Table.Th>State</Table.Th>
              <Table.Th>Transaction</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {entries.map((e) => (
              <Table.Tr key={e.txid} title={e.txid}>
                <Table.Td>{formatTime(e.time)}</Table.Td>
                <Table.Td>
                  <Badge color={COLORS[e.direction]} variant="light">
                    {e.direction}
                  </Badge>
                </Table.Td>
                <Table.Td ta="right" ff="monospace">
                  {formatBsv(e.amount)}
                </Table.Td>
                <Table.Td>{e.fee === null ? '—' : formatSats(e.fee)}</Table.Td>
                <Table.Td style={{ wordBreak: 'break-all' }}>{e.counterparty ?? '—'}</Table.Td>
                <Table.Td>{e.memo ?? '—'}</Table.Td>
                <Table.Td>
                  <StateCell e={e} />
                </Table.Td>
                <Table.Td>
                  <CopyButton value={e.txid}>
                    {({ copied, copy }) => (
                      <Button variant="subtle" size="compact-xs" ff="monospace" onClick={copy} aria-label={`Copy txid ${e.txid}`} title={e.txid}>
                        {copied ? 'copied' : `${e.txid.slice(0, 8)}…`}
                      </Button>
                    )}
                  </CopyButton>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {next !== null && (
        <Button variant="default" onClick={() => void load(next)}>
          Load more
        </Button>
      )}
    </Stack>
  );
}
