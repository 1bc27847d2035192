import { z } from 'zod';
import { byName, defineOperation } from '../operation.js';
import { email, id } from '../schemas.js';
import { ADMIN, ALL_ROLES } from './access.js';

/**
 * What the public service lets a person do with their own account (sign up, delete it, reset a forgotten
 * password), as an organisation wallet does it: admins create and remove accounts and reset passwords;
 * nobody signs up, and no e-mail is sent.
 */
export const ACCOUNT_OPERATIONS = byName(
  defineOperation({
    name: 'signUp',
    input: z.object({}).loose(),
    output: z.object({}),
    access: 'public',
    summary:
      "Always refused (403 SIGN_UP_CLOSED): an organisation's accounts are created by its admins (POST /api/v1/createUser, or Users in the app). The public service's SDK signs up here.",
    msg: 'Accounts are created by admins.',
    rest: [
      { method: 'POST', path: '/v1/signUp', body: true },
      { method: 'POST', path: '/v1/signup', body: true },
    ],
  }),
  defineOperation({
    name: 'requestPasswordReset',
    input: z.object({ email: email.optional() }).loose(),
    output: z.object({}),
    access: 'public',
    summary:
      'Always refused (403 PASSWORD_RESET_BY_ADMIN): Keystead sends no e-mail. A signed-in user changes their password with POST /api/v1/changePassword; a forgotten one is reset by an admin (POST /api/v1/resetPassword).',
    msg: 'Passwords are reset by admins.',
    rest: [{ method: 'POST', path: '/v1/reset/password', body: true }],
  }),
  defineOperation({
    name: 'resetPassword',
    input: z.object({ userId: id }),
    output: z.object({ userId: z.string(), email: z.string(), temporaryPassword: z.string(), signedOutSessions: z.number().int() }),
    access: ADMIN,
    summary:
      "An admin resets another user's forgotten password: a temporary one is returned once (give it to them in person; they change it in Profile), their sessions are signed out and their API keys revoked. Your own: POST /api/v1/changePassword.",
    msg: 'Password reset. Give the temporary password to the user: it is not shown again.',
    rest: [{ method: 'POST', path: '/api/v1/resetPassword', body: true }],
    audit: true,
  }),
  defineOperation({
    name: 'deleteAccount',
    input: z.object({}),
    output: z.object({ uid: z.string(), deleted: z.literal(true) }),
    access: ALL_ROLES,
    summary:
      'Deletes your own account (as the public service’s SDK does with DELETE /v1/user): your sessions and API keys stop at once; your wallets stay with the organisation. Needs a password sign-in (an API key cannot); the last admin is refused (409).',
    msg: 'Your account was deleted.',
    rest: [{ method: 'DELETE', path: '/v1/user' }],
    audit: true,
  }),
);
