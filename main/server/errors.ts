import { errorEnvelope, type Envelope, type ErrorData } from '../../shared/envelope.js';
import { statusForCode, type ErrorCode } from '../../shared/errors.js';
import { isAppError } from '../engine/errors.js';

/** Fastify's own failures (body parsing, limits) mapped to our codes; anything else unknown is a bug. */
const FASTIFY_CODES: Record<string, [ErrorCode, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: ['PAYLOAD_TOO_LARGE', 'The request body is too large.'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['INVALID_JSON', 'The body is empty; send a JSON object (or no Content-Type).'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['BAD_REQUEST', 'The Content-Length does not match the body.'],
  FST_ERR_CTP_INVALID_JSON_BODY: ['INVALID_JSON', 'The body is not valid JSON.'],
};

export interface MappedError {
  envelope: Envelope<ErrorData>;
  headers: Record<string, string>;
  /** True when this is a bug that should be logged (without request data). */
  unexpected: boolean;
}

export function mapError(err: unknown): MappedError {
  if (isAppError(err)) {
    const headers: Record<string, string> = {};
    if (typeof err.extra.retryAfter === 'number') headers['retry-after'] = String(err.extra.retryAfter);
    return { envelope: errorEnvelope(err.status, err.code, err.message, err.extra), headers, unexpected: false };
  }
  const e = err as { code?: string; statusCode?: number; name?: string };
  const known = e.code ? FASTIFY_CODES[e.code] : undefined;
  if (known) return { envelope: errorEnvelope(statusForCode(known[0]), known[0], known[1]), headers: {}, unexpected: false };
  if (e.name === 'SyntaxError' && e.statusCode === 400) {
    return { envelope: errorEnvelope(400, 'INVALID_JSON', 'The body is not valid JSON.'), headers: {}, unexpected: false };
  }
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return { envelope: errorEnvelope(e.statusCode, 'BAD_REQUEST', 'The request could not be read.'), headers: {}, unexpected: false };
  }
  return { envelope: errorEnvelope(500, 'INTERNAL', 'Something went wrong inside Keystead. The error was logged.'), headers: {}, unexpected: true };
}
