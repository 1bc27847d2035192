import { Alert, Button, Group, NumberInput, Paper, Select, Stack, Switch, Table, Text, TextInput, Title } from '@mantine/core';
import { PasswordField } from '../components/PasswordField.js';
import { ScrollTable } from '../components/ScrollTable.js';
import { useState } from 'react';
import { canCall, OPERATIONS as OPS, type LookupOutput } from '../../shared/operations.js';
import type { OutputOf } from '../../shared/operation.js';
import { WalletSelect } from '../components/WalletSelect.js';
import { useWallets } from '../components/useWallets.js';
import { LOOKUP_TYPES } from '../../shared/payment-schemas.js';
import { formatSats } from '../components/format.js';
import { useSubmit } from '../components/useSubmit.js';
import { useSession } from '../state/store.js';

/** The balance a private key holds on the chain; the key is used for this one call and never stored. */
export function LookupView() {
  const call = useSession((s) => s.call);
  const [privateKey, setPrivateKey] = useState('');
  const [sweptKey, setSweptKey] = useState<string | null>(null);
  const [type, setType] = useState<(typeof LOOKUP_TYPES)[number]>('ALL');
  const [currency, setCurrency] = useState('USD');
  const [compact, setCompact] = useState(true);
  const [maxResults, setMaxResults] = useState<number | string>(19);
  const [result, setResult] = useState<LookupOutput | null>(null);
  const [pages, setPages] = useState<number[]>([0]);
  const role = useSession((s) => s.me?.role ?? null);
  const mayMove = canCall(role, OPS.drop);

  const fetchPage = async (token: number) => {
    const r = await call(OPS.lookup, { privateKey, type, currency, compact, maxResults: Number(maxResults) || 19, nextPageToken: token });
    setResult(r);
  };
  const first = useSubmit(async () => {
    setPages([0]);
    await fetchPage(0);
  });

  return (
    <Stack maw={900}>
      <Title order={2}>Balance lookup</Title>
      <Paper withBorder p="md">
        <form onSubmit={first.onSubmit}>
          <Stack gap="sm">
            <PasswordField
              label="Private key"
              description="WIF or 64-character hex. Used for this lookup only; never stored or logged."
              value={privateKey}
              onChange={(e) => setPrivateKey(e.currentTarget.value)}
              required
            />
            <Group grow>
              <Select
                label="Protocol"
                data={[...LOOKUP_TYPES]}
                value={type}
                onChange={(v) => v && setType(v as typeof type)}
                allowDeselect={false}
              />
              <TextInput label="Currency" value={currency} onChange={(e) => setCurrency(e.currentTarget.value.toUpperCase())} />
              <NumberInput hideControls label="Results per page" value={maxResults} onChange={setMaxResults} min={1} max={1000} />
            </Group>
            <Switch
              label="Compact (totals per token); off lists each output"
              checked={compact}
              onChange={(e) => setCompact(e.currentTarget.checked)}
            />
            {first.error && <Alert color="red">{first.error}</Alert>}
            <Group>
              <Button type="submit" loading={first.busy}>
                Look up
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      {result && (
        <Paper withBorder p="md" data-testid="lookup-result">
          <Stack gap="sm">
            <Text size="lg" fw={700}>
              {result.totalBalance.balance.toLocaleString('en-US', { maximumFractionDigits: 2 })} {result.totalBalance.currency}
            </Text>
            <ScrollTable fit aria-label="Coins">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Protocol</Table.Th>
                  <Table.Th>Output / token</Table.Th>
                  <Table.Th ta="right">Balance</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {result.coins.map((c, i) => (
                  <Table.Tr key={i}>
                    <Table.Td>{c.protocol}</Table.Td>
                    <Table.Td ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                      {c.txid ? `${c.txid.slice(0, 16)}…:${c.vout}` : (c.tokenId ?? c.address ?? '')}
                    </Table.Td>
                    <Table.Td ta="right">{c.balance !== undefined ? formatSats(c.balance) : c.amount}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </ScrollTable>
            <Group>
              <Button
                variant="default"
                disabled={pages.length <= 1}
                onClick={() => {
                  const prev = pages.slice(0, -1);
                  setPages(prev);
                  void fetchPage(prev[prev.length - 1]);
                }}
              >
                Previous
              </Button>
              <Button
                variant="default"
                disabled={result.meta.nextPageToken === null}
                onClick={() => {
                  const token = result.meta.nextPageToken!;
                  setPages([...pages, token]);
                  void fetchPage(token);
                }}
              >
                Next
              </Button>
            </Group>
          </Stack>
        </Paper>
      )}
      {result && mayMove && (sweptKey === privateKey || result.coins.some((c) => (c.balance ?? 0) > 0 || (c.amount ?? 0) > 0)) && (
        // Stays after a sweep empties the key, so its result can be read; a new key starts afresh.
        <SweepPanel
          key={privateKey}
          privateKey={privateKey}
          onSwept={() => {
            setSweptKey(privateKey);
            void fetchPage(0);
          }}
        />
      )}
    </Stack>
  );
}

/** "Move these funds to wallet…": sweeps the looked-up key into one of the user's wallets (BSV and tokens, fees from the key). */
function SweepPanel({ privateKey, onSwept }: { privateKey: string; onSwept: () => void }) {
  const call = useSession((s) => s.call);
  const wallets = useWallets();
  const [walletId, setWalletId] = useState<string | null>(null);
  const [done, setDone] = useState<OutputOf<typeof OPS.drop> | null>(null);
  const sweep = useSubmit(async () => {
    setDone(null);
    setDone(await call(OPS.drop, { privateKey, walletId: walletId ?? undefined }));
    onSwept();
  });
  return (
    <Paper withBorder p="md">
      <form onSubmit={sweep.onSubmit}>
        <Stack gap="sm">
          <Title order={3}>Move these funds to a wallet</Title>
          <Text size="sm" c="dimmed">
            Sends everything this key holds (BSV and tokens) to a new receive address of the wallet you choose. The network fee is taken
            from the key&apos;s BSV. The key is used for this only and never stored.
          </Text>
          <WalletSelect label="Move to wallet" wallets={wallets.data} value={walletId} onChange={setWalletId} />
          {sweep.error && <Alert color="red">{sweep.error}</Alert>}
          {done && (
            <Alert color="green" title="Funds moved" data-testid="sweep-result">
              {formatSats(done.bsv.received)} received (fee {formatSats(done.bsv.fee)})
              {done.tokens.length ? `, ${done.tokens.length} token output(s) moved` : ''}. Transactions: {done.txIds.join(', ')}
              {done.skipped.length ? ` · ${done.skipped.length} output(s) left: ${done.skipped.map((x) => x.reason).join('; ')}` : ''}
            </Alert>
          )}
          <Group>
            <Button type="submit" loading={sweep.busy}>
              Move these funds to wallet…
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
