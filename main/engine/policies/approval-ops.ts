import type { z } from 'zod';
import type { approvalReview } from '../../../shared/contracts/approvals.js';
import { DomainError } from '../../../shared/errors.js';
import type { OPERATIONS } from '../../../shared/operations.js';
import type { OutputOf, ParsedInputOf } from '../../../shared/operation.js';
import type { ApprovalRow, ApprovalState } from '../../store/repos/approvals.js';
import { activeFactor, checkSecondFactor } from '../auth/second-factor.js';
import { callerOf, type Caller, type OpContext } from '../context.js';
import { listWords, roleWords } from '../../../shared/policy-words.js';
import type { Role } from '../../../shared/roles.js';
import { approvalExpiryHours, setApprovalExpiryHours } from './settings.js';
import type { PolicyServices } from './services.js';

type ApprovalOutput = OutputOf<typeof OPERATIONS.getApproval>;
type Review = z.infer<typeof approvalReview>;

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());

/** Whether the request's rule names `who` as an approver (by role, uid or e-mail). */
function named(row: ApprovalRow, who: Caller): boolean {
  return row.approverRoles.includes(who.role) || row.approverUids.some((u) => u === who.uid || u.toLowerCase() === who.email.toLowerCase());
}

type VoterServices = { repos: Pick<PolicyServices['repos'], 'approvals' | 'users'> };

/**
 * Whether `uid` held the role they have now before the request was made. An account made, or given its role,
 * after the request could have been made for it by its initiator (an admin makes a manager and approves their
 * own payment through it): its votes on that request do not count.
 */
function roleHeldBefore(services: VoterServices, row: ApprovalRow, uid: string): boolean {
  const since = services.repos.users.roleSince(uid);
  return since !== null && since <= row.createdAt;
}

/**
 * The approvals that stand now: each from someone still in the organisation whom the rule still names, in the
 * role they held before the request. A vote of an approver since removed or demoted no longer counts towards
 * the quorum (it may have been why they left).
 */
export function standingApprovals(services: VoterServices, row: ApprovalRow): number {
  return services.repos.approvals.votes(row.id).filter((v) => {
    if (v.vote !== 'approve') return false;
    const voter = services.repos.users.byUid(v.voterUid);
    return voter !== null && voter.deletedAt === null && named(row, voter) && roleHeldBefore(services, row, voter.uid);
  }).length;
}

/** Whether `who` may vote on a request: named by its rule in a role held before it, not its initiator, not voted yet. */
function mayVote(services: PolicyServices, row: ApprovalRow, who: Caller): boolean {
  if (row.state !== 'awaiting_approval' || who.uid === row.initiatorUid) return false;
  return (
    named(row, who) && roleHeldBefore(services, row, who.uid) && !services.repos.approvals.votes(row.id).some((v) => v.voterUid === who.uid)
  );
}

/**
 * An app's action (BRC-100, operation `brc100.…`) is never run by the engine: the app is not connected when the
 * last vote comes, and only it can build the action again. Approved, the request stays `approved` as an
 * allowance: the app's next identical action (same originator, wallet, user and reviewed outputs) passes the
 * policy once within APP_ALLOWANCE_MS (engine/apps/actions/scope.ts takes it and marks it `sent`).
 */
export const isAppAction = (operation: string) => operation.startsWith('brc100.');
export const APP_ALLOWANCE_MS = 24 * 3600_000;

