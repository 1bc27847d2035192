import { DomainError } from '../../shared/errors.js';
import { canCall, type OperationName } from '../../shared/operations.js';
import type { approvalReview } from '../../shared/contracts/approvals.js';
import type { z } from 'zod';
import type { ApprovalRow } from '../store/repos/approvals.js';
import { recordAudit } from './audit/audit-log.js';
import { callScope, type Caller, type OpContext } from './context.js';
import type { Implementation } from './operation.js';
import { IMPLEMENTATIONS } from './operations.js';
import type { EngineServices } from './services.js';

/**
 * Carries out an approved request: the operation it recorded runs again with the recorded input, as its
 * initiator (with the role the initiator has now: one who lost the right to pay cannot have it sent), and
 * with the approval in the call scope, so the policy's check lets exactly the reviewed outputs through
 * (policies/authorise.ts). Audited as the initiator's call, naming the approval.
 */
export async function runApproved(
  services: EngineServices,
  request: ApprovalRow,
  secrets: { walletPassword?: string },
): Promise<{ txid: string | null }> {
  // An app's action (brc100.…) is not an operation the engine can run again: approved, it is an allowance the
  // app uses by asking for the same action (policies/approval-ops.ts's isAppAction, apps/actions/scope.ts), and
  // carryOut never gets here with one.
  if (request.operation.startsWith('brc100.'))
    throw new DomainError('CONFLICT', 'An app’s approved action is sent by the app when it asks for it again.');
  const name = request.operation as OperationName;
  const handler = IMPLEMENTATIONS[name] as unknown as Implementation | undefined;
  if (!handler) throw new DomainError('CONFLICT', `The approved operation ${request.operation} no longer exists.`);
  const user = services.repos.users.byUid(request.initiatorUid);
  if (!user || user.deletedAt !== null)
    throw new DomainError('CONFLICT', 'Who asked for this payment no longer has an account; it was not sent.');
  if (!canCall(user.role, name))
    throw new DomainError('ROLE_FORBIDDEN', `Who asked for this payment no longer may call ${name}; it was not sent.`);
  const caller: Caller = {
    uid: user.uid,
    email: user.email,
    role: user.role,
    ...(request.initiatorKey ? { apiKeyId: request.initiatorKey } : {}),
  };
  const ctx: OpContext<EngineServices> = { services, caller, meta: { clientId: `approval:${request.id}` } };
  const stored = JSON.parse(request.input) as Record<string, unknown>;
  const parsed = handler.contract.input.safeParse({
    ...stored,
    ...(secrets.walletPassword ? { walletPassword: secrets.walletPassword } : {}),
  });
  if (!parsed.success) throw new DomainError('CONFLICT', 'The approved request can no longer be read; it was not sent.');
  const review = JSON.parse(request.review) as z.infer<typeof approvalReview>;
  const approval = { approvalId: request.id, outputs: review.outputs, counterparty: review.counterparty, fee: review.fee ?? null };
  try {
    const output = (await callScope.run({ operation: name, input: parsed.data, caller, approval }, () =>
      handler.run(ctx, parsed.data),
    )) as {
      txid?: unknown;
    };
    recordAudit(ctx, {
      action: name,
      target: `${request.id}${typeof output?.txid === 'string' ? ` ${output.txid}` : ''}`,
      outcome: 'success',
      code: null,
    });
    return { txid: typeof output?.txid === 'string' ? output.txid : null };
  } catch (err) {
    recordAudit(ctx, { action: name, target: request.id, outcome: 'error', code: err instanceof DomainError ? err.code : 'INTERNAL' });
    throw err;
  }
}
