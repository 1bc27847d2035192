import { Alert, Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { ScrollTable } from '../components/ScrollTable.js';
import { useCallback, useEffect, useState } from 'react';
import { OPERATIONS as OPS, type AuditEntryOutput } from '../../shared/operations.js';
import { messageOf } from '../components/errors.js';
import { useSession } from '../state/store.js';
import { AuditTrailPanel } from '../components/AuditTrailPanel.js';

/** Who did what, when, and whether it worked; newest first, more on demand; above it, verifying the trail, its checkpoints and export. */
export function AuditView() {
  const call = useSession((s) => s.call);
  const [entries, setEntries] = useState<AuditEntryOutput[]>([]);
  const [next, setNext] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(
    async (from: number | null) => {
      setBusy(true);
      try {
        const page = await call(OPS.auditLog, { limit: 50, nextPageToken: from });
        setEntries((prev) => (from === null ? page.entries : [...prev, ...page.entries]));
        setNext(page.meta.nextPageToken);
        setError(null);
      } catch (err) {
        setError(messageOf(err));
      } finally {
        setBusy(false);
      }
    },
    [call],
  );

  useEffect(() => {
    void load(null);
  }, [load]);

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Audit log</Title>
        <Button variant="default" onClick={() => void load(null)} loading={busy}>
          Refresh
        </Button>
      </Group>
      <AuditTrailPanel />
      {error && <Alert color="red">{error}</Alert>}
      <ScrollTable striped aria-label="Audit log">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>When</Table.Th>
            <Table.Th>Who</Table.Th>
            <Table.Th>Action</Table.Th>
            <Table.Th>Target</Table.Th>
            <Table.Th>Outcome</Table.Th>
            <Table.Th>Hash</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((e) => (
            <Table.Tr key={e.id}>
              <Table.Td>{new Date(e.at).toLocaleString()}</Table.Td>
              <Table.Td>{e.actorEmail ?? '—'}</Table.Td>
              <Table.Td>{e.action}</Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {e.target ?? '—'}
                </Text>
              </Table.Td>
              <Table.Td>
                {e.outcome === 'success' ? (
                  <Badge color="teal" variant="light">
                    success
                  </Badge>
                ) : (
                  <Badge color="red" variant="light">
                    {e.code ?? 'error'}
                  </Badge>
                )}
              </Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace" title={e.hash ?? undefined}>
                  {e.hash ? `${e.hash.slice(0, 10)}…` : '—'}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </ScrollTable>
      {next !== null && (
        <Button variant="default" onClick={() => void load(next)} loading={busy}>
          Load more
        </Button>
      )}
    </Stack>
  );
}
