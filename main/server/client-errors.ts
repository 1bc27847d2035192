import type { Socket } from 'node:net';
import type { ErrorCode } from '../../shared/errors.js';
import { envelopeFor, httpStatusOf } from './http-errors.js';

/** Longer request targets are refused with 414 (Node's own header limit, 16 KiB, covers the rest with 431). */
export const MAX_URL_LENGTH = 8192;

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  431: 'Request Header Fields Too Large',
};

/** What a request Node could not even parse was: a too-long URL, too-large headers, or plain garbage. */
export function classifyClientError(err: { code?: string; rawPacket?: unknown }): { code: ErrorCode; message: string } {
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    const raw = Buffer.isBuffer(err.rawPacket) ? err.rawPacket : Buffer.alloc(0);
    const lineEnd = raw.indexOf('\r\n');
    if (lineEnd === -1 || lineEnd > MAX_URL_LENGTH)
      return { code: 'URI_TOO_LONG', message: `The URL is too long (${MAX_URL_LENGTH} characters at most).` };
    return { code: 'HEADERS_TOO_LARGE', message: 'The request headers are too large.' };
  }
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { code: 'BAD_REQUEST', message: 'The request was not sent in time.' };
  return { code: 'BAD_REQUEST', message: 'The request could not be parsed as HTTP.' };
}

/**
 * Answers requests that never reach a route (Node's HTTP parser refused them) with the same envelope as
 * every other error, then closes the connection: after a parse error the stream cannot be trusted.
 */
export function answerClientError(err: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const { code, message } = classifyClientError(err);
  const status = httpStatusOf(code);
  const body = JSON.stringify(envelopeFor(code, message));
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Bad Request'}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
