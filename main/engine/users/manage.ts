import { OPERATIONS } from '../../../shared/operations.js';
import type { ParsedInputOf, OutputOf } from '../../../shared/operation.js';
import { requireSession } from '../auth/api-key-ops.js';
import { hashPassword } from '../auth/password.js';
import { newId } from '../auth/tokens.js';
import type { OpContext } from '../context.js';
import type { AuthServices } from '../auth/services.js';
import { DomainError } from '../../../shared/errors.js';
import { toUserOutput } from './user-output.js';

export const LAST_ADMIN = 'The organisation must keep at least one admin. Make another user admin first.';

/**
 * Managing users needs a session (a sign-in with the password), as minting API keys does: a key could
 * otherwise make a user with a password of its choosing (an admin, with an admin's key) and sign in as them,
 * a credential that outlives the key's revocation; or demote and remove the other admins that four-eyes
 * rests on.
 */
const USERS_NEED_SESSION = 'manage users';

export async function createUser(
  ctx: OpContext<AuthServices>,
  input: ParsedInputOf<typeof OPERATIONS.createUser>,
): Promise<OutputOf<typeof OPERATIONS.createUser>> {
  requireSession(ctx, USERS_NEED_SESSION);
  const { repos, db } = ctx.services;
  const taken = () => new DomainError('CONFLICT', `A user with the e-mail ${input.email} already exists.`);
  if (repos.users.activeByEmail(input.email)) throw taken();
  const passwordHash = await hashPassword(input.password);
  const now = ctx.services.now();
  const uid = newId();
  db.transaction(() => {
    if (repos.users.activeByEmail(input.email)) throw taken(); // a concurrent create may have won meanwhile
    repos.users.insert({
      uid,
      email: input.email,
      passwordHash,
      role: input.role,
      firstName: input.firstName,
      lastName: input.lastName,
      title: input.title,
      createdAt: now,
      updatedAt: now,
    });
  })();
  return { uid, email: input.email, role: input.role };
}

export function updateUser(
  ctx: OpContext<AuthServices>,
  input: ParsedInputOf<typeof OPERATIONS.updateUser>,
): OutputOf<typeof OPERATIONS.updateUser> {
  requireSession(ctx, USERS_NEED_SESSION);
  const { repos, db } = ctx.services;
  return db.transaction(() => {
    const user = repos.users.byUid(input.userId);
    if (!user || user.deletedAt !== null) throw new DomainError('NOT_FOUND', `There is no user ${input.userId}.`);
    const role = input.role ?? user.role;
    if (user.role === 'admin' && role !== 'admin' && repos.users.countActiveAdmins() <= 1) throw new DomainError('CONFLICT', LAST_ADMIN);
    const updatedAt = ctx.services.now();
    const next = {
      ...user,
      role,
      firstName: input.firstName ?? user.firstName,
      lastName: input.lastName ?? user.lastName,
      title: input.title ?? user.title,
      updatedAt,
    };
    repos.users.update(next);
    return toUserOutput(next);
  })();
}

/**
 * Removes a user's access at once: the row is kept (marked deleted) so their wallets, keys and history
 * stay with the organisation; their sessions and API keys are revoked in the same transaction.
 */
export function deleteUser(
  ctx: OpContext<AuthServices>,
  input: ParsedInputOf<typeof OPERATIONS.deleteUser>,
): OutputOf<typeof OPERATIONS.deleteUser> {
  requireSession(ctx, USERS_NEED_SESSION);
  const { repos, db } = ctx.services;
  db.transaction(() => {
    const user = repos.users.byUid(input.userId);
    if (!user || user.deletedAt !== null) throw new DomainError('NOT_FOUND', `There is no user ${input.userId}.`);
    if (user.role === 'admin' && repos.users.countActiveAdmins() <= 1) throw new DomainError('CONFLICT', LAST_ADMIN);
    const now = ctx.services.now();
    repos.users.softDelete(user.uid, now);
    repos.sessions.revokeAllForUser(user.uid, now);
    repos.apiKeys.revokeAllForUser(user.uid, now);
  })();
  return { userId: input.userId };
}

export function listUsers(ctx: OpContext<AuthServices>): OutputOf<typeof OPERATIONS.listUsers> {
  return { users: ctx.services.repos.users.listActive().map(toUserOutput) };
}
