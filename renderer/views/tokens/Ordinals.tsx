import { Alert, Badge, Button, Group, Loader, Modal, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { Bsv21Balance } from '../../../shared/contracts/ordinals.js';
import type { OutputOf } from '../../../shared/operation.js';
import { canCall, OPERATIONS as OPS } from '../../../shared/operations.js';
import { ScrollTable } from '../../components/ScrollTable.js';
import { useLoad } from '../../components/useLoad.js';
import { useSession } from '../../state/store.js';
import { Bsv21Details } from './Bsv21Details.js';
import { formatUnits } from './bsv21-amount.js';
import { sourceWords, VALIDITY_BADGE, validityWords } from './bsv21-words.js';
import { sizeWords } from './inscription-content.js';
import { InscriptionView } from './InscriptionView.js';
import { SendOrdinal } from './SendOrdinal.js';

type Inscription = OutputOf<typeof OPS.listOrdinals>['inscriptions'][number];
const short = (outpoint: string) => `${outpoint.slice(0, 10)}…${outpoint.slice(outpoint.indexOf('_'))}`;

/** 1Sat Ordinals: the wallet's BSV-21 balances (valid outputs only) and its inscriptions, each shown safely and sendable. */
export function Ordinals({ walletId, refresh, onChanged }: { walletId: string | null; refresh: number; onChanged: () => void }) {
  const call = useSession((s) => s.call);
  const role = useSession((s) => s.me!.role);
  const ordinals = useLoad(() => call(OPS.listOrdinals, { walletId: walletId ?? undefined }), [walletId, refresh]);
  const [viewing, setViewing] = useState<Inscription | null>(null);
  const [details, setDetails] = useState<string | null>(null);
  const [sending, setSending] = useState<{ kind: 'bsv21'; token: Bsv21Balance } | { kind: 'inscription'; inscription: Inscription } | null>(
    null,
  );
  const canSend = canCall(role, OPS.sendBsv21);
  const tokens = ordinals.data?.tokens ?? [];
  // Token outputs are inscriptions too; they are listed by token above, and move with "Send" there.
  const inscriptions = (ordinals.data?.inscriptions ?? []).filter((i) => !i.bsv21);
  const done = () => {
    setSending(null);
    onChanged();
    void ordinals.reload();
  };
  return (
    <Stack>
      {ordinals.error && (
        <Alert color="red" role="alert">
          {ordinals.error}
        </Alert>
      )}
      {ordinals.loading && !ordinals.data && <Loader size="sm" />}
      <Paper withBorder p="md">
        <Title order={4} mb="sm">
          BSV-21 tokens
        </Title>
        {ordinals.data && tokens.length === 0 && <Text c="dimmed">This wallet holds no BSV-21 tokens.</Text>}
        {tokens.length > 0 && (
          <ScrollTable fit striped aria-label="BSV-21 balances">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Token</Table.Th>
                <Table.Th ta="right">Held</Table.Th>
                <Table.Th>Validity</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {tokens.map((t) => (
                <Table.Tr key={t.id}>
                  <Table.Td>
                    <Text fw={600}>{t.sym ?? 'No symbol'}</Text>
                    <Text size="xs" c="dimmed" ff="monospace">
                      {short(t.id)}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right" data-testid={`bsv21-held-${t.sym ?? t.id}`}>
                    {formatUnits(t.amount, t.dec)}
                  </Table.Td>
                  <Table.Td>
                    <Badge color={VALIDITY_BADGE[t.validity].color} variant="light" data-testid={`bsv21-validity-${t.sym ?? t.id}`}>
                      {VALIDITY_BADGE[t.validity].label}
                    </Badge>
                    <Text size="xs" c="dimmed" maw={320}>
                      {validityWords(t)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end">
                      <Button size="xs" variant="default" onClick={() => setDetails(t.id)}>
                        Details
                      </Button>
                      {canSend && (
                        <Button size="xs" disabled={t.amount === '0'} onClick={() => setSending({ kind: 'bsv21', token: t })}>
                          Send
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </ScrollTable>
        )}
        {ordinals.data && (
          <Text size="xs" c="dimmed" mt="xs">
            {sourceWords(ordinals.data.source)}
          </Text>
        )}
      </Paper>
      <Paper withBorder p="md">
        <Title order={4} mb="sm">
          Inscriptions
        </Title>
        {ordinals.data && inscriptions.length === 0 && <Text c="dimmed">This wallet holds no inscriptions.</Text>}
        {inscriptions.length > 0 && (
          <ScrollTable fit striped aria-label="Inscriptions">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Inscription</Table.Th>
                <Table.Th>Content type</Table.Th>
                <Table.Th ta="right">Size</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {inscriptions.map((i) => (
                <Table.Tr key={i.outpoint} data-testid={`inscription-${i.outpoint}`}>
                  <Table.Td ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                    {short(i.outpoint)}
                  </Table.Td>
                  <Table.Td>{i.contentType || 'not given'}</Table.Td>
                  <Table.Td ta="right">{sizeWords(i.size)}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end">
                      <Button size="xs" variant="default" onClick={() => setViewing(i)}>
                        View
                      </Button>
                      {canCall(role, OPS.sendInscription) && (
                        <Button size="xs" onClick={() => setSending({ kind: 'inscription', inscription: i })}>
                          Send
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </ScrollTable>
        )}
      </Paper>
      {viewing && (
        <Modal opened onClose={() => setViewing(null)} title={`Inscription ${short(viewing.outpoint)}`} size="lg">
          <InscriptionView outpoint={viewing.outpoint} contentType={viewing.contentType} size={viewing.size} />
        </Modal>
      )}
      {details && <Bsv21Details id={details} onClose={() => setDetails(null)} />}
      {sending && (
        <SendOrdinal
          walletId={walletId}
          what={
            sending.kind === 'bsv21'
              ? { kind: 'bsv21', token: sending.token }
              : { kind: 'inscription', outpoint: sending.inscription.outpoint }
          }
          onClose={() => setSending(null)}
          onDone={done}
        />
      )}
    </Stack>
  );
}
