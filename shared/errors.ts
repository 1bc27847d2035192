/**
 * Domain errors: what the engine raises for an expected failure. Each has a stable machine-readable code
 * (carried in `data.code` on the wire) and a kind; every transport maps kinds to its own notion of status
 * (HTTP in main/server/http-errors.ts, IPC in main/host/bridge-result.ts). Messages are written for people.
 */
export type ErrorKind =
  /** Not a failure: the request was taken in and waits (a payment awaiting approval; HTTP 202). */
  | 'accepted'
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'too-large'
  | 'unsupported'
  | 'throttled'
  | 'upstream'
  | 'unavailable'
  | 'internal';

export const ERROR_KINDS = {
  /** The organisation's policy sends this payment for approval: recorded, nothing reserved or signed (`approvalId`). */
  APPROVAL_REQUIRED: 'accepted',
  BAD_REQUEST: 'invalid',
  VALIDATION_FAILED: 'invalid',
  INVALID_JSON: 'invalid',
  UNAUTHORIZED: 'unauthenticated',
  INVALID_CREDENTIALS: 'unauthenticated',
  TOKEN_EXPIRED: 'unauthenticated',
  /** The password was right, but the account has two-step sign-in: send the code in `otp`. */
  OTP_REQUIRED: 'unauthenticated',
  FORBIDDEN: 'forbidden',
  ROLE_FORBIDDEN: 'forbidden',
  SESSION_REQUIRED: 'forbidden',
  SERVICE_MISMATCH: 'forbidden',
  WALLET_LOCKED: 'forbidden',
  WRONG_PASSWORD: 'forbidden',
  /** A second-factor code that is wrong, expired or already used (403, not 401: the session stays valid). */
  OTP_INVALID: 'forbidden',
  /** A step-up needs the account password again, and the request did not carry one. */
  PASSWORD_REQUIRED: 'forbidden',
  /** Accounts are created by the organisation's admins; nobody signs up. */
  SIGN_UP_CLOSED: 'forbidden',
  /** No e-mail is sent: a forgotten password is reset by an admin. */
  PASSWORD_RESET_BY_ADMIN: 'forbidden',
  /** The organisation's policy refuses this move of value; the message carries the rule's reason. */
  POLICY_DENIED: 'forbidden',
  /** The public service's route exists for its clients, but means nothing for a local organisation wallet. */
  NOT_OFFERED: 'not-found',
  ORIGIN_FORBIDDEN: 'forbidden',
  HOST_FORBIDDEN: 'forbidden',
  NOT_FOUND: 'not-found',
  METHOD_NOT_ALLOWED: 'invalid',
  CONFLICT: 'conflict',
  OTP_NOT_ENROLLED: 'conflict',
  /** An approved payment no longer matches what was reviewed (a paymail host now asks for other amounts): nothing was sent. */
  APPROVAL_MISMATCH: 'conflict',
  INSUFFICIENT_FUNDS: 'invalid',
  PAYMENT_REJECTED: 'invalid',
  PAYMAIL_FAILED: 'upstream',
  /** A file upload was asked to fetch could not be fetched. */
  FETCH_FAILED: 'upstream',
  /** A paymail host answered, but with something Keystead refuses to pay (the counterparty's fault, not an outage). */
  PAYMAIL_BAD_ANSWER: 'invalid',
  COMPILE_FAILED: 'invalid',
  COMPILE_LIMIT: 'invalid',
  TRANSPILE_FAILED: 'invalid',
  CHAIN_UNAVAILABLE: 'unavailable',
  ALREADY_SET_UP: 'conflict',
  PAYLOAD_TOO_LARGE: 'too-large',
  URI_TOO_LONG: 'too-large',
  HEADERS_TOO_LARGE: 'too-large',
  UNSUPPORTED_MEDIA_TYPE: 'unsupported',
  RATE_LIMITED: 'throttled',
  BUSY: 'unavailable',
  /** The policy compares a currency value, and the table has no rate for that currency. */
  RATE_UNAVAILABLE: 'unavailable',
  NOT_READY: 'unavailable',
  INTERNAL: 'internal',
} as const satisfies Record<string, ErrorKind>;

export type ErrorCode = keyof typeof ERROR_KINDS;

export function kindOf(code: ErrorCode): ErrorKind {
  return ERROR_KINDS[code];
}

/**
 * An expected failure with a message fit to show the caller. `details` travel with it on every wire
 * (e.g. `retryAfter`, `missing`, compile `errors`); never put a secret there. Anything else that escapes
 * a handler is a bug, answered without its message.
 */
export class DomainError extends Error {
  readonly kind: ErrorKind;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'DomainError';
    this.kind = ERROR_KINDS[code];
  }
}

export const isDomainError = (err: unknown): err is DomainError => err instanceof DomainError;
