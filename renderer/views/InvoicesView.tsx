import {
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useState } from 'react';
import { INVOICE_STATES } from '../../shared/contracts/invoices.js';
import { canCall, OPERATIONS as OPS, type InvoiceOutput } from '../../shared/operations.js';
import { Amount } from '../components/Amount.js';
import { AmountInput, amountOf, emptyAmount, type AmountField } from '../components/AmountInput.js';
import { ConfirmModal } from '../components/ConfirmModal.js';
import { CopyField } from '../components/CopyField.js';
import { QrCode } from '../components/QrCode.js';
import { HIDE_MEDIUM, HIDE_NARROW, ScrollTable, WhenNarrow } from '../components/ScrollTable.js';
import { useLiveReload } from '../components/useLive.js';
import { useLoad } from '../components/useLoad.js';
import { useSubmit } from '../components/useSubmit.js';
import { useWallets } from '../components/useWallets.js';
import { WalletSelect } from '../components/WalletSelect.js';
import { usePrefs, useSession } from '../state/store.js';
import { LocalCheck } from '../components/errors.js';

type State = InvoiceOutput['state'];

const STATE_COLORS: Record<State, string> = { open: 'blue', paid: 'teal', expired: 'gray', cancelled: 'red' };

const EXPIRIES = [
  { value: '15', label: '15 minutes' },
  { value: '60', label: '1 hour' },
  { value: '1440', label: '1 day' },
  { value: '10080', label: '7 days' },
  { value: '43200', label: '30 days' },
];

export function StateBadge({ state }: { state: State }) {
  return (
    <Badge color={STATE_COLORS[state]} variant="light" data-testid="invoice-state">
      {state}
    </Badge>
  );
}

/** One invoice to hand to the payer: its QR code, payment URI, id and what it asks. */
function InvoiceCard({ invoice }: { invoice: InvoiceOutput }) {
  return (
    <Paper withBorder p="lg" data-testid="invoice-card">
      <Group align="flex-start" gap="xl" wrap="nowrap">
        <QrCode value={invoice.uri} size={200} label={`QR code of the payment URI of invoice ${invoice.invoiceId}`} />
        <Stack gap="xs" style={{ minWidth: 0 }}>
          <Group gap="sm">
            <Amount satoshis={invoice.satoshis} inline />
            <StateBadge state={invoice.state} />
          </Group>
          {invoice.currency && (
            <Text size="sm" c="dimmed">
              Priced at {invoice.currency.amount} {invoice.currency.code} (1 BSV = {invoice.currency.rate} {invoice.currency.code})
            </Text>
          )}
          {invoice.memo && <Text>{invoice.memo}</Text>}
          <div>
            <Text size="sm" c="dimmed">
              Payment URI
            </Text>
            <CopyField label="Payment URI" value={invoice.uri} />
          </div>
          <div>
            <Text size="sm" c="dimmed">
              Invoice id (anyone holding it can read the invoice)
            </Text>
            <CopyField label="Invoice id" value={invoice.invoiceId} />
          </div>
          <Text size="sm" c="dimmed">
            To {invoice.walletTitle} · expires {new Date(invoice.expiresAt).toLocaleString()}
            {invoice.paidTxid ? ` · paid by ${invoice.paidTxid}` : ''}
          </Text>
        </Stack>
      </Group>
    </Paper>
  );
}

