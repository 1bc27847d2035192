import { randomBytes } from 'node:crypto';
import { DomainError } from '../../../shared/errors.js';
import type { OPERATIONS } from '../../../shared/operations.js';
import type { OutputOf, ParsedInputOf } from '../../../shared/operation.js';
import { requireSession } from '../auth/api-key-ops.js';
import { hashPassword } from '../auth/password.js';
import type { AuthServices } from '../auth/services.js';
import { callerOf, type OpContext } from '../context.js';
import { LAST_ADMIN } from './manage.js';

export function signUp(): never {
  throw new DomainError(
    'SIGN_UP_CLOSED',
    "Keystead has no sign-up: an organisation's accounts are created by its admins (Users in the app, or POST /api/v1/createUser). Ask an admin for an account.",
  );
}

export function requestPasswordReset(): never {
  throw new DomainError(
    'PASSWORD_RESET_BY_ADMIN',
    'Keystead sends no e-mail. Signed in, change your password in Profile (POST /api/v1/changePassword); if you forgot it, ask an admin of your organisation to reset it (Users in the app, or POST /api/v1/resetPassword).',
  );
}

/** 16 random bytes as base64url: a password nobody chose, to be replaced by its user. */
const temporaryPassword = () => randomBytes(16).toString('base64url');

export async function resetPassword(
  ctx: OpContext<AuthServices>,
  input: ParsedInputOf<typeof OPERATIONS.resetPassword>,
): Promise<OutputOf<typeof OPERATIONS.resetPassword>> {
  const caller = callerOf(ctx);
  requireSession(ctx, "reset a user's password");
  if (input.userId === caller.uid) {
    throw new DomainError('VALIDATION_FAILED', 'userId: to change your own password, use Profile (POST /api/v1/changePassword).');
  }
  const { repos, db } = ctx.services;
  const password = temporaryPassword();
  const hash = await hashPassword(password);
  const signedOut = db.transaction(() => {
    const user = repos.users.byUid(input.userId);
    if (!user || user.deletedAt !== null) throw new DomainError('NOT_FOUND', `There is no user ${input.userId}.`);
    const now = ctx.services.now();
    repos.users.setPassword(user.uid, hash, now);
    repos.apiKeys.revokeAllForUser(user.uid, now);
    return { email: user.email, sessions: repos.sessions.revokeAllForUser(user.uid, now) };
  })();
  return { userId: input.userId, email: signedOut.email, temporaryPassword: password, signedOutSessions: signedOut.sessions };
}

export function deleteAccount(ctx: OpContext<AuthServices>): OutputOf<typeof OPERATIONS.deleteAccount> {
  const caller = callerOf(ctx);
  requireSession(ctx, 'delete your account');
  const { repos, db } = ctx.services;
  db.transaction(() => {
    if (caller.role === 'admin' && repos.users.countActiveAdmins() <= 1) throw new DomainError('CONFLICT', LAST_ADMIN);
    const now = ctx.services.now();
    repos.users.softDelete(caller.uid, now);
    repos.sessions.revokeAllForUser(caller.uid, now);
    repos.apiKeys.revokeAllForUser(caller.uid, now);
  })();
  return { uid: caller.uid, deleted: true };
}
