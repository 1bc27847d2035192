import {
  Alert,
  Button,
  Group,
  NumberInput,
  Paper,
  PasswordInput,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { ScrollTable } from '../components/ScrollTable.js';
import { useState } from 'react';
import { OPERATIONS as OPS, type LookupOutput } from '../../shared/operations.js';
import { LOOKUP_TYPES } from '../../shared/payment-schemas.js';
import { formatSats } from '../components/format.js';
import { useSubmit } from '../components/useSubmit.js';
import { useSession } from '../state/store.js';

/** The balance a private key holds on the chain; the key is used for this one call and never stored. */
export function LookupView() {
  const call = useSession((s) => s.call);
  const [privateKey, setPrivateKey] = useState('');
  const [type, setType] = useState<(typeof LOOKUP_TYPES)[number]>('ALL');
  const [currency, setCurrency] = useState('USD');
  const [compact, setCompact] = useState(true);
  const [maxResults, setMaxResults] = useState<number | string>(19);
  const [result, setResult] = useState<LookupOutput | null>(null);
  const [pages, setPages] = useState<number[]>([0]);

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
            <PasswordInput
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
            <ScrollTable aria-label="Coins">
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
                    <Table.Td ff="monospace">{c.txid ? `${c.txid.slice(0, 16)}…:${c.vout}` : (c.tokenId ?? c.address ?? '')}</Table.Td>
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
    </Stack>
  );
}