/** Ends a request that stayed open past its expiry: nothing moves, its place in the windows is given back. */
export function expireOverdue(services: PolicyServices): void {
  const now = services.now();
  // An app's approved action not asked for again in time: the allowance ends, nothing moved.
  for (const row of services.repos.approvals.list('approved')) {
    if (!isAppAction(row.operation) || row.decidedAt === null || now - row.decidedAt <= APP_ALLOWANCE_MS) continue;
    const ended = services.db.transaction(() => {
      if (!services.repos.approvals.transition(row.id, 'approved', 'expired', null)) return false;
      services.repos.policies.releaseApproval(row.id);
      return true;
    })();
    if (ended) services.events.publish('approval', { approvalId: row.id, state: 'expired' }, { kind: 'everyone' });
  }
  for (const id of services.repos.approvals.expiredOpen(now)) {
    const ended = services.db.transaction(() => {
      if (!services.repos.approvals.transition(id, 'awaiting_approval', 'expired', now)) return false;
      services.repos.policies.releaseApproval(id);
      return true;
    })();
    if (ended) services.events.publish('approval', { approvalId: id, state: 'expired' }, { kind: 'everyone' });
  }
}

function output(services: PolicyServices, row: ApprovalRow, who: Caller | null): ApprovalOutput {
  const email = (uid: string) => services.repos.users.byUid(uid)?.email ?? null;
  const review = JSON.parse(row.review) as Review;
  const votes = services.repos.approvals.votes(row.id);
  const approverWords = [...row.approverRoles.map((r) => roleWords(r as Role)), ...row.approverUids];
  return {
    approvalId: row.id,
    state: row.state,
    review,
    initiator: { uid: row.initiatorUid, email: email(row.initiatorUid), apiKeyId: row.initiatorKey },
    rule: row.rule,
    words: `${row.needed} approval${row.needed === 1 ? '' : 's'} from ${listWords(approverWords)} (${row.rule} of policy version ${row.policyVersion})`,
    policyVersion: row.policyVersion,
    needed: row.needed,
    approverRoles: row.approverRoles,
    approverUsers: row.approverUids,
    votes: votes.map((v) => ({ uid: v.voterUid, email: email(v.voterUid), vote: v.vote, at: iso(v.at)! })),
    canVote: who !== null && mayVote(services, row, who),
    createdAt: iso(row.createdAt)!,
    expiresAt: iso(row.expiresAt)!,
    decidedAt: iso(row.decidedAt),
    txid: row.txid,
    error: row.error,
  };
}

/** A request the caller may see: admins and managers see all; others the ones they asked for or are named to approve. */
function visible(row: ApprovalRow, who: Caller): boolean {
  return who.role === 'admin' || who.role === 'manager' || row.initiatorUid === who.uid || named(row, who);
}

function load(services: PolicyServices, id: string, who: Caller): ApprovalRow {
  expireOverdue(services);
  const row = services.repos.approvals.byId(id);
  if (!row || !visible(row, who)) throw new DomainError('NOT_FOUND', `No payment awaiting approval has the id ${id}.`);
  return row;
}

export function listApprovals(
  ctx: OpContext<PolicyServices>,
  input: ParsedInputOf<typeof OPERATIONS.listApprovals>,
): OutputOf<typeof OPERATIONS.listApprovals> {
  const { services } = ctx;
  const who = callerOf(ctx);
  expireOverdue(services);
  const rows = services.repos.approvals.list(input.state as ApprovalState | 'all').filter((r) => visible(r, who));
  const awaitingMyVote = services.repos.approvals.list('awaiting_approval').filter((r) => mayVote(services, r, who)).length;
  return { approvals: rows.map((r) => output(services, r, who)), awaitingMyVote };
}

export function getApproval(ctx: OpContext<PolicyServices>, input: ParsedInputOf<typeof OPERATIONS.getApproval>): ApprovalOutput {
  const who = callerOf(ctx);
  return output(ctx.services, load(ctx.services, input.approvalId, who), who);
}

/** A vote is confirmed with a code when the voter has two-step sign-in. */
function confirmVoter(ctx: OpContext<PolicyServices>, who: Caller, otp: string | undefined): void {
  const factor = activeFactor(ctx.services, who.uid);
  if (!factor) return;
  if (!otp)
    throw new DomainError('OTP_REQUIRED', 'You have two-step sign-in: confirm your vote with the code from your authenticator app (otp).');
  checkSecondFactor(ctx.services, factor, otp, ctx.meta.clientId, { allowRecovery: false });
}

