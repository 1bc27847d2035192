import type { MeOutput, ParsedInput, SessionOutput } from '../../../shared/operations.js';
import { decoyHash, hashPassword, verifyPassword } from '../auth/password.js';
import { issueSession } from '../auth/sessions.js';
import { newId } from '../auth/tokens.js';
import { callerOf, type OpContext } from '../context.js';
import { AppError } from '../errors.js';

/** First run: the organisation and its first admin, created together or not at all. */
export async function setup(ctx: OpContext, input: ParsedInput<'setup'>): Promise<SessionOutput> {
  const { services } = ctx;
  const { repos, db } = services;
  const refuse = () => new AppError('ALREADY_SET_UP', 'This Keystead is already set up. Log in instead.');
  if (repos.users.countActive() > 0) throw refuse();
  const passwordHash = await hashPassword(input.password);
  const now = services.now();
  const uid = newId();
  const serviceId = newId();
  // Checked again inside the transaction: two first-run requests may both have passed the check above.
  const session = db.transaction(() => {
    if (repos.organisation.get() || repos.users.countActive() > 0) throw refuse();
    repos.organisation.insert({ serviceId, name: input.organisation, createdAt: now });
    repos.users.insert({
      uid,
      email: input.email,
      passwordHash,
      role: 'admin',
      firstName: input.firstName ?? '',
      lastName: input.lastName ?? '',
      title: '',
      createdAt: now,
      updatedAt: now,
    });
    return issueSession(services, uid);
  })();
  ctx.caller = { uid, email: input.email, role: 'admin' }; // the audit entry names the new admin
  return { ...session, uid, role: 'admin', serviceId };
}

export async function login(ctx: OpContext, input: ParsedInput<'login'>): Promise<SessionOutput> {
  const { services, meta } = ctx;
  const keys = [`email:${input.email}`, `client:${meta.clientId}`];
  const wait = services.throttle.waitMs(keys);
  if (wait > 0) {
    const retryAfter = Math.ceil(wait / 1000);
    throw new AppError('RATE_LIMITED', `Too many failed logins. Try again in ${retryAfter} s.`, { retryAfter });
  }
  const user = services.repos.users.activeByEmail(input.email);
  // Always verify against some hash, so an unknown e-mail costs as long as a wrong password.
  const ok = await verifyPassword(input.password, user?.passwordHash ?? (await decoyHash()));
  if (!user || !ok) {
    services.throttle.fail(keys);
    throw new AppError('INVALID_CREDENTIALS', 'The e-mail or password is not correct.');
  }
  services.throttle.succeed([`email:${input.email}`]);
  const org = services.repos.organisation.get();
  const session = issueSession(services, user.uid);
  ctx.caller = { uid: user.uid, email: user.email, role: user.role }; // the audit entry names who signed in
  return { ...session, uid: user.uid, role: user.role, serviceId: org?.serviceId ?? '' };
}

export function logout(ctx: OpContext): { revoked: boolean } {
  const caller = callerOf(ctx);
  const revoked = caller.sessionHash ? ctx.services.repos.sessions.revoke(caller.sessionHash, ctx.services.now()) : false;
  return { revoked };
}

export function me(ctx: OpContext): MeOutput {
  const caller = callerOf(ctx);
  const user = ctx.services.repos.users.byUid(caller.uid)!;
  const org = ctx.services.repos.organisation.get();
  return {
    uid: user.uid,
    email: user.email,
    role: user.role,
    firstName: user.firstName,
    lastName: user.lastName,
    title: user.title,
    serviceId: org?.serviceId ?? '',
    organisation: org?.name ?? '',
  };
}

/** Changes the caller's own password and signs out their other sessions (this one stays). */
export async function changePassword(ctx: OpContext, input: ParsedInput<'changePassword'>): Promise<{ signedOutSessions: number }> {
  const caller = callerOf(ctx);
  const { repos, db } = ctx.services;
  const user = repos.users.byUid(caller.uid)!;
  if (!(await verifyPassword(input.currentPassword, user.passwordHash))) {
    throw new AppError('INVALID_CREDENTIALS', 'The current password is not correct.');
  }
  const passwordHash = await hashPassword(input.newPassword);
  const now = ctx.services.now();
  return db.transaction(() => {
    repos.users.setPassword(caller.uid, passwordHash, now);
    const signedOutSessions = caller.sessionHash
      ? repos.sessions.revokeOthersForUser(caller.uid, caller.sessionHash, now)
      : repos.sessions.revokeAllForUser(caller.uid, now);
    return { signedOutSessions };
  })();
}
