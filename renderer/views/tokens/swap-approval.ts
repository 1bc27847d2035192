import { awaitingApprovalOf, type AwaitingApproval } from '../policies/PaymentPolicy.js';

/**
 * A swap or offer the policy sent for approval answers like a pay does: the item's error carries code
 * APPROVAL_REQUIRED and the request's `approvalId`. That is a state to show, not a failure.
 */
export function waitingOf(errors: readonly { code: string; msg: string; approvalId?: string }[]): AwaitingApproval | null {
  const e = errors.find((x) => x.code === 'APPROVAL_REQUIRED' && x.approvalId);
  return e ? { approvalId: e.approvalId!, message: e.msg } : null;
}

/** For a call's catch: a whole call sent for approval (202) is shown as waiting and answers null; any other error is rethrown. */
export const rethrowUnlessAwaiting =
  (show: (a: AwaitingApproval) => void) =>
  (err: unknown): null => {
    const waiting = awaitingApprovalOf(err);
    if (!waiting) throw err;
    show(waiting);
    return null;
  };
