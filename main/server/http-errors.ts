import { errorEnvelope, type Envelope, type ErrorData } from '../../shared/envelope.js';
import { isDomainError, kindOf, type ErrorCode, type ErrorKind } from '../../shared/errors.js';

/** The HTTP status of each kind of domain error. */
const STATUS_BY_KIND: Record<ErrorKind, number> = {
  accepted: 202,
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'too-large': 413,
  unsupported: 415,
  throttled: 429,
  upstream: 502,
  unavailable: 503,
  internal: 500,
};

/** Codes whose HTTP status is more specific than their kind's. */
const STATUS_BY_CODE: Partial<Record<ErrorCode, number>> = {
  METHOD_NOT_ALLOWED: 405,
  // The route exists for the public service's clients, on purpose without effect here: gone, not mistyped.
  NOT_OFFERED: 410,
  COMPILE_LIMIT: 422,
  PAYMAIL_BAD_ANSWER: 422,
  URI_TOO_LONG: 414,
  HEADERS_TOO_LARGE: 431,
};

export function httpStatusOf(code: ErrorCode): number {
  return STATUS_BY_CODE[code] ?? STATUS_BY_KIND[kindOf(code)];
}

/** Fastify's own failures (body parsing, limits) mapped to our codes; anything else unknown is a bug. */
const FASTIFY_CODES: Record<string, [ErrorCode, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: ['PAYLOAD_TOO_LARGE', 'The request body is too large.'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['INVALID_JSON', 'The body is empty; send a JSON object (or no Content-Type).'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['BAD_REQUEST', 'The Content-Length does not match the body.'],
  FST_ERR_CTP_INVALID_JSON_BODY: ['INVALID_JSON', 'The body is not valid JSON.'],
  FST_ERR_BAD_URL: ['BAD_REQUEST', 'The URL could not be read.'],
  FST_ERR_ASYNC_CONSTRAINT: ['BAD_REQUEST', 'The request could not be routed.'],
};

export interface MappedError {
  envelope: Envelope<ErrorData>;
  headers: Record<string, string>;
  /** True when this is a bug that should be logged (without request data). */
  unexpected: boolean;
}

export function envelopeFor(code: ErrorCode, message: string, details: Record<string, unknown> = {}): Envelope<ErrorData> {
  return errorEnvelope(httpStatusOf(code), code, message, details);
}

/** Any error that reached the HTTP adapter, as the envelope and headers to answer with. */
export function mapHttpError(err: unknown): MappedError {
  if (isDomainError(err)) {
    const headers: Record<string, string> = {};
    if (typeof err.details.retryAfter === 'number') headers['retry-after'] = String(err.details.retryAfter);
    return { envelope: envelopeFor(err.code, err.message, err.details), headers, unexpected: false };
  }
  const e = err as { code?: string; statusCode?: number; name?: string };
  const known = e.code ? FASTIFY_CODES[e.code] : undefined;
  if (known) return { envelope: envelopeFor(known[0], known[1]), headers: {}, unexpected: false };
  if (e.name === 'SyntaxError' && e.statusCode === 400) {
    return { envelope: envelopeFor('INVALID_JSON', 'The body is not valid JSON.'), headers: {}, unexpected: false };
  }
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return { envelope: errorEnvelope(e.statusCode, 'BAD_REQUEST', 'The request could not be read.'), headers: {}, unexpected: false };
  }
  return {
    envelope: envelopeFor('INTERNAL', 'Something went wrong inside Keystead. The error was logged.'),
    headers: {},
    unexpected: true,
  };
}
