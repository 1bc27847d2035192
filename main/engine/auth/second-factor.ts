import { createHash, randomBytes } from 'node:crypto';
import { DomainError } from '../../../shared/errors.js';
import type { SecondFactorRow } from '../../store/repos/second-factors.js';
import { clientKey } from '../client-key.js';
import { accountKey } from './throttle.js';
import type { AuthServices } from './services.js';
import { base32Decode, matchTotp } from './totp.js';

/** How many recovery codes an enrolment gives; each works once, in place of a code from the app. */
export const RECOVERY_CODE_COUNT = 10;

/** Where the sign-in request carries the code (login, and the SDK's validateOTP). */
export const OTP_FIELD = 'otp';

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'; // no 0/o, 1/l/i: read off paper
const RECOVERY_GROUPS = 3;
const RECOVERY_GROUP_LENGTH = 4;

/** `xxxx-xxxx-xxxx`: 12 characters of a 31-letter alphabet, about 59 bits each. */
export function newRecoveryCode(): string {
  const groups: string[] = [];
  for (let g = 0; g < RECOVERY_GROUPS; g++) {
    let s = '';
    // Rejection sampling keeps every character equally likely (256 is not a multiple of 31).
    while (s.length < RECOVERY_GROUP_LENGTH) {
      const b = randomBytes(1)[0];
      if (b < 248) s += RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length];
    }
    groups.push(s);
  }
  return groups.join('-');
}

/** A recovery code as typed (any case, spaces or hyphens), or null when it cannot be one. */
export function normaliseRecoveryCode(text: string): string | null {
  const clean = text.toLowerCase().replace(/[\s-]/g, '');
  const re = new RegExp(`^[${RECOVERY_ALPHABET}]{${RECOVERY_GROUPS * RECOVERY_GROUP_LENGTH}}$`);
  return re.test(clean) ? clean : null;
}

/**
 * Stored in place of a recovery code. SHA-256 is enough for ~59 random bits behind the throttle, and the
 * uid salts it so equal codes of two users do not look equal.
 */
export function hashRecoveryCode(uid: string, normalised: string): string {
  return createHash('sha256').update(`keystead-recovery:${uid}:${normalised}`, 'utf8').digest('hex');
}

export type SecondFactorServices = Pick<AuthServices, 'repos' | 'now' | 'throttle' | 'logger'>;

/** The user's confirmed second factor, or null when they sign in with a password alone. */
export function activeFactor(services: Pick<AuthServices, 'repos'>, uid: string): SecondFactorRow | null {
  const f = services.repos.secondFactors.byUid(uid);
  return f && f.state === 'active' ? f : null;
}

/** Throttle keys for code guesses, apart from password guesses: a wrong code does not slow a password. */
export const otpThrottleKeys = (uid: string, clientId: string) => [`otp:${accountKey(uid)}`, `otp:${clientKey(clientId)}`];

export interface CheckOptions {
  /** A recovery code is accepted too (sign-in, disabling); validation accepts only the app's codes. */
  allowRecovery: boolean;
}

/**
 * Checks a code against the user's active factor under the throttle (per account and per client, like
 * passwords) and consumes it: the app's code by recording its time step (the same or an older step is then
 * refused), a recovery code by marking it used. Throws OTP_INVALID (403), or RATE_LIMITED (429).
 * Returns how the check passed; the code itself is never logged.
 */
export function checkSecondFactor(
  services: SecondFactorServices,
  factor: SecondFactorRow,
  code: string,
  clientId: string,
  opts: CheckOptions,
): 'totp' | 'recovery' {
  const keys = otpThrottleKeys(factor.uid, clientId);
  const ticket = services.throttle.admit(keys, 'Too many wrong codes');
  try {
    const how = verify(services, factor, code.trim(), opts);
    if (!how) {
      services.logger.warn({ client: clientId }, 'a second-factor code was refused');
      throw new DomainError(
        'OTP_INVALID',
        opts.allowRecovery
          ? 'The code is not correct, has expired or was already used. Enter the current 6-digit code from your authenticator app, or an unused recovery code.'
          : 'The code is not correct, has expired or was already used. Enter the current 6-digit code from your authenticator app.',
      );
    }
    ticket.succeed([keys[0]]);
    return how;
  } finally {
    ticket.release();
  }
}

function verify(services: SecondFactorServices, factor: SecondFactorRow, code: string, opts: CheckOptions): 'totp' | 'recovery' | null {
  const { repos } = services;
  const step = matchTotp(base32Decode(factor.secret), code.replace(/\s/g, ''), services.now(), { afterStep: factor.lastStep ?? -1 });
  // The conditional write is the replay guard: two requests with one code, only one records its step.
  if (step !== null) return repos.secondFactors.consumeStep(factor.uid, step) ? 'totp' : null;
  if (!opts.allowRecovery) return null;
  const recovery = normaliseRecoveryCode(code);
  if (recovery && repos.secondFactors.useRecoveryCode(factor.uid, hashRecoveryCode(factor.uid, recovery), services.now()))
    return 'recovery';
  return null;
}
