import { Alert, Group, Paper, Select, Stack, Table, Text, Title } from '@mantine/core';
import { ScrollTable } from '../components/ScrollTable.js';
import { useEffect, useState } from 'react';
import { CopyField } from '../components/CopyField.js';
import { QrCode } from '../components/QrCode.js';
import { TestCoins } from '../components/TestCoins.js';
import { useLoad } from '../components/useLoad.js';
import { useSession } from '../state/store.js';
import { OPERATIONS as OPS } from '../../shared/operations.js';
import { useWallets } from '../components/useWallets.js';
import { DEFAULT_WALLET_ID } from '../../shared/wallet-schemas.js';

function walletFromHash(): string | undefined {
  const q = window.location.hash.split('?')[1];
  return q ? (new URLSearchParams(q).get('wallet') ?? undefined) : undefined;
}

/** Where to send coins: the next unused address with its QR code, the paymail, and the other available addresses. */
export function ReceiveView() {
  const call = useSession((s) => s.call);
  const [picked, setWalletId] = useState<string | undefined>(walletFromHash);
  const wallets = useWallets();
  // No wallet chosen: the default wallet, else the user's first one. Only a user with no wallet at all gets
  // the default wallet made (the engine creates it on first use): coins never go to a wallet nobody knew of.
  const fallback = wallets.data?.find((w) => w.walletID === DEFAULT_WALLET_ID) ?? wallets.data?.[0];
  const walletId = picked ?? fallback?.walletID;
  const known = picked !== undefined || wallets.data !== null || wallets.error !== null;
  const receive = useLoad(() => (known ? call(OPS.walletAddresses, { walletId }) : Promise.resolve(null)), [walletId, known]);

  // Asking for the default wallet's addresses creates it on first use: the shared list then learns of it.
  const reloadWallets = wallets.reload;
  useEffect(() => {
    if (receive.data && !walletId) void reloadWallets();
  }, [receive.data, walletId, reloadWallets]);

  const current = receive.data?.addresses[0];
  const chosen = walletId ?? receive.data?.walletID;
  const summary = wallets.data?.find((w) => w.walletID === chosen);
  const empty = summary && summary.balance.confirmed + summary.balance.unconfirmed === 0 ? summary : null;

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Title order={2}>Receive</Title>
        <Select
          label="Wallet"
          w={320}
          data={(wallets.data ?? []).map((w) => ({ value: w.walletID, label: `${w.walletTitle}${w.paymail ? ` · ${w.paymail}` : ''}` }))}
          value={chosen ?? null}
          onChange={(v) => v && setWalletId(v)}
          allowDeselect={false}
        />
      </Group>
      {receive.error && <Alert color="red">{receive.error}</Alert>}
      {empty && <TestCoins walletId={empty.walletID} walletTitle={empty.walletTitle} onDone={() => void reloadWallets()} />}
      {current && (
        <Paper withBorder p="lg">
          {/* In a narrow window (or at 200 % zoom) the codes go above the text instead of pushing the page wider. */}
          <Group align="flex-start" gap="xl">
            <QrCode value={current} size={200} label={`QR code of ${current}`} />
            <Stack gap="md" style={{ minWidth: 0, flex: '1 1 220px' }}>
              <div>
                <Text size="sm" c="dimmed">
                  Address (single use recommended)
                </Text>
                <CopyField label="Address" value={current} size="lg" />
              </div>
              <div>
                <Text size="sm" c="dimmed">
                  Paymail
                </Text>
                {receive.data?.paymail ? (
                  <Group gap="md" align="center">
                    <QrCode value={receive.data.paymail} size={120} label={`QR code of ${receive.data.paymail}`} />
                    <CopyField label="Paymail" value={receive.data.paymail} size="lg" />
                  </Group>
                ) : (
                  <Text>This wallet has no active paymail.</Text>
                )}
              </div>
            </Stack>
          </Group>
        </Paper>
      )}
      {receive.data && (
        <Paper withBorder p="md">
          <Title order={4} mb="xs">
            Available addresses
          </Title>
          <ScrollTable fit aria-label="Available addresses">
            <Table.Tbody>
              {receive.data.addresses.map((a, i) => (
                <Table.Tr key={a}>
                  <Table.Td w={40}>
                    <Text c="dimmed" size="sm">
                      {i + 1}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <CopyField label={`Address ${i + 1}`} value={a} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </ScrollTable>
        </Paper>
      )}
    </Stack>
  );
}