/** Payment requests: create one for a wallet, hand out its URI or QR code, see which are paid, cancel open ones. */
export function InvoicesView() {
  const call = useSession((s) => s.call);
  const role = useSession((s) => s.me?.role ?? null);
  const wallets = useWallets();
  const rates = usePrefs((s) => s.rates);
  const inputUnit = usePrefs((s) => s.inputUnit);
  const [walletId, setWalletId] = useState<string | null>(null);
  const [pricing, setPricing] = useState<'bsv' | 'currency'>('bsv');
  const [amount, setAmount] = useState<AmountField>(emptyAmount(inputUnit));
  const [currency, setCurrency] = useState<string | null>(null);
  const [currencyAmount, setCurrencyAmount] = useState('');
  const [memo, setMemo] = useState('');
  const [expiry, setExpiry] = useState('1440');
  const [filter, setFilter] = useState<State | null>(null);
  const [shown, setShown] = useState<InvoiceOutput | null>(null);
  const [cancelling, setCancelling] = useState<InvoiceOutput | null>(null);
  const mayCreate = canCall(role, OPS.createInvoice);

  const list = useLoad(() => call(OPS.listInvoices, { state: filter ?? undefined, maxResults: 200 }), [filter]);
  // A payment received (or its state changing) may pay an invoice.
  useLiveReload(['history'], () => void list.reload());
  const current = shown ? (list.data?.invoices.find((i) => i.invoiceId === shown.invoiceId) ?? shown) : null;

  const create = useSubmit(async () => {
    const priced =
      pricing === 'bsv'
        ? (() => {
            const { satoshis, error } = amountOf(amount);
            // Said under the Amount field only (it shows its own check already).
            if (error) throw new LocalCheck(error, { field: 'satoshis' });
            if (satoshis === null) throw new LocalCheck('Enter an amount.', { field: 'satoshis' });
            return { satoshis };
          })()
        : { amount: currencyAmount.trim(), currency: currency ?? undefined };
    const invoice = await call(OPS.createInvoice, {
      ...priced,
      walletId: walletId ?? undefined,
      memo: memo.trim() || undefined,
      expiresInMinutes: Number(expiry),
    });
    setShown(invoice);
    setAmount(emptyAmount(amount.unit));
    setCurrencyAmount('');
    setMemo('');
    await list.reload();
  }, ['amount', 'currency', 'memo', 'satoshis']);

  const currencies = Object.keys(rates).sort();

  return (
    <Stack>
      <Title order={2}>Invoices</Title>
      {mayCreate && (
        <Paper withBorder p="md" maw={760}>
          <form onSubmit={create.onSubmit}>
            <Stack gap="sm">
              <Title order={4}>New invoice</Title>
              <WalletSelect wallets={wallets.data} value={walletId} onChange={setWalletId} label="Pay into wallet" />
              <SegmentedControl
                value={pricing}
                onChange={(v) => setPricing(v as 'bsv' | 'currency')}
                data={[
                  { value: 'bsv', label: 'Amount in BSV' },
                  { value: 'currency', label: 'Amount in a currency' },
                ]}
                aria-label="How the amount is given"
              />
              {pricing === 'bsv' ? (
                <AmountInput label="Amount" value={amount} onChange={setAmount} required error={create.fieldErrors.satoshis} />
              ) : (
                <Group grow align="flex-start">
                  <TextInput
                    label="Amount"
                    description="Converted at today's rate when the invoice is created, then fixed"
                    value={currencyAmount}
                    onChange={(e) => setCurrencyAmount(e.currentTarget.value)}
                    error={create.fieldErrors.amount}
                    inputMode="decimal"
                    required
                  />
                  <Select
                    label="Currency"
                    data={currencies}
                    value={currency}
                    onChange={setCurrency}
                    error={create.fieldErrors.currency}
                    required
                  />
                </Group>
              )}
              <Group grow align="flex-start">
                <TextInput
                  label="Memo"
                  description="Shown to the payer"
                  value={memo}
                  onChange={(e) => setMemo(e.currentTarget.value)}
                  error={create.fieldErrors.memo}
                  maxLength={500}
                />
                <Select label="Expires after" data={EXPIRIES} value={expiry} onChange={(v) => v && setExpiry(v)} allowDeselect={false} />
              </Group>
              {create.error && (
                <Alert color="red" role="alert">
                  {create.error}
                </Alert>
              )}
              <Group>
                <Button type="submit" loading={create.busy}>
                  Create invoice
                </Button>
              </Group>
            </Stack>
          </form>
        </Paper>
      )}

      {current && <InvoiceCard invoice={current} />}

      <Paper withBorder p="md">
        <Group justify="space-between" mb="xs">
          <Title order={4}>Invoices</Title>
          <Select
            aria-label="Show invoices in state"
            placeholder="All states"
            data={INVOICE_STATES.map((s) => ({ value: s, label: s }))}
            value={filter}
            onChange={(v) => setFilter(v as State | null)}
            clearable
            w={180}
          />
        </Group>
        {list.error && <Alert color="red">{list.error}</Alert>}
        {list.data && list.data.invoices.length === 0 && <Text c="dimmed">No invoices yet.</Text>}
        {list.data && list.data.invoices.length > 0 && (
          <ScrollTable fit aria-label="Invoices">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Created</Table.Th>
                <Table.Th className={HIDE_NARROW}>Wallet</Table.Th>
                <Table.Th>Amount</Table.Th>
                <Table.Th className={HIDE_MEDIUM}>Memo</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th className={HIDE_MEDIUM}>Expires</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.invoices.map((i) => (
                <Table.Tr key={i.invoiceId} data-testid="invoice-row">
                  <Table.Td>
                    {new Date(i.createdAt).toLocaleString()}
                    {/* The columns a narrow table leaves out, said here. */}
                    <WhenNarrow below="medium">
                      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                        <WhenNarrow>{i.walletTitle} · </WhenNarrow>
                        {i.memo ? `${i.memo} · ` : ''}expires {new Date(i.expiresAt).toLocaleString()}
                      </Text>
                    </WhenNarrow>
                  </Table.Td>
                  <Table.Td className={HIDE_NARROW} style={{ overflowWrap: 'anywhere' }}>
                    {i.walletTitle}
                  </Table.Td>
                  <Table.Td>
                    <Amount satoshis={i.satoshis} />
                  </Table.Td>
                  <Table.Td className={HIDE_MEDIUM} style={{ overflowWrap: 'anywhere' }}>
                    {i.memo ?? ''}
                  </Table.Td>
                  <Table.Td>
                    <StateBadge state={i.state} />
                  </Table.Td>
                  <Table.Td className={HIDE_MEDIUM}>{new Date(i.expiresAt).toLocaleString()}</Table.Td>
                  <Table.Td>
                    {/* The buttons wrap onto a second line in a narrow table, never off its edge. */}
                    <Group gap="xs" justify="flex-end">
                      <Button size="xs" variant="default" onClick={() => setShown(i)}>
                        Show
                      </Button>
                      {i.state === 'open' && mayCreate && (
                        <Button size="xs" variant="subtle" color="red" onClick={() => setCancelling(i)}>
                          Cancel
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

      <ConfirmModal
        opened={cancelling !== null}
        title="Cancel this invoice?"
        confirmLabel="Cancel invoice"
        onClose={() => setCancelling(null)}
        onConfirm={async () => {
          if (!cancelling) return;
          await call(OPS.cancelInvoice, { invoiceId: cancelling.invoiceId });
          await list.reload();
        }}
      >
        A payment that arrives for it later is still booked to the wallet, but no longer marks the invoice paid.
      </ConfirmModal>
    </Stack>
  );
}
