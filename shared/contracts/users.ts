import { z } from 'zod';
import { byName, defineOperation } from '../operation.js';
import { ROLES } from '../roles.js';
import { email, givenPassword, id, newPassword, organisationName, personName, role } from '../schemas.js';
import { boolish } from '../wallet-schemas.js';
import { ADMIN, ALL_ROLES } from './access.js';
import { otpCode } from './second-factor.js';

const wireRole = z.enum(ROLES);

export const sessionOutput = z.object({
  authToken: z.string(),
  uid: z.string(),
  role: wireRole,
  serviceId: z.string(),
  expiresAt: z.string(),
});
export const meOutput = z.object({
  uid: z.string(),
  email: z.string(),
  role: wireRole,
  firstName: z.string(),
  lastName: z.string(),
  title: z.string(),
  serviceId: z.string(),
  organisation: z.string(),
});
export const userOutput = z.object({
  uid: z.string(),
  email: z.string(),
  role: wireRole,
  firstName: z.string(),
  lastName: z.string(),
  title: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const USER_OPERATIONS = byName(
  defineOperation({
    name: 'setup',
    input: z.object({
      organisation: organisationName,
      email,
      password: newPassword,
      firstName: personName.optional(),
      lastName: personName.optional(),
    }),
    output: sessionOutput,
    access: 'public',
    summary: 'First run only: creates the organisation and its first admin, and signs that admin in.',
    msg: 'Organisation set up successfully.',
    rest: [{ method: 'POST', path: '/api/v1/setup', body: true }],
    audit: true,
  }),
  defineOperation({
    name: 'login',
    // `otp`: the second factor's code, needed (401 OTP_REQUIRED without it) once the user turned two-step sign-in on.
    input: z.object({ email, password: givenPassword, otp: otpCode.optional() }),
    // `token` is the same as authToken: the public service's clients sign in with POST /v1/auth and read `token`.
    output: sessionOutput.extend({ token: z.string() }),
    access: 'public',
    summary:
      'Signs a user in and returns an authToken (also as token, for the public service’s clients). With two-step sign-in on, also send the code (or a recovery code) in otp: without it 401 OTP_REQUIRED, a wrong one 403 OTP_INVALID.',
    msg: 'Logged in successfully.',
    rest: [
      { method: 'POST', path: '/api/v1/login', body: true },
      { method: 'POST', path: '/v1/auth', body: true },
    ],
    audit: true,
  }),
  defineOperation({
    name: 'logout',
    input: z.object({}),
    output: z.object({ revoked: z.boolean() }),
    access: ALL_ROLES,
    summary: 'Revokes the authToken the call was made with.',
    msg: 'Logged out successfully.',
    rest: [{ method: 'POST', path: '/api/v1/logout' }],
    audit: true,
  }),
  defineOperation({
    name: 'me',
    input: z.object({}),
    output: meOutput,
    access: ALL_ROLES,
    summary: 'The signed-in user, their organisation and serviceId.',
    msg: 'User fetched successfully.',
    rest: [
      { method: 'GET', path: '/api/v1/me' },
      { method: 'GET', path: '/v1/user' },
    ],
  }),
  defineOperation({
    name: 'changePassword',
    input: z.object({ currentPassword: givenPassword, newPassword, keepApiKeys: boolish }),
    output: z.object({ signedOutSessions: z.number().int(), revokedApiKeys: z.array(z.object({ keyId: z.string(), label: z.string() })) }),
    access: ALL_ROLES,
    summary: 'Changes your own password; your other sessions are signed out and your API keys revoked (unless keepApiKeys is true).',
    msg: 'Password changed successfully.',
    rest: [{ method: 'POST', path: '/api/v1/changePassword', body: true }],
    audit: true,
  }),
  defineOperation({
    name: 'createUser',
    input: z.object({
      email,
      password: newPassword,
      role,
      firstName: personName.default(''),
      lastName: personName.default(''),
      title: personName.default(''),
    }),
    output: z.object({ uid: z.string(), email: z.string(), role: wireRole }),
    access: ADMIN,
    enterprise: true,
    summary: 'Creates a user of the organisation with a role.',
    msg: 'User created successfully.',
    rest: [{ method: 'POST', path: '/api/v1/createUser', body: true }],
    audit: true,
  }),
  defineOperation({
    name: 'updateUser',
    input: z.object({
      userId: id,
      role: role.optional(),
      firstName: personName.optional(),
      lastName: personName.optional(),
      title: personName.optional(),
    }),
    output: userOutput,
    access: ADMIN,
    enterprise: true,
    summary: "Changes a user's role and details. The last admin cannot be demoted.",
    msg: 'User updated successfully.',
    rest: [{ method: 'POST', path: '/api/v1/updateUser', body: true }],
    audit: true,
  }),
  defineOperation({
    name: 'deleteUser',
    input: z.object({ userId: id }),
    output: z.object({ userId: z.string() }),
    access: ADMIN,
    enterprise: true,
    summary: "Removes a user's access at once (sessions and API keys); their wallets stay with the organisation.",
    msg: 'User deleted successfully.',
    rest: [{ method: 'POST', path: '/api/v1/deleteUser', body: true }],
    audit: true,
  }),
  defineOperation({
    name: 'listUsers',
    input: z.object({}),
    output: z.object({ users: z.array(userOutput) }),
    access: ADMIN,
    enterprise: true,
    summary: 'The users of the organisation.',
    msg: 'Users fetched successfully.',
    rest: [{ method: 'GET', path: '/api/v1/users' }],
  }),
);
