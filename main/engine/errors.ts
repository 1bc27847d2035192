import { statusForCode, type ErrorCode } from '../../shared/errors.js';

/**
 * An expected failure with a message fit to show the caller. Anything else that escapes a handler is
 * a bug: the adapters answer it with a bare 500 and log it, never with its message.
 */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = statusForCode(code);
  }
}

export const isAppError = (err: unknown): err is AppError => err instanceof AppError;
