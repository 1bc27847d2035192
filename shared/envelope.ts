import type { ErrorCode } from './errors.js';

/** Every HTTP response, success or error, has this shape; the HTTP status equals statusCode. */
export interface Envelope<T extends object = Record<string, unknown>> {
  statusCode: number;
  data: { status: 'success' | 'error' | 'partial success' | 'pending'; msg: string } & T;
}

export interface ErrorData {
  /** `pending` for a request taken in that waits (202: a payment awaiting approval), else `error`. */
  status: 'error' | 'pending';
  msg: string;
  code: ErrorCode;
  /** Seconds to wait, on 429. */
  retryAfter?: number;
}

export function successEnvelope<T extends object>(output: T, msg: string, statusCode = 200): Envelope<T> {
  return { statusCode, data: { status: 'success', msg, ...output } };
}

export function errorEnvelope(statusCode: number, code: ErrorCode, msg: string, extra: object = {}): Envelope<ErrorData> {
  return { statusCode, data: { status: statusCode === 202 ? 'pending' : 'error', msg, code, ...extra } };
}
