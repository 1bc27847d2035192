import { Alert, Badge, Button, Group, NumberInput, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { ScrollTable } from '../components/ScrollTable.js';
import { CopyField } from '../components/CopyField.js';
import { useState } from 'react';
import { OPERATIONS as OPS, canCall } from '../../shared/operations.js';
import { formatSats, formatTime } from '../components/format.js';
import { notifyError, notifySuccess } from '../components/notify.js';
import { useLiveReload } from '../components/useLive.js';
import { useLoad } from '../components/useLoad.js';
import { useSubmit } from '../components/useSubmit.js';
import { usePrefs, useSession } from '../state/store.js';
import { AmountInput, amountOf, type AmountField } from '../components/AmountInput.js';
import { amountText } from '../../shared/amounts.js';
import { useWallets } from '../components/useWallets.js';
import { WalletSelect } from '../components/WalletSelect.js';
import { LocalCheck } from '../components/errors.js';

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Group justify="space-between" wrap="nowrap">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text component="div" size="sm" ta="right" style={{ wordBreak: 'break-all' }}>
        {children}
      </Text>
    </Group>
  );
}

/** Which chain this Keystead uses and how it is doing; on the local network, mining and test coins. */
export function NetworkView() {
  const call = useSession((s) => s.call);
  const role = useSession((s) => s.me!.role);
  const status = useLoad(() => call(OPS.networkStatus, {}));
  useLiveReload(['chain'], status.reload);
  const s = status.data;

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Network</Title>
        <Button variant="default" onClick={() => void status.reload()} loading={status.loading}>
          Refresh
        </Button>
      </Group>
      {status.error && <Alert color="red">{status.error}</Alert>}
      {s?.error && <Alert color="orange">{s.error}</Alert>}
      {s?.syncError && (
        <Alert color="orange" title="Wallet sync">
          {s.syncError}
        </Alert>
      )}
      {s?.syncing && (
        <Alert color="blue" title="Syncing" role="status">
          Keystead is scanning the wallets&apos; addresses against the chain; balances fill in as it goes.
        </Alert>
      )}
      {s && (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <Paper withBorder p="md">
            <Stack gap="xs">
              <Group>
                <Title order={4}>Chain</Title>
                <Badge color={s.network === 'mainnet' ? 'red' : 'teal'} data-testid="network-name">
                  {s.network}
                </Badge>
              </Group>
              <Row label="Provider">{s.provider}</Row>
              <Row label="Tip height">
                <span data-testid="tip-height">{s.tip?.height ?? '—'}</span>
              </Row>
              <Row label="Tip hash">{s.tip ? <CopyField label="Tip hash" value={s.tip.hash} /> : '—'}</Row>
              {s.mempoolSize !== null && (
                <Row label="Mempool">
                  <span data-testid="mempool-size">{s.mempoolSize}</span> {s.mempoolSize === 1 ? 'transaction' : 'transactions'}
                </Row>
              )}
              <Row label="Fee policy">
                {s.feePolicy ? `${s.feePolicy.satoshis} sat per ${s.feePolicy.bytes} bytes; dust below ${s.feePolicy.dustLimit} sat` : '—'}
              </Row>
              <Row label="USD rate">
                {s.rates ? `${s.rates.rate} (${s.rates.source}${s.rates.updatedAt ? `, ${formatTime(s.rates.updatedAt)}` : ''})` : '—'}
              </Row>
            </Stack>
          </Paper>
          {s.faucet && canCall(role, OPS.faucet) && <LocalTools onDone={() => void status.reload()} />}
        </SimpleGrid>
      )}
      <RatesTable />
    </Stack>
  );
}

function LocalTools({ onDone }: { onDone: () => void }) {
  const call = useSession((s) => s.call);
  const wallets = useWallets();
  const [walletId, setWalletId] = useState<string | null>(null);
  const inputUnit = usePrefs((s) => s.inputUnit);
  const [amount, setAmount] = useState<AmountField>({ unit: inputUnit, text: amountText(100_000, inputUnit) });
  const faucet = useSubmit(async () => {
    const { satoshis, error } = amountOf(amount);
    // Said under the Amount field only (it shows its own check already).
    if (error || satoshis === null) throw new LocalCheck(error ?? 'Enter an amount.', { field: 'amount' });
    const r = await call(OPS.faucet, { walletId: walletId ?? undefined, satoshis });
    const into = wallets.data?.find((w) => w.walletID === walletId)?.walletTitle;
    notifySuccess(`${formatSats(r.satoshis)} sent to ${into ? `${into} (${r.address})` : r.address}.`);
    onDone();
    await wallets.reload();
  }, ['amount']);
  const mine = async () => {
    try {
      const r = await call(OPS.mineBlock, {});
      notifySuccess(`Block ${r.height} mined with ${r.txCount} ${r.txCount === 1 ? 'transaction' : 'transactions'}.`);
      onDone();
      await wallets.reload();
    } catch (err) {
      notifyError(err);
    }
  };
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={4}>Local network</Title>
        <Text size="sm" c="dimmed">
          Test coins for development. They exist only on this Keystead&apos;s local chain.
        </Text>
        <Button onClick={() => void mine()} variant="light">
          Mine block
        </Button>
        <form onSubmit={faucet.onSubmit}>
          <Stack gap="xs">
            <WalletSelect label="Into wallet" wallets={wallets.data} value={walletId} onChange={setWalletId} />
            <AmountInput label="Amount" value={amount} onChange={setAmount} required error={faucet.fieldErrors.amount} />
            {faucet.error && <Alert color="red">{faucet.error}</Alert>}
            <Button type="submit" loading={faucet.busy}>
              Get test coins
            </Button>
          </Stack>
        </form>
      </Stack>
    </Paper>
  );
}

function RatesTable() {
  const call = useSession((s) => s.call);
  const role = useSession((s) => s.me!.role);
  const rates = useLoad(() => call(OPS.listRates, {}));
  const editable = canCall(role, OPS.setRate);
  const [currency, setCurrency] = useState('');
  const [rate, setRate] = useState<number | string>('');
  const save = useSubmit(async () => {
    await call(OPS.setRate, { currency, rate: Number(rate) });
    notifySuccess(`${currency.toUpperCase()} saved.`);
    setCurrency('');
    setRate('');
    await rates.reload();
  });
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={4}>Exchange rates (price of 1 BSV)</Title>
        <ScrollTable aria-label="Exchange rates">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Currency</Table.Th>
              <Table.Th>Rate</Table.Th>
              <Table.Th>Source</Table.Th>
              <Table.Th>Updated</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rates.data?.rates.map((r) => (
              <Table.Tr key={r.currency}>
                <Table.Td>{r.currency}</Table.Td>
                <Table.Td>{r.rate}</Table.Td>
                <Table.Td>{r.source}</Table.Td>
                <Table.Td>{formatTime(r.updatedAt)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </ScrollTable>
        {editable && (
          <form onSubmit={save.onSubmit}>
            <Group align="flex-end">
              <TextInput label="Currency" placeholder="EUR" value={currency} onChange={(e) => setCurrency(e.currentTarget.value)} w={120} />
              <NumberInput hideControls label="Rate" value={rate} onChange={setRate} min={0} decimalScale={6} w={160} />
              <Button type="submit" loading={save.busy}>
                Save rate
              </Button>
            </Group>
            {save.error && (
              <Alert color="red" mt="xs">
                {save.error}
              </Alert>
            )}
          </form>
        )}
      </Stack>
    </Paper>
  );
}