/** The CONFLICT a call answers when another call has the request already (claimed it, or holds its idempotency key). */
const IN_PROGRESS = 'This approved payment is already being carried out; its outcome will be settled. Wait for it, then look again.';

/** pay's answer (and a batch item's) to a second call under the idempotency key of a payment still in progress. */
const keyInProgress = (err: unknown) => err instanceof DomainError && err.code === 'CONFLICT' && /still in progress/.test(err.message);

/**
 * Ends the claim of a request (sending → `state`). Sent: counted as moved from now on, whichever of its moves
 * paid the reviewed outputs. Failed: nothing moved, its place in the windows is given back (unless `keep`).
 * Approved again: it keeps its place while it waits.
 */
function ended(
  services: PolicyServices,
  id: string,
  state: 'sent' | 'failed' | 'approved',
  extra: { txid?: string; error?: string } = {},
  keep = false,
): boolean {
  const moved = services.db.transaction(() => {
    if (!services.repos.approvals.transition(id, 'sending', state, state === 'approved' ? null : services.now(), extra)) return false;
    if (state === 'sent') services.repos.policies.holdApproval(id);
    if (state === 'failed' && !keep) services.repos.policies.releaseApproval(id);
    return true;
  })();
  if (moved) services.events.publish('approval', { approvalId: id, state }, { kind: 'everyone' });
  return moved;
}

/**
 * A request claimed (`sending`) whose call is gone, or whose operation failed: it follows the payment its
 * operation recorded. Sent (delivered, or the chain has it): `sent`, never failed. Still open: it stays
 * `sending` until the payment settles (settleSendingApprovals). Nothing recorded: `approved` again, to be sent
 * (or carried out on the next try) — unless its operation keeps no idempotency key and its coins were
 * reserved, when whether it was signed cannot be told: it ends `failed` and keeps its place in the windows.
 */
function follow(services: PolicyServices, row: ApprovalRow): void {
  const paid = services.repos.approvals.payment(row.id);
  if (paid.outcome === 'sent') ended(services, row.id, 'sent', paid.txid ? { txid: paid.txid } : {});
  else if (paid.outcome === 'open') return;
  else if (keyed(row) || !services.repos.approvals.moveReserved(row.id)) ended(services, row.id, 'approved');
  else
    ended(
      services,
      row.id,
      'failed',
      {
        error:
          'Keystead stopped while carrying this out and cannot tell whether it was sent; it still counts in the limits. Check the wallet’s history before asking again.',
      },
      true,
    );
}

/** Operations whose payments are found by the idempotency key the request runs under (pay, invoices, batches). */
const KEYED = new Set(['pay', 'payInvoice', 'send']);
const keyed = (row: ApprovalRow) => KEYED.has(row.operation);

/**
 * Requests left `sending` (a crash cut off the call carrying them out, or their payment was still open):
 * each follows its payment (follow). Run with the payments' settlement, at start and then every few seconds.
 */
export function settleSendingApprovals(services: PolicyServices): void {
  for (const row of services.repos.approvals.list('sending')) {
    if (services.carryingApprovals.has(row.id)) continue;
    try {
      follow(services, row);
    } catch (err) {
      services.logger.error(
        { approvalId: row.id, err: (err as Error).message },
        'settling an approved payment failed; it is tried again later',
      );
    }
  }
}

/**
 * Carries out an approved request once. False when another call claimed it first (nothing ran here). Only
 * the call that moves it from approved to sending runs it: a second one (a double click, the initiator's
 * send racing the last vote) never runs the operation again nor ends the request.
 */
