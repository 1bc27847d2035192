import { APPROVAL_ID_PREFIX } from '../../../shared/contracts/approvals.js';
import { DomainError } from '../../../shared/errors.js';
import { callScope } from '../context.js';

/**
 * An approved request runs again under its approval's id as its idempotency key (policies/authorise.ts), and
 * the approval reads as sent with whatever payment holds that key. A caller's own payment under such a key
 * would then stand for the approval: the approval marked sent with another transaction, and the reviewed
 * payment never made. So keys beginning with the approval prefix are the engine's own, taken only by the run
 * of the approval they name.
 */
export function refuseReservedKey(key: string): void {
  if (!key.startsWith(APPROVAL_ID_PREFIX)) return;
  if (callScope.getStore()?.approval?.approvalId === key) return;
  throw new DomainError(
    'VALIDATION_FAILED',
    `idempotencyKey: keys beginning "${APPROVAL_ID_PREFIX}" are kept for approved requests; choose another key.`,
  );
}
