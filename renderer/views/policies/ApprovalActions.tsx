import { Alert, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { OPERATIONS as OPS } from '../../../shared/operations.js';
import { ApiError } from '../../api/client.js';
import { LocalCheck } from '../../components/errors.js';
import { notifySuccess } from '../../components/notify.js';
import { useSubmit } from '../../components/useSubmit.js';
import { useSession } from '../../state/store.js';
import type { Approval } from './approval-words.js';

/** Approve or reject (with a code when the voter has two-step sign-in, or once the API asks for one). */
function Vote({ a, twoStep, onDone }: { a: Approval; twoStep: boolean; onDone: () => void }) {
  const call = useSession((s) => s.call);
  const [otp, setOtp] = useState('');
  const [reason, setReason] = useState('');
  const [askCode, setAskCode] = useState(false);
  const withCode = async (action: () => Promise<unknown>) => {
    if ((twoStep || askCode) && !otp.trim()) throw new LocalCheck('Enter the code from your authenticator app to confirm your vote.');
    try {
      await action();
    } catch (err) {
      if (err instanceof ApiError && err.code === 'OTP_REQUIRED') setAskCode(true);
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
  const error = approve.error ?? reject.error;
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
        <Button color="teal" onClick={() => void approve.run()} loading={approve.busy}>
          Approve
        </Button>
        <Button color="red" variant="light" onClick={() => void reject.run()} loading={reject.busy}>
          Reject
        </Button>
      </Group>
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
        <PasswordInput label="Wallet password" value={walletPassword} onChange={(e) => setWalletPassword(e.currentTarget.value)} required />
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

export function ApprovalActions({ a, myUid, twoStep, onDone }: { a: Approval; myUid: string; twoStep: boolean; onDone: () => void }) {
  if (a.canVote) return <Vote a={a} twoStep={twoStep} onDone={onDone} />;
  if (a.initiator.uid === myUid) return <Initiator a={a} onDone={onDone} />;
  return null;
}
