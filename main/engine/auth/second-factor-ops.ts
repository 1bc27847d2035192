import { randomBytes } from 'node:crypto';
import type { OutputOf, ParsedInputOf } from '../../../shared/operation.js';
import { OPERATIONS } from '../../../shared/operations.js';
import { DomainError } from '../../../shared/errors.js';
import { callerOf, type Caller, type OpContext } from '../context.js';
import { requireSession } from './api-key-ops.js';
import { activeFactor, checkSecondFactor, hashRecoveryCode, newRecoveryCode, RECOVERY_CODE_COUNT } from './second-factor.js';
import type { AuthServices } from './services.js';
import { base32Encode, otpauthUri, SECRET_BYTES, TOTP_DEFAULTS } from './totp.js';

type Ctx = OpContext<AuthServices>;
type Out<N extends keyof typeof OPERATIONS> = OutputOf<(typeof OPERATIONS)[N]>;
type In<N extends keyof typeof OPERATIONS> = ParsedInputOf<(typeof OPERATIONS)[N]>;

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
const ALREADY_ON = 'Two-step sign-in is already on. Turn it off first to move it to another authenticator app.';
const notEnrolled = () =>
  new DomainError('OTP_NOT_ENROLLED', 'Two-step sign-in is not on for this account. Turn it on in Profile → Two-step sign-in first.');

export function twoStepStatus(ctx: Ctx): Out<'twoStepStatus'> {
  const { uid } = callerOf(ctx);
  const f = ctx.services.repos.secondFactors.byUid(uid);
  const enabled = f?.state === 'active';
  return {
    enabled,
    pending: f?.state === 'pending',
    enabledAt: enabled ? iso(f.confirmedAt) : null,
    recoveryCodesLeft: enabled ? ctx.services.repos.secondFactors.unusedRecoveryCodes(uid) : 0,
  };
}

/**
 * Step one of two: a new secret, kept as pending. Sign-in does not ask for a code until a first code
 * from the app confirms it, so a user who scanned nothing (or the wrong thing) cannot lock themselves out.
 * Starting again replaces a pending secret; an active one is only replaced by turning it off first.
 */
export function startTwoStep(ctx: Ctx): Out<'startTwoStep'> {
  requireSession(ctx, 'change two-step sign-in');
  const caller = callerOf(ctx);
  const { repos, db, now } = ctx.services;
  const secret = base32Encode(randomBytes(SECRET_BYTES));
  db.transaction(() => {
    if (!repos.secondFactors.putPending(caller.uid, secret, now())) throw new DomainError('CONFLICT', ALREADY_ON);
  })();
  const org = repos.organisation.get();
  const issuer = org ? `Keystead (${org.name})` : 'Keystead';
  return {
    secret,
    otpauthUri: otpauthUri({ issuer, account: caller.email, secret }),
    issuer,
    account: caller.email,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_DEFAULTS.period as 30,
  };
}

/** Step two: a valid code from the app turns it on, and the recovery codes are made (shown this once). */
export function confirmTwoStep(ctx: Ctx, input: In<'confirmTwoStep'>): Out<'confirmTwoStep'> {
  requireSession(ctx, 'change two-step sign-in');
  const caller = callerOf(ctx);
  const { repos, db, now } = ctx.services;
  const pending = repos.secondFactors.byUid(caller.uid);
  if (pending?.state === 'active') throw new DomainError('CONFLICT', ALREADY_ON);
  if (!pending) throw new DomainError('OTP_NOT_ENROLLED', 'There is no enrolment to confirm. Start one first (startTwoStep).');
  checkSecondFactor(ctx.services, pending, input.otp, ctx.meta.clientId, { allowRecovery: false });
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  db.transaction(() => {
    // A restart of the enrolment meanwhile replaced the secret this code was checked against.
    const still = repos.secondFactors.byUid(caller.uid);
    if (!still || still.secret !== pending.secret || !repos.secondFactors.activate(caller.uid, now()))
      throw new DomainError('CONFLICT', 'The enrolment changed meanwhile (started again elsewhere). Start it again.');
    repos.secondFactors.setRecoveryCodes(
      caller.uid,
      recoveryCodes.map((c) => hashRecoveryCode(caller.uid, c.replace(/-/g, ''))),
    );
  })();
  return { enabled: true, recoveryCodes };
}

/** Turning it off asks for what signing in asks for: a current code or a recovery code. */
export function disableTwoStep(ctx: Ctx, input: In<'disableTwoStep'>): Out<'disableTwoStep'> {
  requireSession(ctx, 'change two-step sign-in');
  const caller = callerOf(ctx);
  const { repos, db } = ctx.services;
  const f = repos.secondFactors.byUid(caller.uid);
  if (!f) throw notEnrolled();
  // An enrolment never confirmed protects nothing yet: cancelling it needs no code.
  if (f.state === 'active') checkSecondFactor(ctx.services, f, input.otp, ctx.meta.clientId, { allowRecovery: true });
  db.transaction(() => repos.secondFactors.remove(caller.uid))();
  return { enabled: false };
}

/** The public service's OTP methods name a recipient; here a code is only ever the caller's own. */
function checkTarget(caller: Caller, to: string | undefined): void {
  if (to === undefined || to === '') return;
  if (to.toLowerCase() === caller.email.toLowerCase() || to === caller.uid) return;
  throw new DomainError('FORBIDDEN', `Keystead checks only your own codes: to must be your e-mail (${caller.email}) or be left out.`);
}

export function validateOtp(ctx: Ctx, input: In<'validateOtp'>): Out<'validateOtp'> {
  const caller = callerOf(ctx);
  checkTarget(caller, input.to);
  const f = activeFactor(ctx.services, caller.uid);
  if (!f) throw notEnrolled();
  checkSecondFactor(ctx.services, f, input.otp, ctx.meta.clientId, { allowRecovery: false });
  return { valid: true, email: caller.email, uid: caller.uid };
}

export function sendOtp(ctx: Ctx, input: In<'sendOtp'>): Out<'sendOtp'> {
  const caller = callerOf(ctx);
  checkTarget(caller, input.to);
  if (!activeFactor(ctx.services, caller.uid)) throw notEnrolled();
  return { sent: false, method: 'totp', email: caller.email };
}

export function listTwoStep(ctx: Ctx): Out<'listTwoStep'> {
  return { users: ctx.services.repos.secondFactors.listActive().map((u) => ({ uid: u.uid, enabledAt: iso(u.confirmedAt)! })) };
}

/** An admin's reset: the user signs in with the password alone until they enrol again. */
export function resetTwoStep(ctx: Ctx, input: In<'resetTwoStep'>): Out<'resetTwoStep'> {
  const { repos, db } = ctx.services;
  const reset = db.transaction(() => {
    const user = repos.users.byUid(input.userId);
    if (!user || user.deletedAt !== null) throw new DomainError('NOT_FOUND', `There is no user ${input.userId}.`);
    const wasOn = repos.secondFactors.byUid(user.uid)?.state === 'active';
    repos.secondFactors.remove(user.uid);
    return wasOn;
  })();
  return { userId: input.userId, reset };
}
