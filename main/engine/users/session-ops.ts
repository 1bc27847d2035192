import { OPERATIONS, type MeOutput, type SessionOutput } from '../../../shared/operations.js';
import type { ParsedInputOf, OutputOf } from '../../../shared/operation.js';
import { decoyHash, hashPassword, verifyPassword } from '../auth/password.js';
import { issueSession } from '../auth/sessions.js';
import { newId } from '../auth/tokens.js';
import { accountKey } from '../auth/throttle.js';
import { clientKey } from '../client-key.js';
import { activeFactor, checkSecondFactor, OTP_FIELD } from '../auth/second-factor.js';
import { callerOf, type OpContext } from '../context.js';
import type { AuthServices } from '../auth/services.js';
import { DomainError } from '../../../shared/errors.js';

/** First run: the organisation and its first admin, created together or not at all. */
export async function setup(ctx: OpContext<AuthServices>, input: ParsedInputOf<typeof OPERATIONS.setup>): Promise<SessionOutput> {
  const { services } = ctx;
  const { repos, db } = services;
  const refuse = () => new DomainError('ALREADY_SET_UP', 'This Keystead is already set up. Log in instead.');
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

export async function login(
  ctx: OpContext<AuthServices>,
  input: ParsedInputOf<typeof OPERATIONS.login>,
): Promise<OutputOf<typeof OPERATIONS.login>> {
  const { services, meta } = ctx;
  // Admitted before the hash runs: parallel guesses wait like sequential ones.
  const account = accountKey(input.email);
  const ticket = services.throttle.admit([account, clientKey(meta.clientId)], 'Too many failed logins');
  let user;
  try {
    user = services.repos.users.activeByEmail(input.email);
    // Always verify against some hash, so an unknown e-mail costs as long as a wrong password.
    const ok = await verifyPassword(input.password, user?.passwordHash ?? (await decoyHash()));
    if (!user || !ok) {
      services.logger.warn({ client: meta.clientId }, 'a login failed');
      throw new DomainError('INVALID_CREDENTIALS', 'The e-mail or password is not correct.');
    }
    // The password was right; with a second factor the code decides (its guesses throttled on their own
    // keys). Until it passes, the password's earlier failures stand: only a whole sign-in clears them.
    const factor = activeFactor(services, user.uid);
    if (factor) {
      try {
        if (!input.otp) {
          throw new DomainError(
            'OTP_REQUIRED',
            'This account has two-step sign-in: send the current 6-digit code from your authenticator app (or a recovery code) in the otp field.',
            { field: OTP_FIELD },
          );
        }
        if (checkSecondFactor(services, factor, input.otp, meta.clientId, { allowRecovery: true }) === 'recovery')
          services.logger.info({ client: meta.clientId }, 'a sign-in used a recovery code');
      } catch (err) {
        ticket.succeed([]);
        throw err;
      }
    }
    ticket.succeed([account]);
  } finally {
    ticket.release();
  }
  const org = services.repos.organisation.get();
  const session = issueSession(services, user.uid);
  ctx.caller = { uid: user.uid, email: user.email, role: user.role }; // the audit entry names who signed in
  return { ...session, token: session.authToken, uid: user.uid, role: user.role, serviceId: org?.serviceId ?? '' };
}

export function logout(ctx: OpContext<AuthServices>): { revoked: boolean } {
  const caller = callerOf(ctx);
  const revoked = caller.sessionHash ? ctx.services.repos.sessions.revoke(caller.sessionHash, ctx.services.now()) : false;
  return { revoked };
}

export function me(ctx: OpContext<AuthServices>): MeOutput {
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

/**
 * Changes the caller's own password (the current one is checked under the same throttle as logins). Their
 * other sessions are signed out and, unless `keepApiKeys`, their API keys revoked: a password change is
 * what a user does when they fear someone else has their access.
 */
export async function changePassword(
  ctx: OpContext<AuthServices>,
  input: ParsedInputOf<typeof OPERATIONS.changePassword>,
): Promise<OutputOf<typeof OPERATIONS.changePassword>> {
  const caller = callerOf(ctx);
  const { repos, db, throttle } = ctx.services;
  const account = accountKey(caller.email);
  const ticket = throttle.admit([account], 'Too many wrong passwords');
  try {
    const user = repos.users.byUid(caller.uid)!;
    if (!(await verifyPassword(input.currentPassword, user.passwordHash)))
      throw new DomainError('WRONG_PASSWORD', 'The current password is not correct.');
    ticket.succeed([account]);
  } finally {
    ticket.release();
  }
  const passwordHash = await hashPassword(input.newPassword);
  const now = ctx.services.now();
  return db.transaction(() => {
    repos.users.setPassword(caller.uid, passwordHash, now);
    const signedOutSessions = caller.sessionHash
      ? repos.sessions.revokeOthersForUser(caller.uid, caller.sessionHash, now)
      : repos.sessions.revokeAllForUser(caller.uid, now);
    const revokedApiKeys = input.keepApiKeys
      ? []
      : repos.apiKeys.activeForUser(caller.uid).map((k) => ({ keyId: k.keyId, label: k.label }));
    if (!input.keepApiKeys) repos.apiKeys.revokeAllForUser(caller.uid, now);
    return { signedOutSessions, revokedApiKeys };
  })();
}
