import { Alert, Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { HIDE_NARROW, ScrollTable, WhenNarrow } from '../components/ScrollTable.js';
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
      <ScrollTable fit striped aria-label="Audit log">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>When</Table.Th>
            <Table.Th className={HIDE_NARROW}>Who</Table.Th>
            <Table.Th>Action</Table.Th>
            <Table.Th className={HIDE_NARROW}>Target</Table.Th>
            <Table.Th>Outcome</Table.Th>
            <Table.Th className={HIDE_NARROW}>Hash</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((e) => (
            <Table.Tr key={e.id}>
              <Table.Td>
                {new Date(e.at).toLocaleString()}
                {/* A narrow table says who under when, and the target under the action. */}
                <WhenNarrow>
                  <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {e.actorEmail ?? '—'}
                  </Text>
                </WhenNarrow>
              </Table.Td>
              <Table.Td className={HIDE_NARROW} style={{ overflowWrap: 'anywhere' }}>
                {e.actorEmail ?? '—'}
              </Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                {e.action}
                <WhenNarrow>
                  {e.target && (
                    <Text size="xs" c="dimmed" ff="monospace" truncate="end" title={e.target} style={{ maxWidth: '40cqi' }}>
                      {e.target}
                    </Text>
                  )}
                </WhenNarrow>
              </Table.Td>
              <Table.Td className={HIDE_NARROW}>
                {/* A long id is cut, its whole text on hover. */}
                <Text size="sm" ff="monospace" truncate="end" title={e.target ?? undefined} style={{ maxWidth: 'min(280px, 22cqi)' }}>
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
              <Table.Td className={HIDE_NARROW}>
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
