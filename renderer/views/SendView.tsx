import { Alert, Button, Group, NumberInput, Paper, PasswordInput, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import type { OperationOutput, PaymentRequest } from '../../shared/operations.js';
import { CopyField } from '../components/CopyField.js';
import { formatBsv, formatSats } from '../components/format.js';
import { useLoad } from '../components/useLoad.js';
import { useSubmit } from '../components/useSubmit.js';
import { WalletSelect } from '../components/WalletSelect.js';
import { useSession } from '../state/store.js';

/** Paste a payment URI, paymail or address → see what it asks → confirm → txid. */
export function SendView() {
  const call = useSession((s) => s.call);
  const wallets = useLoad(() => call('listWallets', {}).then((o) => o.wallets));
  const [uri, setUri] = useState('');
  const [amount, setAmount] = useState<number | string>('');
  const [walletId, setWalletId] = useState<string | null>(null);
  const [walletPassword, setWalletPassword] = useState('');
  const [request, setRequest] = useState<PaymentRequest | null>(null);
  const [sent, setSent] = useState<OperationOutput<'pay'> | null>(null);
  const chosen = wallets.data?.find((w) => w.walletID === walletId) ?? null;

  const review = useSubmit(async () => {
    setSent(null);
    setRequest(null);
    const r = await call('resolveUri', { uri, amount: amount === '' ? undefined : Number(amount), walletId: walletId ?? undefined });
    setRequest(r.data);
  });
  const send = useSubmit(async () => {
    const r = await call('pay', { ...request!, walletId: walletId ?? undefined, walletPassword: chosen?.type === 'secure' ? walletPassword : undefined });
    setSent(r);
    setRequest(null);
    setWalletPassword('');
    await wallets.reload();
  });
  const total = request?.outputs.reduce((s, o) => s + o.satoshis, 0) ?? 0;

  return (
    <Stack maw={760}>
      <Title order={2}>Send</Title>
      <Paper withBorder p="md">
        <form onSubmit={review.onSubmit}>
          <Stack gap="sm">
            <TextInput label="Pay to" description="payto:alice@example.com?amount=10000&purpose=…, a paymail, bitcoin:<address>?amount=<BSV>, or an address" value={uri} onChange={(e) => setUri(e.currentTarget.value)} required />
            <Group grow align="flex-start">
              <NumberInput label="Amount (satoshis)" description="If the URI has none" value={amount} onChange={setAmount} min={1} thousandSeparator="," />
              <WalletSelect wallets={wallets.data} value={walletId} onChange={setWalletId} label="From wallet" />
            </Group>
            {review.error && (
              <Alert color="red" role="alert">
                {review.error}
              </Alert>
            )}
            <Group>
              <Button type="submit" loading={review.busy} variant={request ? 'default' : 'filled'}>
                Review payment
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>

      {request && (
        <Paper withBorder p="md" data-testid="payment-review">
          <Stack gap="sm">
            <Title order={4}>Review</Title>
            <Text>
              Pay <b>{formatSats(total)}</b> ({formatBsv(total)} BSV) — {request.memo}
            </Text>
            <Text size="sm" c="dimmed">
              {request.peerProtocol === 'paymail' ? 'Delivered directly to the receiver (paymail P2P), which broadcasts it.' : 'Broadcast to the network.'} The network fee is added (or paid by the
              fee manager).
            </Text>
            <Table>
              <Table.Tbody>
                {request.outputs.map((o, i) => (
                  <Table.Tr key={i}>
                    <Table.Td ff="monospace" style={{ wordBreak: 'break-all' }}>
                      {o.script.slice(0, 60)}
                      {o.script.length > 60 ? '…' : ''}
                    </Table.Td>
                    <Table.Td ta="right">{formatSats(o.satoshis)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            {chosen?.type === 'secure' && <PasswordInput label="Wallet password" value={walletPassword} onChange={(e) => setWalletPassword(e.currentTarget.value)} required />}
            {send.error && (
              <Alert color="red" role="alert">
                {send.error}
              </Alert>
            )}
            <Group>
              <Button color="teal" onClick={() => void send.run()} loading={send.busy}>
                Confirm and send
              </Button>
              <Button variant="subtle" onClick={() => setRequest(null)}>
                Cancel
              </Button>
            </Group>
          </Stack>
        </Paper>
      )}

      {sent && (
        <Alert color="teal" title="Sent" data-testid="payment-sent">
          <Stack gap={4}>
            <CopyField label="txid" value={sent.txid} />
            <Text size="sm">
              Fee {formatSats(sent.fee)}, paid by {sent.feePaidBy === 'feeManager' ? 'the fee manager' : 'the wallet'}; {sent.delivered === 'p2p' ? 'delivered to the receiver' : 'broadcast'}.
            </Text>
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}