async function carryOut(services: PolicyServices, row: ApprovalRow, secrets: { walletPassword?: string }): Promise<boolean> {
  // An app's action waits, approved, for the app to ask for it again (see isAppAction): nothing runs here.
  if (isAppAction(row.operation)) return true;
  // Approved, then an approver left or lost the role before it was sent: it waits for the votes it lacks now.
  if (standingApprovals(services, row) < row.needed) {
    services.repos.approvals.transition(row.id, 'approved', 'awaiting_approval', services.now());
    services.events.publish('approval', { approvalId: row.id, state: 'awaiting_approval' }, { kind: 'everyone' });
    throw new DomainError(
      'CONFLICT',
      'An approver of this payment has since left or lost the role, so it lacks an approval again; it waits for one more.',
    );
  }
  if (!services.repos.approvals.claim(row.id)) return false;
  services.carryingApprovals.add(row.id);
  try {
    const { txid } = await services.runApproved(row, secrets);
    ended(services, row.id, 'sent', txid ? { txid } : {});
    return true;
  } catch (err) {
    // A wallet that needs its password waits, approved, for its initiator to send it (the password is never
    // stored); a wrong password is the sender's to correct, not the approval's end.
    const locked = err instanceof DomainError && ['WALLET_LOCKED', 'PASSWORD_REQUIRED', 'WRONG_PASSWORD'].includes(err.code);
    if (locked) {
      ended(services, row.id, 'approved');
      if (secrets.walletPassword) throw err;
      return true;
    }
    // Another call holds its idempotency key: the payment is in progress there and this one is no failure.
    if (keyInProgress(err)) throw new DomainError('CONFLICT', IN_PROGRESS);
    // What the operation recorded decides: a payment it stored is followed (sent, or settled later), never failed.
    if (services.repos.approvals.payment(row.id).outcome !== 'none') {
      follow(services, services.repos.approvals.byId(row.id)!);
      return true;
    }
    const message = err instanceof DomainError ? err.message : 'Keystead could not send it (the error was logged).';
    if (!(err instanceof DomainError))
      services.logger.error({ approvalId: row.id, err: (err as Error).message }, 'an approved payment failed');
    ended(services, row.id, 'failed', { error: message });
    return true;
  } finally {
    services.carryingApprovals.delete(row.id);
  }
}

export async function approvePayment(
  ctx: OpContext<PolicyServices>,
  input: ParsedInputOf<typeof OPERATIONS.approvePayment>,
): Promise<ApprovalOutput> {
  const { services } = ctx;
  const who = callerOf(ctx);
  const row = load(services, input.approvalId, who);
  if (row.state !== 'awaiting_approval')
    throw new DomainError('CONFLICT', `This payment is ${row.state.replace('_', ' ')}; it takes no more votes.`);
  if (row.initiatorUid === who.uid) throw new DomainError('FORBIDDEN', 'You asked for this payment: your own approval does not count.');
  if (named(row, who) && !roleHeldBefore(services, row, who.uid))
    throw new DomainError(
      'FORBIDDEN',
      `Your account or its role is newer than this request (made ${new Date(row.createdAt).toISOString()}): only approvers who held their role before it was asked for may approve it.`,
    );
  if (!mayVote(services, row, who))
    throw new DomainError('FORBIDDEN', 'You are not among the approvers this payment needs, or you have voted on it already.');
  confirmVoter(ctx, who, input.otp);
  const now = services.now();
  const last = services.db.transaction(() => {
    if (!services.repos.approvals.vote(row.id, who.uid, 'approve', now))
      throw new DomainError('CONFLICT', 'You have voted on this payment already.');
    return (
      standingApprovals(services, row) >= row.needed && services.repos.approvals.transition(row.id, 'awaiting_approval', 'approved', now)
    );
  })();
  services.events.publish('approval', { approvalId: row.id, state: last ? 'approved' : 'awaiting_approval' }, { kind: 'everyone' });
  // The initiator's sendApproved may claim it first (it is approved from the vote's commit): the vote stands,
  // and the answer shows the request as that call left it.
  if (last)
    await carryOut(services, services.repos.approvals.byId(row.id)!, {}).catch((err: unknown) => {
      if (!(err instanceof DomainError && err.message === IN_PROGRESS)) throw err;
    });
  return output(services, services.repos.approvals.byId(row.id)!, who);
}

