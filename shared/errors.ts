/** Stable, machine-readable error codes carried in `data.code`, with the HTTP status each maps to. */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 400,
  INVALID_JSON: 400,
  UNAUTHORIZED: 401,
  INVALID_CREDENTIALS: 401,
  TOKEN_EXPIRED: 401,
  FORBIDDEN: 403,
  ROLE_FORBIDDEN: 403,
  SERVICE_MISMATCH: 403,
  WALLET_LOCKED: 403,
  WRONG_PASSWORD: 403,
  ORIGIN_FORBIDDEN: 403,
  HOST_FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  ALREADY_SET_UP: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  NOT_READY: 503,
  INTERNAL: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export function statusForCode(code: ErrorCode): number {
  return ERROR_STATUS[code];
}
