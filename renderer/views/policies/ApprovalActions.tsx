import { Alert, Button, Group, Modal, Stack, Table, Text, TextInput } from '@mantine/core';
import { PasswordField } from '../../components/PasswordField.js';
import { useState } from 'react';
import { OPERATIONS as OPS } from '../../../shared/operations.js';
import { ApiError } from '../../api/client.js';
import { LocalCheck } from '../../components/errors.js';
import { FormFooter } from '../../components/FormFooter.js';
import { notifySuccess } from '../../components/notify.js';
import { useSubmit } from '../../components/useSubmit.js';
import { useSession } from '../../state/store.js';
import { payeeWords, reviewAmount, type Approval, type NamedDestination } from './approval-words.js';

/**
 * Approving releases money: before the call is made, the voter confirms exactly what, to whom and from which
 * wallet (by its title: ids alone say nothing to a person, and every user's first wallet is "default").
 */
function ConfirmApproval({
  a,
  payees,
  last,
  busy,
  error,
  onConfirm,
  onClose,
}: {
  a: Approval;
  payees: readonly NamedDestination[];
  last: boolean;
  busy: boolean;
  error: string | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const r = a.review;
  const to = payeeWords(r, payees);
  const appAction = r.operation.startsWith('brc100.');
  const row = (label: string, value: string, testId: string) => (
    <Table.Tr>
      <Table.Th w={110}>{label}</Table.Th>
      <Table.Td data-testid={testId} style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Table.Td>
    </Table.Tr>
  );
  return (
    <Modal opened onClose={onClose} title="Approve this payment?" centered>
      <Stack>
        <Table variant="vertical" layout="fixed" withTableBorder>
          <Table.Tbody>
            {row('Amount', reviewAmount(r), 'confirm-approval-amount')}
            {row('To', to.join(', '), 'confirm-approval-payee')}
            {row('From wallet', `“${r.walletTitle}” (${r.walletID})`, 'confirm-approval-wallet')}
            {row('Asked by', a.initiator.email ?? a.initiator.uid, 'confirm-approval-initiator')}
          </Table.Tbody>
        </Table>
        <Text size="sm">
          {appAction
            ? 'Approving sends nothing now: it lets the app send exactly this action once, within 24 hours.'
            : last
              ? 'Yours is the last approval needed: the payment goes ahead as soon as you approve (a secure wallet’s then waits only for its password), and cannot be taken back.'
              : 'Your approval is recorded; the payment is sent once every approval it needs is given.'}
        </Text>
        <FormFooter
          error={error}
          onCancel={onClose}
          submitLabel={last && !appAction ? 'Approve and send' : 'Approve'}
          busy={busy}
          color="teal"
          onSubmit={onConfirm}
        />
      </Stack>
    </Modal>
  );
}

/** Approve (after a confirmation) or reject (with a code when the voter has two-step sign-in, or once the API asks for one). */
function Vote({ a, twoStep, payees, onDone }: { a: Approval; twoStep: boolean; payees: readonly NamedDestination[]; onDone: () => void }) {
  const call = useSession((s) => s.call);
  const [confirming, setConfirming] = useState(false);
  const [otp, setOtp] = useState('');
  const [reason, setReason] = useState('');
  const [askCode, setAskCode] = useState(false);
  const withCode = async (action: () => Promise<unknown>) => {
    if ((twoStep || askCode) && !otp.trim()) throw new LocalCheck('Enter the code from your authenticator app to confirm your vote.');
    try {
      await action();
    } catch (err) {
      if (err instanceof ApiError && err.code === 'OTP_REQUIRED') {
        // The code field is on the card: the confirmation gives way to it.
        setAskCode(true);
        setConfirming(false);
      }
      throw err;
    }
  };
  const approve = useSubmit(() =>
    withCode(async () => {
      const r = await call(OPS.approvePayment, { approvalId: a.approvalId, otp: otp.trim() || undefined });
      notifySuccess(
        r.state === 'sent'
          ? 'Approved: the payment was sent.'
          : r.state === 'sending'
            ? 'Approved: the payment is being sent.'
            : r.state === 'failed'
              ? 'Approved, but it failed.'
              : 'Approval recorded.',
      );
      setConfirming(false);
      onDone();
    }),
  );
  const reject = useSubmit(() =>
    withCode(async () => {
      await call(OPS.rejectPayment, { approvalId: a.approvalId, otp: otp.trim() || undefined, reason: reason.trim() || undefined });
      notifySuccess('Payment rejected: nothing moves.');
      onDone();
    }),
  );
  const error = (confirming ? null : approve.error) ?? reject.error;
  const votes = a.votes.filter((v) => v.vote === 'approve').length;
  return (
    <Stack gap="xs">
      <Group grow align="flex-start">
        {(twoStep || askCode) && (
          <TextInput
            label="Code from your authenticator app"
            value={otp}
            onChange={(e) => setOtp(e.currentTarget.value)}
            inputMode="numeric"
            autoComplete="one-time-code"
          />
        )}
        <TextInput label="Reason (if you reject)" value={reason} maxLength={300} onChange={(e) => setReason(e.currentTarget.value)} />
      </Group>
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Group>
        <Button
          color="teal"
          onClick={() => {
            // The code is asked for before the confirmation, not after it.
            if ((twoStep || askCode) && !otp.trim()) return void approve.run();
            approve.setError(null);
            setConfirming(true);
          }}
          loading={approve.busy}
        >
          Approve
        </Button>
        <Button color="red" variant="light" onClick={() => void reject.run()} loading={reject.busy}>
          Reject
        </Button>
      </Group>
      {confirming && (
        <ConfirmApproval
          a={a}
          payees={payees}
          last={votes + 1 >= a.needed}
          busy={approve.busy}
          error={approve.error}
          onConfirm={() => void approve.run()}
          onClose={() => setConfirming(false)}
        />
      )}
    </Stack>
  );
}

/** The initiator's part: withdraw a request, or send an approved one that waits for its wallet's password. */
function Initiator({ a, onDone }: { a: Approval; onDone: () => void }) {
  const call = useSession((s) => s.call);
  const [walletPassword, setWalletPassword] = useState('');
  const cancel = useSubmit(async () => {
    await call(OPS.cancelApproval, { approvalId: a.approvalId });
    notifySuccess('Payment cancelled: nothing moves.');
    onDone();
  });
  const send = useSubmit(async () => {
    const r = await call(OPS.sendApproved, { approvalId: a.approvalId, walletPassword });
    setWalletPassword('');
    if (r.state === 'sent') notifySuccess('The approved payment was sent.');
    else if (r.state === 'sending') notifySuccess('The approved payment is being sent.');
    onDone();
  });
  if (a.state === 'awaiting_approval')
    return (
      <Stack gap="xs">
        {cancel.error && (
          <Alert color="red" role="alert">
            {cancel.error}
          </Alert>
        )}
        <Group>
          <Button variant="default" onClick={() => void cancel.run()} loading={cancel.busy}>
            Cancel this payment
          </Button>
        </Group>
      </Stack>
    );
  if (a.state !== 'approved') return null;
  return (
    <form onSubmit={send.onSubmit}>
      <Stack gap="xs">
        <Alert color="blue">Approved. Its wallet needs its password to send it (the password was never stored with the request).</Alert>
        <PasswordField label="Wallet password" value={walletPassword} onChange={(e) => setWalletPassword(e.currentTarget.value)} required />
        {send.error && (
          <Alert color="red" role="alert">
            {send.error}
          </Alert>
        )}
        <Group>
          <Button type="submit" color="teal" loading={send.busy}>
            Send
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function ApprovalActions({
  a,
  myUid,
  twoStep,
  payees = [],
  onDone,
}: {
  a: Approval;
  myUid: string;
  twoStep: boolean;
  /** The payee book, to name who a payment goes to. */
  payees?: readonly NamedDestination[];
  onDone: () => void;
}) {
  if (a.canVote) return <Vote a={a} twoStep={twoStep} payees={payees} onDone={onDone} />;
  if (a.initiator.uid === myUid) return <Initiator a={a} onDone={onDone} />;
  return null;
}