export function rejectPayment(ctx: OpContext<PolicyServices>, input: ParsedInputOf<typeof OPERATIONS.rejectPayment>): ApprovalOutput {
  const { services } = ctx;
  const who = callerOf(ctx);
  const row = load(services, input.approvalId, who);
  if (row.state !== 'awaiting_approval')
    throw new DomainError('CONFLICT', `This payment is ${row.state.replace('_', ' ')}; it takes no more votes.`);
  if (!mayVote(services, row, who))
    throw new DomainError('FORBIDDEN', 'You are not among the approvers this payment needs, or you have voted on it already.');
  confirmVoter(ctx, who, input.otp);
  const now = services.now();
  services.db.transaction(() => {
    services.repos.approvals.vote(row.id, who.uid, 'reject', now);
    if (
      !services.repos.approvals.transition(
        row.id,
        'awaiting_approval',
        'rejected',
        now,
        input.reason ? { error: `Rejected: ${input.reason}` } : {},
      )
    )
      throw new DomainError('CONFLICT', 'This payment was decided meanwhile.');
    services.repos.policies.releaseApproval(row.id);
  })();
  services.events.publish('approval', { approvalId: row.id, state: 'rejected' }, { kind: 'everyone' });
  return output(services, services.repos.approvals.byId(row.id)!, who);
}

export function cancelApproval(ctx: OpContext<PolicyServices>, input: ParsedInputOf<typeof OPERATIONS.cancelApproval>): ApprovalOutput {
  const { services } = ctx;
  const who = callerOf(ctx);
  const row = load(services, input.approvalId, who);
  if (row.initiatorUid !== who.uid) throw new DomainError('FORBIDDEN', 'Only who asked for this payment may cancel it.');
  const ended = services.db.transaction(() => {
    const done = services.repos.approvals.transition(row.id, 'awaiting_approval', 'cancelled', services.now());
    if (done) services.repos.policies.releaseApproval(row.id);
    return done;
  })();
  if (!ended)
    throw new DomainError(
      'CONFLICT',
      `This payment is ${services.repos.approvals.byId(row.id)!.state.replace('_', ' ')}; it can no longer be cancelled.`,
    );
  services.events.publish('approval', { approvalId: row.id, state: 'cancelled' }, { kind: 'everyone' });
  return output(services, services.repos.approvals.byId(row.id)!, who);
}

export async function sendApproved(
  ctx: OpContext<PolicyServices>,
  input: ParsedInputOf<typeof OPERATIONS.sendApproved>,
): Promise<ApprovalOutput> {
  const { services } = ctx;
  const who = callerOf(ctx);
  const row = load(services, input.approvalId, who);
  if (row.initiatorUid !== who.uid) throw new DomainError('FORBIDDEN', 'Only who asked for this payment may send it.');
  if (row.state === 'sending') throw new DomainError('CONFLICT', IN_PROGRESS);
  if (row.state !== 'approved')
    throw new DomainError('CONFLICT', `This payment is ${row.state.replace('_', ' ')}; only an approved one waiting to be sent can be.`);
  if (isAppAction(row.operation))
    throw new DomainError('CONFLICT', 'This is an app’s action: the app sends it when it asks for the same action again.');
  if (!(await carryOut(services, row, { walletPassword: input.walletPassword }))) {
    const now = services.repos.approvals.byId(row.id)!.state;
    if (now === 'sending') throw new DomainError('CONFLICT', IN_PROGRESS);
    throw new DomainError('CONFLICT', `This payment is ${now.replace('_', ' ')}; only an approved one waiting to be sent can be.`);
  }
  return output(services, services.repos.approvals.byId(row.id)!, who);
}

export function approvalSettings(
  ctx: OpContext<PolicyServices>,
  input: ParsedInputOf<typeof OPERATIONS.approvalSettings>,
): OutputOf<typeof OPERATIONS.approvalSettings> {
  if (input.expiryHours !== undefined) setApprovalExpiryHours(ctx.services, input.expiryHours);
  return { expiryHours: approvalExpiryHours(ctx.services) };
}
