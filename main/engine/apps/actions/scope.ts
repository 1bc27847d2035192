import { DomainError } from '../../../../shared/errors.js';

import type { ApprovalRow } from '../../../store/repos/approvals.js';
import { callScope, type ApprovedCall, type Caller } from '../../context.js';
import { leavingOutputs } from '../../policies/authorise.js';
import { allowerOf } from '../allower.js';
import type { AppCall } from '../call.js';
import { invalidOperation, unauthorized, WalletErr } from '../werr.js';

/**
 * An app's action moves value as the user who allowed the app: the organisation's policy (limits, approvals,
 * initiator rules) judges it as that user's, through the call scope the policy's check reads.
 *
 * Approvals of an app's action. When the policy sends an action for approval, the request (operation
 * `brc100.createAction` or `brc100.signAction`, its input naming the app's originator) waits for the approvers
 * and the app is answered WERR_UNAUTHORIZED naming the approval id. The approvers' last vote runs nothing (the
 * app is no longer connected, and only the app can build the action again): the request stays `approved`, an
 * allowance for that one action. The app's next action from the same originator and wallet, asked for as the
 * same user, that pays exactly the reviewed outputs (scripts and satoshis) within ALLOWANCE_MS of the decision
 * passes the policy's check once, as an approved call (context.ts's ApprovedCall, checked in
 * policies/authorise.ts): the allowance is taken (`sent`, with the action's txid) before the move is judged, so
 * two identical calls never both use it, and given back if the action is not recorded. Any other action (other
 * outputs, another app or wallet, a third identical one) is judged by the policy on its own. An allowance not
 * used in time expires (policies/approval-ops.ts).
 */
import { APP_ALLOWANCE_MS as ALLOWANCE_MS, standingApprovals } from '../../policies/approval-ops.js';

/** The outputs that leave the wallet, as the policy reviewed them (policies/authorise.ts's one rule). */
function leaving(call: AppCall, outputs: readonly { script: string; satoshis: number }[]): string[] {
  return leavingOutputs(call.services, { kind: 'app-action', wallet: call.wallet, outputs, tokenId: null })
    .map((o) => `${o.script}:${o.satoshis}`)
    .sort();
}

const originatorOf = (row: ApprovalRow): string | null => {
  try {
    const o = (JSON.parse(row.input) as { originator?: unknown }).originator;
    return typeof o === 'string' ? o : null;
  } catch {
    return null;
  }
};

/** An approved, unused allowance for exactly this action of this app, taken (`sent`) by this call; null if none. */
function takeAllowance(call: AppCall, uid: string, outputs: readonly { script: string; satoshis: number }[]): ApprovalRow | null {
  const { repos, now } = call.services;
  const mine = leaving(call, outputs);
  if (!mine.length) return null;
  const t = now();
  for (const row of repos.approvals.list('approved')) {
    if (!row.operation.startsWith('brc100.') || row.walletRow !== call.wallet.id || row.initiatorUid !== uid) continue;
    if (originatorOf(row) !== call.app.originator || row.decidedAt === null || t - row.decidedAt > ALLOWANCE_MS) continue;
    const review = JSON.parse(row.review) as { outputs: { script: string; satoshis: number }[] };
    const reviewed = review.outputs.map((o) => `${o.script}:${o.satoshis}`).sort();
    if (reviewed.length !== mine.length || reviewed.some((v, i) => v !== mine[i])) continue;
    // An approver since removed or demoted: the allowance waits again for the approval it now lacks.
    if (standingApprovals(call.services, row) < row.needed) {
      repos.approvals.transition(row.id, 'approved', 'awaiting_approval', t);
      continue;
    }
    // Taken at once (synchronously, so a second identical call never finds it approved too).
    if (repos.approvals.transition(row.id, 'approved', 'sent', t)) return row;
  }
  return null;
}

/**
 * Runs the action's value move in the allowing user's scope. `outputs` are the action's outputs (script,
 * satoshis): an approved allowance for exactly them is used once (see above).
 */
export async function inAllowingUserScope<T extends { submission: { result: { txid: string } } }>(
  call: AppCall,
  operation: string,
  input: object,
  fn: () => Promise<T>,
  outputs: readonly { script: string; satoshis: number }[] = [],
): Promise<T> {
  const { repos, now, events } = call.services;
  const user = allowerOf(repos, call.app);
  const caller: Caller = { uid: user.uid, email: user.email, role: user.role };
  const allowance = takeAllowance(call, user.uid, outputs);
  const review = allowance
    ? (JSON.parse(allowance.review) as { outputs: ApprovedCall['outputs']; counterparty: string | null; fee?: number | null })
    : null;
  // The reviewed fee goes with the allowance: a rate risen since may not make it pay much more (authorise.ts).
  const approval: ApprovedCall | null =
    allowance && review
      ? { approvalId: allowance.id, outputs: review.outputs, counterparty: review.counterparty, fee: review.fee ?? null }
      : null;
  try {
    // The originator goes with the input: a request awaiting approval keeps it, and its allowance names the app.
    // The approvers' review shows the app's name with what it said the action is for.
    const said = input as { memo?: unknown; description?: unknown };
    const memo = `${call.app.originator}: ${typeof said.memo === 'string' ? said.memo : typeof said.description === 'string' ? said.description : ''}`;
    const scoped = { ...input, originator: call.app.originator, memo };
    const result = await callScope.run({ operation, input: scoped, caller, approval }, fn);
    if (allowance) {
      repos.approvals.transition(allowance.id, 'sent', 'sent', now(), { txid: result.submission.result.txid });
      events.publish('approval', { approvalId: allowance.id, state: 'sent' }, { kind: 'everyone' });
    }
    return result;
  } catch (err) {
    // Not recorded: the allowance is the app's to use again (its decision time unchanged).
    if (allowance) repos.approvals.transition(allowance.id, 'sent', 'approved', allowance.decidedAt!);
    throw err;
  }
}

/** Keystead's errors on the way out to an app, in the reference's WERR shapes (what HTTPWalletJSON understands). */
export function asWalletErr(err: unknown): unknown {
  if (err instanceof WalletErr || !(err instanceof DomainError)) return err;
  switch (err.code) {
    case 'POLICY_DENIED':
      return unauthorized(err.message);
    case 'APPROVAL_REQUIRED':
      // The request is recorded for the approvers to see; nothing was reserved, signed or sent. Once approved,
      // the same action asked for again passes once (see inAllowingUserScope).
      return unauthorized(
        `This action awaits approval by the organisation (${String(err.details.approvalId ?? '')}): ${err.message} Once it is approved, ask for the same action again.`,
      );
    case 'APPROVAL_MISMATCH':
    case 'INSUFFICIENT_FUNDS':
    case 'CONFLICT':
    case 'BUSY':
    case 'CHAIN_UNAVAILABLE':
    case 'PAYMENT_REJECTED':
      return invalidOperation(err.message);
    default:
      return err;
  }
}
