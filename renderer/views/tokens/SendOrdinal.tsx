import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { Bsv21Balance } from '../../../shared/contracts/ordinals.js';
import { OPERATIONS as OPS } from '../../../shared/operations.js';
import { LocalCheck } from '../../components/errors.js';
import { notifySuccess } from '../../components/notify.js';
import { useSubmit } from '../../components/useSubmit.js';
import { useSession } from '../../state/store.js';
import { PaymentAwaitingApproval, type AwaitingApproval } from '../policies/PaymentPolicy.js';
import { formatUnits, parseUnits } from './bsv21-amount.js';
import { rethrowUnlessAwaiting } from './swap-approval.js';

export type SendWhat = { kind: 'bsv21'; token: Bsv21Balance } | { kind: 'inscription'; outpoint: string };

/** Sends BSV-21 token units (change comes back to the wallet) or one inscription, to an address or a paymail; the fee is plain coins. */
export function SendOrdinal({
  walletId,
  what,
  onClose,
  onDone,
}: {
  walletId: string | null;
  what: SendWhat;
  onClose: () => void;
  onDone: () => void;
}) {
  const call = useSession((s) => s.call);
  const [to, setTo] = useState('');
  const [amount, setAmount] = useState('');
  const [awaiting, setAwaiting] = useState<AwaitingApproval | null>(null);
  // One key per dialog: a retried click sends at most once.
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const go = useSubmit(async () => {
    setAwaiting(null);
    let txid: string;
    if (what.kind === 'bsv21') {
      const units = parseUnits(amount, what.token.dec);
      if (!units) throw new LocalCheck(`Enter a positive amount with at most ${what.token.dec} decimals.`);
      const r = await call(OPS.sendBsv21, {
        walletId: walletId ?? undefined,
        tokenId: what.token.id,
        to: to.trim(),
        amount: units,
        idempotencyKey,
      }).catch(rethrowUnlessAwaiting(setAwaiting));
      if (!r) return;
      txid = r.txid;
    } else {
      const r = await call(OPS.sendInscription, { walletId: walletId ?? undefined, outpoint: what.outpoint, to: to.trim() }).catch(
        rethrowUnlessAwaiting(setAwaiting),
      );
      if (!r) return;
      txid = r.txid;
    }
    notifySuccess(`Sent: ${txid.slice(0, 12)}…`);
    onDone();
  });
  const title = what.kind === 'bsv21' ? `Send ${what.token.sym ?? 'BSV-21 tokens'}` : 'Send inscription';
  return (
    <Modal opened onClose={onClose} title={title}>
      <form onSubmit={go.onSubmit}>
        <Stack gap="sm">
          <TextInput
            label="Recipient"
            description="An address or a paymail"
            value={to}
            onChange={(e) => setTo(e.currentTarget.value)}
            required
            data-autofocus
          />
          {what.kind === 'bsv21' ? (
            <TextInput
              label="Amount"
              description={`You hold ${formatUnits(what.token.amount, what.token.dec)} (valid)`}
              value={amount}
              onChange={(e) => setAmount(e.currentTarget.value)}
              inputMode="decimal"
              required
            />
          ) : (
            <Text size="sm" c="dimmed">
              The inscription {what.outpoint} moves as it is, on its own 1-satoshi output.
            </Text>
          )}
          {go.error && (
            <Alert color="red" role="alert">
              {go.error}
            </Alert>
          )}
          {awaiting && <PaymentAwaitingApproval awaiting={awaiting} />}
          <Group>
            <Button type="submit" loading={go.busy} disabled={!!awaiting}>
              Send
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
