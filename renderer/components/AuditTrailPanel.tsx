import { Alert, Badge, Button, Group, Paper, Stack, Switch, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { OPERATIONS as OPS, type OperationOutput } from '../../shared/operations.js';
import { CopyAction } from './CopyField.js';
import { messageOf } from './errors.js';
import { notifySuccess } from './notify.js';
import { ScrollTable } from './ScrollTable.js';
import { useLoad } from './useLoad.js';
import { useSession } from '../state/store.js';

type Verdict = OperationOutput<'auditVerify'>;

const day = (d: Date) => d.toISOString().slice(0, 10);
const short = (hex: string) => `${hex.slice(0, 12)}…`;

function download(name: string, text: string, type: string) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([text], { type }));
  link.download = name;
  link.click();
  URL.revokeObjectURL(link.href);
}

/** The verdict in words: the chain holds, or the first entry that does not match and why. */
function VerdictAlert({ v }: { v: Verdict }) {
  if (v.ok)
    return (
      <Alert color="teal" role="status" title="The audit trail holds">
        {v.entries} entries chained from the first, {v.checkpoints} signed checkpoint{v.checkpoints === 1 ? '' : 's'} match it
        {v.anchoring ? `; ${v.anchored} anchored on chain` : ''}.{v.unanchored.length > 0 && ` Not anchored: ${v.unanchored.join(', ')}.`}
      </Alert>
    );
  const m = v.firstMismatch!;
  return (
    <Alert color="red" role="alert" title={`The audit trail does not hold from entry ${m.id}`}>
      {m.day ? `${m.day}: ` : ''}
      {m.reason}.
    </Alert>
  );
}

/**
 * The tamper-evident side of the audit log: verify the hash chain and the signed daily checkpoints, list
 * the checkpoints (and their anchors on chain), export a date range with the hashes, and the anchoring switch.
 */
export function AuditTrailPanel() {
  const call = useSession((s) => s.call);
  const [verdict, setVerdict] = useState<Verdict | null>(null);
  const [verifying, setVerifying] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [from, setFrom] = useState(day(new Date(Date.now() - 30 * 86_400_000)));
  const [to, setTo] = useState(day(new Date()));
  const [exporting, setExporting] = useState<'csv' | 'json' | null>(null);
  const checkpoints = useLoad(() => call(OPS.auditCheckpoints, {}));
  const settings = useLoad(() => call(OPS.auditSettings, {}));

  const verify = async () => {
    setVerifying(true);
    try {
      setVerdict(await call(OPS.auditVerify, {}));
      setError(null);
      await checkpoints.reload();
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setVerifying(false);
    }
  };

  const exportAs = async (format: 'csv' | 'json') => {
    setExporting(format);
    try {
      const r = await call(OPS.auditExport, { from, to, format });
      const name = `audit-${from}-to-${to}.${format}`;
      if (format === 'csv') download(name, r.csv ?? '', 'text/csv');
      else download(name, JSON.stringify({ ...r, csv: undefined }, null, 2), 'application/json');
      setError(null);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setExporting(null);
    }
  };

  const setAnchor = async (anchor: boolean) => {
    try {
      await call(OPS.setAuditSettings, { anchor });
      notifySuccess(
        anchor ? 'New checkpoints will be anchored on chain by the fee manager.' : 'Checkpoints are no longer anchored on chain.',
      );
      await settings.reload();
    } catch (err) {
      setError(messageOf(err));
    }
  };

  const key = checkpoints.data?.publicKey;
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-end">
          <Title order={3}>Tamper evidence</Title>
          <Button onClick={() => void verify()} loading={verifying}>
            Verify
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          Each entry carries the hash of the one before; a checkpoint signed with the organisation&apos;s audit key closes each day. Verify
          recomputes the chain from the first entry and checks every checkpoint.
        </Text>
        {verdict && <VerdictAlert v={verdict} />}
        {(error || checkpoints.error || settings.error) && (
          <Alert color="red" role="alert">
            {error ?? checkpoints.error ?? settings.error}
          </Alert>
        )}
        {key && (
          <Group gap="xs">
            <Text size="sm">Audit public key:</Text>
            <Text size="sm" ff="monospace" title={key} data-testid="audit-public-key">
              {short(key)}
            </Text>
            <CopyAction label="audit public key (PEM)" value={checkpoints.data!.publicKeyPem} />
          </Group>
        )}
        <Switch
          label="Anchor checkpoints on chain (paid by the fee manager)"
          description={
            settings.data && !settings.data.feeManagerReady
              ? 'The fee manager is not set up: checkpoints stay unanchored until it is.'
              : undefined
          }
          checked={settings.data?.anchor ?? false}
          disabled={!settings.data}
          onChange={(e) => void setAnchor(e.currentTarget.checked)}
        />
        <Group align="flex-end" gap="sm">
          <TextInput label="Export from" type="date" value={from} onChange={(e) => setFrom(e.currentTarget.value)} w={170} />
          <TextInput label="Export to" type="date" value={to} onChange={(e) => setTo(e.currentTarget.value)} w={170} />
          <Button variant="default" onClick={() => void exportAs('csv')} loading={exporting === 'csv'}>
            Export CSV
          </Button>
          <Button variant="default" onClick={() => void exportAs('json')} loading={exporting === 'json'}>
            Export JSON
          </Button>
        </Group>
        {checkpoints.data && checkpoints.data.checkpoints.length === 0 && (
          <Text size="sm" c="dimmed">
            No checkpoints yet: the first closes today&apos;s entries once the day (UTC) is over.
          </Text>
        )}
        {checkpoints.data && checkpoints.data.checkpoints.length > 0 && (
          <ScrollTable fit striped aria-label="Audit checkpoints">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Day (UTC)</Table.Th>
                <Table.Th>Last entry</Table.Th>
                <Table.Th>Hash</Table.Th>
                <Table.Th>On chain</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {[...checkpoints.data.checkpoints].reverse().map((c) => (
                <Table.Tr key={c.day}>
                  <Table.Td>{c.day}</Table.Td>
                  <Table.Td>{c.lastId}</Table.Td>
                  <Table.Td>
                    <Text size="sm" ff="monospace" title={c.lastHash}>
                      {short(c.lastHash)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    {c.anchorTxid ? (
                      <Group gap={4}>
                        <Text size="sm" ff="monospace" title={c.anchorTxid}>
                          {short(c.anchorTxid)}
                        </Text>
                        <CopyAction label={`anchor txid of ${c.day}`} value={c.anchorTxid} />
                      </Group>
                    ) : (
                      <Badge color="gray" variant="light">
                        not anchored
                      </Badge>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </ScrollTable>
        )}
      </Stack>
    </Paper>
  );
}
