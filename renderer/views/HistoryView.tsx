import { Alert, Badge, Button, Group, Select, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { HIDE_MEDIUM, HIDE_NARROW, ScrollTable, WhenNarrow } from '../components/ScrollTable.js';
import { useCallback, useEffect, useRef, useState } from 'react';
import { OPERATIONS as OPS, type HistoryEntry } from '../../shared/operations.js';
import { historyCsv } from './history-csv.js';
import { messageOf, LocalCheck } from '../components/errors.js';
import { formatSats, formatTime } from '../components/format.js';
import { Amount } from '../components/Amount.js';
import { CopyAction } from '../components/CopyField.js';
import { DIRECTION_COLORS, DIRECTION_WORDS, STATE_COLORS, stateDetail } from './history-words.js';
import { TransactionDetail } from './TransactionDetail.js';
import { PaymentRequests } from './history/PaymentRequests.js';
import { TokenMoves } from './history/TokenMoves.js';
import { useLiveReload } from '../components/useLive.js';
import { WalletSelect } from '../components/WalletSelect.js';
import { useSession } from '../state/store.js';
import { useWallets } from '../components/useWallets.js';

/** The state as words: "confirmed · 3 confirmations", "pending · not seen by the network yet", "failed". */
function StateCell({ e }: { e: HistoryEntry }) {
  const detail = stateDetail(e);
  return (
    <Stack gap={2}>
      <Badge color={STATE_COLORS[e.state]} data-testid={`state-${e.txid.slice(0, 8)}`}>
        {e.state}
      </Badge>
      {detail && (
        <Text size="xs" c={e.state === 'failed' ? 'red' : 'dimmed'}>
          {detail}
        </Text>
      )}
      {e.peerTxid && (
        <Text size="xs" c="orange" title={e.peerTxid}>
          receiver answered another txid ({e.peerTxid.slice(0, 8)}…)
        </Text>
      )}
    </Stack>
  );
}

const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * A wallet's transactions, newest first: amount (and the tokens a transfer moved), fee and who paid it,
 * counterparty, memo, confirmations; filters and CSV export.
 */
export function HistoryView() {
  const call = useSession((s) => s.call);
  const wallets = useWallets();
  const [walletId, setWalletId] = useState<string | null>(null);
  // The wallet the history is of (the default one until another is picked), as the API answered.
  const [shownWallet, setShownWallet] = useState<string | null>(null);
  const [entries, setEntries] = useState<HistoryEntry[]>([]);
  const [next, setNext] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [direction, setDirection] = useState<string>('all');
  const [stateFilter, setStateFilter] = useState<string>('all');
  const [from, setFrom] = useState(day(new Date(Date.now() - 30 * 86_400_000)));
  const [to, setTo] = useState(day(new Date()));
  const [exporting, setExporting] = useState(false);
  const [open, setOpen] = useState<string | null>(null);

  // Every transaction from `from` to `to` (inclusive), fetched page by page, newest first.
  const exportCsv = async () => {
    setExporting(true);
    try {
      const start = Date.parse(`${from}T00:00:00Z`);
      const end = Date.parse(`${to}T23:59:59.999Z`);
      if (Number.isNaN(start) || Number.isNaN(end) || start > end) throw new LocalCheck('Choose a start date on or before the end date.');
      if (walletId === null) throw new LocalCheck('There is no wallet to export yet.');
      const rows: HistoryEntry[] = [];
      for (let token: number | null = 0; token !== null;) {
        const r: { history: HistoryEntry[]; meta: { nextPageToken: number | null } } = await call(OPS.history, {
          walletId: walletId ?? undefined,
          nextPageToken: token,
          maxResults: 200,
        });
        rows.push(...r.history.filter((e) => Date.parse(e.time) >= start && Date.parse(e.time) <= end));
        const oldest: HistoryEntry | undefined = r.history[r.history.length - 1];
        token = oldest && Date.parse(oldest.time) < start ? null : r.meta.nextPageToken;
      }
      const link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob([historyCsv(rows)], { type: 'text/csv' }));
      link.download = `history-${from}-to-${to}.csv`;
      link.click();
      URL.revokeObjectURL(link.href);
      setError(null);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setExporting(false);
    }
  };

  // Answers can arrive out of order (a live reload of the last wallet after another was picked): only the
  // answer to the latest request is shown, never a stale wallet's rows under the new wallet's name.
  const latest = useRef(0);
  // Asked with no wallet the engine makes the user a default one: so the history waits for the wallet the list
  // picks, and a user with no wallet sees an empty history, not a wallet made behind their back.
  const load = useCallback(
    async (from: number) => {
      const ticket = ++latest.current;
      if (walletId === null) {
        setEntries([]);
        setShownWallet(null);
        setNext(null);
        return;
      }
      try {
        const r = await call(OPS.history, { walletId: walletId ?? undefined, nextPageToken: from, maxResults: 25 });
        if (ticket !== latest.current) return;
        setEntries((prev) => (from === 0 ? r.history : [...prev, ...r.history]));
        setShownWallet(r.walletID);
        setNext(r.meta.nextPageToken);
        setError(null);
      } catch (err) {
        if (ticket === latest.current) setError(messageOf(err));
      }
    },
    [call, walletId],
  );
  useEffect(() => {
    void load(0);
  }, [load]);
  const refresh = useCallback(() => void load(0), [load]);
  useLiveReload(['history'], refresh);

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Title order={2}>History</Title>
        <WalletSelect wallets={wallets.data} value={walletId} onChange={setWalletId} />
      </Group>
      <Group align="flex-end" gap="sm">
        <Select
          label="Direction"
          data={[{ value: 'all', label: 'all' }, ...(['in', 'out', 'self'] as const).map((d) => ({ value: d, label: DIRECTION_WORDS[d] }))]}
          value={direction}
          onChange={(v) => setDirection(v ?? 'all')}
          allowDeselect={false}
          w={110}
        />
        <Select
          label="State"
          data={['all', 'pending', 'confirmed', 'failed']}
          value={stateFilter}
          onChange={(v) => setStateFilter(v ?? 'all')}
          allowDeselect={false}
          w={130}
        />
        <TextInput label="From" type="date" value={from} onChange={(e) => setFrom(e.currentTarget.value)} w={160} />
        <TextInput label="To" type="date" value={to} onChange={(e) => setTo(e.currentTarget.value)} w={160} />
        <Button variant="default" onClick={() => void exportCsv()} loading={exporting}>
          Export CSV
        </Button>
      </Group>
      {error && <Alert color="red">{error}</Alert>}
      <PaymentRequests walletId={shownWallet} />
      {entries.length === 0 && !error && <Text c="dimmed">No transactions yet.</Text>}
      {entries.length > 0 && (
        <ScrollTable fit striped aria-label="History">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>When</Table.Th>
              <Table.Th className={HIDE_NARROW}>
                <VisuallyHidden>Direction</VisuallyHidden>
              </Table.Th>
              <Table.Th ta="right">Amount</Table.Th>
              <Table.Th className={HIDE_NARROW}>Fee</Table.Th>
              <Table.Th className={HIDE_MEDIUM}>Counterparty</Table.Th>
              <Table.Th className={HIDE_MEDIUM}>Memo</Table.Th>
              <Table.Th>State</Table.Th>
              <Table.Th>Transaction</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {entries
              .filter((e) => (direction === 'all' || e.direction === direction) && (stateFilter === 'all' || e.state === stateFilter))
              .map((e) => (
                <Table.Tr key={e.txid}>
                  <Table.Td>
                    {formatTime(e.time)}
                    {/* A narrow table has no direction column: the badge goes here. */}
                    <WhenNarrow>
                      <div>
                        <Badge color={DIRECTION_COLORS[e.direction]}>{DIRECTION_WORDS[e.direction]}</Badge>
                      </div>
                    </WhenNarrow>
                  </Table.Td>
                  <Table.Td className={HIDE_NARROW}>
                    <Badge color={DIRECTION_COLORS[e.direction]}>{DIRECTION_WORDS[e.direction]}</Badge>
                  </Table.Td>
                  <Table.Td ta="right">
                    <TokenMoves e={e} />
                    {(!e.tokens?.length || e.amount !== 0) && <Amount satoshis={e.amount} signed />}
                  </Table.Td>
                  <Table.Td className={HIDE_NARROW}>
                    {e.fee === null ? '—' : formatSats(e.fee)}
                    {e.feePaidBy === 'feeManager' && (
                      <Text size="xs" c="dimmed">
                        paid by the fee manager
                      </Text>
                    )}
                    {e.feePaidBy === 'wallet' && e.tokens?.length > 0 && (
                      <Text size="xs" c="dimmed">
                        paid by this wallet
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td className={HIDE_MEDIUM} style={{ overflowWrap: 'anywhere' }}>
                    {e.counterparty ?? '—'}
                  </Table.Td>
                  <Table.Td className={HIDE_MEDIUM} style={{ overflowWrap: 'anywhere' }}>
                    {e.memo ?? '—'}
                  </Table.Td>
                  <Table.Td>
                    <StateCell e={e} />
                  </Table.Td>
                  <Table.Td>
                    <Group gap={2} wrap="nowrap">
                      <Button
                        variant="subtle"
                        size="compact-xs"
                        ff="monospace"
                        onClick={() => setOpen(e.txid)}
                        aria-label={`Details of transaction ${e.txid}`}
                        title={e.txid}
                      >
                        {e.txid.slice(0, 10)}…
                      </Button>
                      <CopyAction label={`txid ${e.txid}`} value={e.txid} />
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
          </Table.Tbody>
        </ScrollTable>
      )}
      {open && <TransactionDetail walletId={walletId} txid={open} onClose={() => setOpen(null)} />}
      {next !== null && (
        <Button variant="default" onClick={() => void load(next)}>
          Load more
        </Button>
      )}
    </Stack>
  );
}
