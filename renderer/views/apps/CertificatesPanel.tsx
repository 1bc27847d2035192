import { Alert, Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { canCall, OPERATIONS as OPS, type OperationOutput } from '../../../shared/operations.js';
import { ConfirmModal } from '../../components/ConfirmModal.js';
import { formatTime } from '../../components/format.js';
import { notifySuccess } from '../../components/notify.js';
import { HIDE_MEDIUM, ScrollTable, WhenNarrow } from '../../components/ScrollTable.js';
import { useLiveReload } from '../../components/useLive.js';
import { useLoad } from '../../components/useLoad.js';
import { useSession } from '../../state/store.js';

type Held = OperationOutput<'listAppCertificates'>['certificates'][number];

/** A long key or type, shortened for the table; the whole value is in the title (hover) and copied as text. */
function Short({ value }: { value: string }) {
  return (
    <Text size="sm" ff="monospace" title={value} style={{ overflowWrap: 'anywhere' }}>
      {shorten(value)}
    </Text>
  );
}

const shorten = (value: string) => (value.length > 20 ? `${value.slice(0, 10)}…${value.slice(-6)}` : value);

/**
 * Identity certificates (BRC-52) that apps acquired for the wallets: type, certifier, subject, the names of
 * their fields (values stay encrypted for the wallet) and the app that acquired each. An admin can make the
 * wallet relinquish one.
 */
export function CertificatesPanel() {
  const call = useSession((s) => s.call);
  const role = useSession((s) => s.me?.role ?? null);
  const list = useLoad(() => call(OPS.listAppCertificates, {}), []);
  useLiveReload(['apps'], () => void list.reload());
  const [relinquishing, setRelinquishing] = useState<Held | null>(null);
  const canRelinquish = canCall(role, OPS.relinquishAppCertificate);

  if (list.error) {
    return (
      <Alert color="red" role="alert">
        {list.error}
      </Alert>
    );
  }
  const certificates = list.data?.certificates ?? [];
  if (certificates.length === 0) return null;
  return (
    <Stack gap="xs" component="section" aria-labelledby="apps-certificates">
      <Title order={3} id="apps-certificates">
        Certificates the wallets hold
      </Title>
      <Text size="sm" c="dimmed" maw={760}>
        Identity certificates (BRC-52) apps acquired for a wallet. Their values are encrypted for the wallet: only the field names are
        shown. An app proves fields to a verifier only with the organisation's grant for the certificate type.
      </Text>
      <ScrollTable fit aria-label="App certificates">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Wallet</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th className={HIDE_MEDIUM}>Certifier</Table.Th>
            <Table.Th className={HIDE_MEDIUM}>Subject</Table.Th>
            <Table.Th>Fields</Table.Th>
            <Table.Th>Acquired by</Table.Th>
            {canRelinquish && <Table.Th />}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {certificates.map((c) => (
            <Table.Tr key={c.id} data-testid="app-certificate">
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{c.walletTitle || c.walletId}</Table.Td>
              <Table.Td>
                <Short value={c.type} />
                {/* The certifier and the subject, whose columns give way in a narrow table. */}
                <WhenNarrow below="medium">
                  <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }} title={`certifier ${c.certifier}`}>
                    certifier {shorten(c.certifier)}
                  </Text>
                  <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }} title={`subject ${c.subject}`}>
                    subject {shorten(c.subject)}
                  </Text>
                </WhenNarrow>
              </Table.Td>
              <Table.Td className={HIDE_MEDIUM}>
                <Short value={c.certifier} />
              </Table.Td>
              <Table.Td className={HIDE_MEDIUM}>
                <Short value={c.subject} />
              </Table.Td>
              <Table.Td>
                <Group gap={4}>
                  {c.fieldNames.map((f) => (
                    <Badge key={f} size="xs" variant="light">
                      {f}
                    </Badge>
                  ))}
                </Group>
              </Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                  {c.originator}
                </Text>
                <Text size="xs" c="dimmed">
                  {c.protocol === 'issuance' ? 'issued by the certifier' : 'handed over'} · {formatTime(c.acquiredAt)}
                </Text>
              </Table.Td>
              {canRelinquish && (
                <Table.Td>
                  <Button size="xs" variant="default" color="red" onClick={() => setRelinquishing(c)}>
                    Relinquish
                  </Button>
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </ScrollTable>
      <ConfirmModal
        opened={relinquishing !== null}
        title="Relinquish this certificate?"
        confirmLabel="Relinquish certificate"
        onClose={() => setRelinquishing(null)}
        onConfirm={async () => {
          if (!relinquishing) return;
          await call(OPS.relinquishAppCertificate, { id: relinquishing.id });
          notifySuccess('The certificate is relinquished.');
          await list.reload();
        }}
      >
        The wallet {relinquishing?.walletTitle || relinquishing?.walletId} forgets it: apps can no longer list, prove or discover it. To
        hold it again, an app must acquire it again. The audit log keeps that it was relinquished.
      </ConfirmModal>
    </Stack>
  );
}
