import { Alert, Anchor, Loader, Text } from '@mantine/core';
import { OPERATIONS as OPS } from '../../../shared/operations.js';
import { ApiError } from '../../api/client.js';
import { useLoad } from '../../components/useLoad.js';
import { useSession } from '../../state/store.js';

/** The policy's word on the payment being reviewed, before Confirm: allowed, refused (and why), or how many approvals it needs. */
export function PaymentPolicyPreview({
  walletId,
  outputs,
  paymail,
  reviewId,
}: {
  walletId: string | null;
  outputs: { script: string; satoshis: number }[];
  paymail: string | null;
  /** The review it is for: a new review asks again. */
  reviewId: string;
}) {
  const call = useSession((s) => s.call);
  const preview = useLoad(
    () =>
      call(OPS.previewPolicy, {
        walletId: walletId ?? undefined,
        outputs: outputs.map((o) => ({ script: o.script, satoshis: o.satoshis })),
        paymail: paymail ?? undefined,
      }),
    [reviewId],
  );
  if (preview.loading && !preview.data) return <Loader size="xs" />;
  if (preview.error) return <Text size="sm" c="dimmed">{`The policy's decision could not be shown: ${preview.error}`}</Text>;
  const p = preview.data;
  if (!p) return null;
  const color = p.decision === 'allow' ? 'gray' : p.decision === 'deny' ? 'red' : 'yellow';
  return (
    <Alert color={color} variant="light" title="Payment policy" data-testid="review-policy" data-decision={p.decision}>
      {p.words}
    </Alert>
  );
}

/** A payment's answer when the policy sends it for approval (202 APPROVAL_REQUIRED): its id, where to follow it. */
export interface AwaitingApproval {
  approvalId: string;
  message: string;
}

/** The awaiting-approval answer of a pay, or null for any other error (which is shown as one). */
export function awaitingApprovalOf(err: unknown): AwaitingApproval | null {
  if (!(err instanceof ApiError) || err.code !== 'APPROVAL_REQUIRED') return null;
  const approvalId = (err as ApiError & { approvalId?: unknown }).approvalId;
  return typeof approvalId === 'string' ? { approvalId, message: err.message } : null;
}

export function PaymentAwaitingApproval({ awaiting }: { awaiting: AwaitingApproval }) {
  return (
    <Alert color="yellow" title="Awaiting approval" data-testid="payment-awaiting-approval">
      <Text size="sm">{awaiting.message}</Text>
      <Text size="sm">
        Approval id{' '}
        <Text span ff="monospace" data-testid="awaiting-approval-id">
          {awaiting.approvalId}
        </Text>{' '}
        — follow it in <Anchor href="#/approvals">Approvals</Anchor>.
      </Text>
    </Alert>
  );
}
