import type { CallAuth, UnlockInput, VaultStatus } from '../../shared/bridge.js';
import type { ErrorCode, ErrorKind } from '../../shared/errors.js';
import type { OperationInput, OperationName, OperationOutput, SessionOutput } from '../../shared/operations.js';

/** A failed call, with the API's code and message; views show `message` as it is. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly kind: ErrorKind,
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface CallResult<T> {
  msg: string;
  output: T;
}

/**
 * What every view uses to reach the engine. Two implementations, chosen once at start: over the
 * preload bridge (desktop) and over HTTP (headless host and browser tests). Same operations, same errors.
 */
export interface KeysteadClient {
  readonly host: 'desktop' | 'browser';
  call<N extends OperationName>(name: N, input: OperationInput<N>, auth?: CallAuth): Promise<CallResult<OperationOutput<N>>>;
  /** Desktop only: the encrypted database is opened from the UI. */
  readonly vault?: {
    status(): Promise<VaultStatus>;
    setup(input: OperationInput<'setup'>): Promise<CallResult<SessionOutput>>;
    unlock(input: UnlockInput): Promise<CallResult<SessionOutput>>;
  };
}
