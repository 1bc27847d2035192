import { z } from 'zod';
import { byName, defineOperation } from '../operation.js';
import { id } from '../schemas.js';
import { ADMIN, ALL_ROLES } from './access.js';

/**
 * A code from the authenticator app (6 digits) or a recovery code (`xxxx-xxxx-xxxx`), as sent in `otp`.
 * A JSON number is read as the digits it stands for (a code that starts with 0 cannot be one otherwise).
 */
export const otpCode = z
  .union([z.string(), z.number().int().nonnegative()], { error: (iss) => (iss.input === undefined ? 'is required' : 'must be a string') })
  .transform((v) => (typeof v === 'number' ? String(v).padStart(6, '0') : v.trim()))
  .pipe(z.string().min(1, { error: 'is required' }).max(64, { error: 'is too long' }));

/** Who the public service's OTP methods name (`to`): here only the caller themself, by e-mail or uid. */
const otpTarget = z.string({ error: 'must be a string' }).trim().max(254, { error: 'is too long' }).optional();

export const twoStepStatusOutput = z.object({
  enabled: z.boolean(),
  /** An enrolment was started and waits for its first code. */
  pending: z.boolean(),
  enabledAt: z.string().nullable(),
  recoveryCodesLeft: z.number().int(),
});

export const twoStepEnrolment = z.object({
  /** The TOTP secret in base32, for typing into an app by hand. Shown this once. */
  secret: z.string(),
  /** The same secret as an otpauth:// URI, for the QR code. */
  otpauthUri: z.string(),
  issuer: z.string(),
  account: z.string(),
  algorithm: z.literal('SHA1'),
  digits: z.literal(6),
  period: z.literal(30),
});

const CODE_FIELD = 'the current 6-digit code from your authenticator app';

export const SECOND_FACTOR_OPERATIONS = byName(
  defineOperation({
    name: 'twoStepStatus',
    input: z.object({}),
    output: twoStepStatusOutput,
    access: ALL_ROLES,
    summary:
      'Whether your two-step sign-in (a time-based code from an authenticator app, RFC 6238) is on, and how many recovery codes are left.',
    msg: 'Two-step sign-in status fetched successfully.',
    rest: [{ method: 'GET', path: '/api/v1/twoStep' }],
  }),
  defineOperation({
    name: 'startTwoStep',
    input: z.object({}),
    output: twoStepEnrolment,
    access: ALL_ROLES,
    summary:
      'Starts enrolling an authenticator app: answers a new secret (base32 and otpauth:// URI, shown this once). Nothing changes at sign-in until confirmTwoStep accepts a first code. Needs a password sign-in (403 SESSION_REQUIRED with an API key); 409 when two-step sign-in is already on.',
    msg: 'Scan the QR code (or type the secret) into your authenticator app, then confirm with a code from it.',
    rest: [{ method: 'POST', path: '/api/v1/twoStep/start' }],
    audit: true,
  }),
  defineOperation({
    name: 'confirmTwoStep',
    input: z.object({ otp: otpCode }),
    output: z.object({ enabled: z.literal(true), recoveryCodes: z.array(z.string()) }),
    access: ALL_ROLES,
    summary: `Turns two-step sign-in on with ${CODE_FIELD} (otp), and answers 10 single-use recovery codes, shown this once. A wrong code is 403 OTP_INVALID.`,
    msg: 'Two-step sign-in is on. Keep the recovery codes somewhere safe: they are not shown again.',
    rest: [{ method: 'POST', path: '/api/v1/twoStep/confirm', body: true }],
    audit: true,
  }),
  defineOperation({
    name: 'disableTwoStep',
    input: z.object({ otp: otpCode }),
    output: z.object({ enabled: z.literal(false) }),
    access: ALL_ROLES,
    summary: `Turns your two-step sign-in off, with ${CODE_FIELD} or a recovery code (otp); also cancels an enrolment not yet confirmed. Needs a password sign-in.`,
    msg: 'Two-step sign-in is off.',
    rest: [{ method: 'POST', path: '/api/v1/twoStep/disable', body: true }],
    audit: true,
  }),
  defineOperation({
    name: 'validateOtp',
    input: z.object({ otp: otpCode, to: otpTarget }),
    output: z.object({ valid: z.literal(true), email: z.string(), uid: z.string() }),
    access: ALL_ROLES,
    summary: `Checks ${CODE_FIELD} (otp) for the signed-in user, once per code (a replay is refused); to, if sent, must be your own e-mail or uid. 403 OTP_INVALID when wrong, 409 OTP_NOT_ENROLLED without two-step sign-in. The public service's validateOTP.`,
    msg: 'The code is valid.',
    rest: [
      { method: 'POST', path: '/api/v1/twoStep/validate', body: true },
      { method: 'POST', path: '/v1/validateOTP', body: true },
    ],
    audit: true,
  }),
  defineOperation({
    name: 'sendOtp',
    input: z.object({ to: otpTarget, from: z.string().max(254).optional(), message: z.string().max(1000).optional() }),
    output: z.object({ sent: z.literal(false), method: z.literal('totp'), email: z.string() }),
    access: ALL_ROLES,
    summary:
      "The public service's sendOTP: Keystead sends no codes (by mail or otherwise): the code is the one the user's authenticator app shows now, to check with validateOtp. Answers sent: false; 409 OTP_NOT_ENROLLED without two-step sign-in; to, if sent, must be your own e-mail or uid.",
    msg: 'No code was sent: Keystead uses the time-based code your authenticator app shows. Validate that code.',
    rest: [{ method: 'POST', path: '/v1/sendOTP', body: true }],
  }),
  defineOperation({
    name: 'listTwoStep',
    input: z.object({}),
    output: z.object({ users: z.array(z.object({ uid: z.string(), enabledAt: z.string() })) }),
    access: ADMIN,
    enterprise: true,
    summary: 'The users who have two-step sign-in on (never their secrets).',
    msg: 'Two-step sign-in users fetched successfully.',
    rest: [{ method: 'GET', path: '/api/v1/twoStep/users' }],
  }),
  defineOperation({
    name: 'resetTwoStep',
    input: z.object({ userId: id }),
    output: z.object({ userId: z.string(), reset: z.boolean() }),
    access: ADMIN,
    enterprise: true,
    summary:
      "Turns off another user's two-step sign-in (a lost phone and recovery codes): they sign in with the password alone and may enrol again. reset is false when it was not on.",
    msg: 'Two-step sign-in reset.',
    rest: [{ method: 'POST', path: '/api/v1/twoStep/reset', body: true }],
    audit: true,
  }),
);
