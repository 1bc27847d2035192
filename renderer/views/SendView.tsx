import { Alert, Button, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { PasswordField } from '../components/PasswordField.js';
import { useState } from 'react';
import { OPERATIONS as OPS, OPERATIONS, type PaymentRequest, type QuoteOutput } from '../../shared/operations.js';
import type { OutputOf } from '../../shared/operation.js';
import { CopyField } from '../components/CopyField.js';
import { PayeePick } from '../components/PayeePick.js';
import { formatBsv, formatFiat, formatSats } from '../components/format.js';
import { useSubmit } from '../components/useSubmit.js';
import { WalletSelect } from '../components/WalletSelect.js';
import { usePrefs, useSession } from '../state/store.js';
import { AmountInput, amountOf, emptyAmount, type AmountField } from '../components/AmountInput.js';
import { useWallets } from '../components/useWallets.js';
import { awaitingApprovalOf, PaymentAwaitingApproval, PaymentPolicyPreview, type AwaitingApproval } from './policies/PaymentPolicy.js';
import { LocalCheck } from '../components/errors.js';

/** What the person typed when they asked for a review; the review is only good for exactly this. */
interface Basis {
  uri: string;
  amount: AmountField;
  walletId: string | null;
}

interface Review {
  basis: Basis;
  request: PaymentRequest;
  quote: QuoteOutput;
  /** One key per confirmed review: a double click or a retry can never pay twice. */
  idempotencyKey: string;
}

/** "payto:alice@x.com?amount=…" → "alice@x.com"; null for an address or bitcoin: URI. */
function paymailOf(uri: string): string | null {
  const target = uri
    .trim()
    .replace(/^payto:/i, '')
    .split('?')[0];
  return /^[^@\s]+@[^@\s]+\.[^@\s]+$|^[^@\s]+@localhost$/i.test(target) ? target.toLowerCase() : null;
}

function Money({ satoshis, rate }: { satoshis: number; rate: QuoteOutput['rate'] }) {
  return (
    <>
      <b>{formatBsv(satoshis)} BSV</b> ({formatSats(satoshis)}
      {rate ? `, ${formatFiat(satoshis, rate)}` : ''})
    </>
  );
}

/** The API's fields as this form labels them, for its messages. */
const SEND_LABELS = { uri: 'Pay to', to: 'Pay to', walletId: 'From wallet', walletID: 'From wallet' };

/** Paste a payment URI, paymail or address → review exactly what will be sent → confirm once → txid. */
export function SendView() {
  const call = useSession((s) => s.call);
  const wallets = useWallets();
  const [uri, setUri] = useState('');
  const inputUnit = usePrefs((s) => s.inputUnit);
  const [amount, setAmount] = useState<AmountField>(emptyAmount(inputUnit));
  const [walletId, setWalletId] = useState<string | null>(null);
  const [walletPassword, setWalletPassword] = useState('');
  const [review, setReview] = useState<Review | null>(null);
  const [sent, setSent] = useState<OutputOf<typeof OPERATIONS.pay> | null>(null);
  const [awaiting, setAwaiting] = useState<AwaitingApproval | null>(null);
  const chosen = wallets.data?.find((w) => w.walletID === walletId) ?? null;

  // Any edit after a review makes it stale: it is dropped, and must be asked for again.
  const edit =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setReview(null);
    };

  const ask = useSubmit(
    async () => {
      setSent(null);
      setAwaiting(null);
      setReview(null);
      const basis = { uri, amount, walletId };
      const { satoshis, error } = amountOf(amount);
      // Said under the Amount field (which shows it already), not again in the form's alert.
      if (error) throw new LocalCheck(error, { field: 'amount' });
      const resolved = await call(OPS.resolveUri, { uri, amount: satoshis ?? undefined, walletId: walletId ?? undefined });
      const quote = await call(OPS.quotePayment, { ...resolved.data, walletId: walletId ?? undefined });
      setReview({ basis, request: resolved.data, quote, idempotencyKey: crypto.randomUUID() });
    },
    // A problem with what was typed in Pay to or Amount is said under that field.
    ['uri', 'amount'],
    SEND_LABELS,
  );
  const confirm = useSubmit(
    async () => {
      if (!review) return;
      const r = await call(OPS.pay, {
        ...review.request,
        walletId: review.basis.walletId ?? undefined,
        walletPassword: chosen?.type === 'secure' ? walletPassword : undefined,
        idempotencyKey: review.idempotencyKey,
        // Pays exactly what the review showed, or is refused.
        reviewId: review.quote.reviewId,
      }).catch((err: unknown) => {
        // The policy sent it for approval (202): not a failure; it is recorded and waits, so the form is done too.
        const waiting = awaitingApprovalOf(err);
        if (!waiting) throw err;
        setAwaiting(waiting);
        return null;
      });
      if (r) setSent(r);
      setReview(null);
      setUri('');
      setAmount(emptyAmount(amount.unit));
      setWalletPassword('');
      await wallets.reload();
    },
    [],
    SEND_LABELS,
  );
  const q = review?.quote;
  const paymail = review ? paymailOf(review.basis.uri) : null;

  return (
    <Stack maw={760}>
      <Title order={2}>Send</Title>
      <Paper withBorder p="md">
        <form onSubmit={ask.onSubmit}>
          <Stack gap="sm">
            <PayeePick destination={uri} onPick={edit(setUri)} />
            <TextInput
              label="Pay to"
              description="payto:alice@example.com?amount=10000&purpose=…, a paymail, bitcoin:<address>?amount=<BSV>, or an address"
              value={uri}
              onChange={(e) => edit(setUri)(e.currentTarget.value)}
              error={ask.fieldErrors.uri}
              required
            />
            <Group grow align="flex-start">
              <AmountInput label="Amount" value={amount} onChange={edit(setAmount)} error={ask.fieldErrors.amount} />
              <WalletSelect wallets={wallets.data} value={walletId} onChange={edit(setWalletId)} label="From wallet" />
            </Group>
            {ask.error && (
              <Alert color="red" role="alert">
                {ask.error}
              </Alert>
            )}
            <Group>
              <Button type="submit" loading={ask.busy} variant={review ? 'default' : 'filled'}>
                Review payment
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>

      {review && q && (
        <Paper withBorder p="md" data-testid="payment-review">
          <Stack gap="sm">
            <Title order={4}>Review</Title>
            <Table variant="vertical" layout="fixed" withTableBorder>
              <Table.Tbody>
                <Table.Tr>
                  <Table.Th w={160}>To</Table.Th>
                  <Table.Td data-testid="review-recipient">
                    {paymail && <Text fw={600}>{paymail}</Text>}
                    {q.recipients.map((r, i) => (
                      <Text key={i} size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
                        {r.address ?? 'a script output (not a plain address)'}
                        {q.recipients.length > 1 ? ` · ${formatBsv(r.satoshis)} BSV` : ''}
                      </Text>
                    ))}
                  </Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>Amount</Table.Th>
                  <Table.Td data-testid="review-amount">
                    <Money satoshis={q.amount} rate={q.rate} />
                  </Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>Network fee</Table.Th>
                  <Table.Td data-testid="review-fee">
                    {q.sufficient ? (
                      <>
                        {formatSats(q.fee)}, paid by {q.feePaidBy === 'feeManager' ? 'the fee manager' : 'this wallet'}
                      </>
                    ) : (
                      '—'
                    )}
                  </Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>From</Table.Th>
                  <Table.Td data-testid="review-wallet">
                    <Text fw={600}>{q.walletTitle}</Text>
                    <Text size="sm">
                      Available {formatBsv(q.available)} BSV{q.sufficient ? ` → ${formatBsv(q.availableAfter)} BSV after this payment` : ''}
                    </Text>
                  </Table.Td>
                </Table.Tr>
                {review.request.memo && (
                  <Table.Tr>
                    <Table.Th>Memo</Table.Th>
                    <Table.Td>{review.request.memo}</Table.Td>
                  </Table.Tr>
                )}
              </Table.Tbody>
            </Table>
            <Text size="sm" c="dimmed">
              {review.request.peerProtocol === 'paymail'
                ? 'Delivered directly to the receiver (paymail P2P), which broadcasts it; Keystead checks that the network sees it.'
                : 'Broadcast to the network.'}
            </Text>
            <PaymentPolicyPreview
              walletId={review.basis.walletId}
              outputs={q.recipients}
              paymail={paymail}
              reviewId={review.quote.reviewId}
            />
            {!q.sufficient && (
              <Alert color="red" role="alert" data-testid="review-problem">
                {q.problem}
              </Alert>
            )}
            {chosen?.type === 'secure' && (
              <PasswordField
                label="Wallet password"
                value={walletPassword}
                onChange={(e) => setWalletPassword(e.currentTarget.value)}
                required
              />
            )}
            {confirm.error && (
              <Alert color="red" role="alert">
                {confirm.error}
              </Alert>
            )}
            <Group>
              <Button color="teal" onClick={() => void confirm.run()} loading={confirm.busy} disabled={!q.sufficient || confirm.busy}>
                Confirm and send
              </Button>
              <Button variant="subtle" onClick={() => setReview(null)}>
                Cancel
              </Button>
            </Group>
          </Stack>
        </Paper>
      )}

      {awaiting && <PaymentAwaitingApproval awaiting={awaiting} />}
      {sent && (
        <Alert color="teal" title={sent.seenByChain ? 'Sent' : 'Sent — waiting for the network'} data-testid="payment-sent">
          <Stack gap={4}>
            <CopyField label="txid" value={sent.txid} />
            <Text size="sm">
              Fee {formatSats(sent.fee)}, paid by {sent.feePaidBy === 'feeManager' ? 'the fee manager' : 'the wallet'};{' '}
              {sent.delivered === 'p2p' ? 'delivered to the receiver' : 'broadcast'}.
            </Text>
            {!sent.seenByChain && (
              <Text size="sm">
                The receiver has the payment but the network has not shown it yet. It stays pending in History; if the receiver does not
                broadcast it soon, Keystead broadcasts it itself.
              </Text>
            )}
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}
