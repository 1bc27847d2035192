import type { CallResult } from '../../shared/api-client.js';
import type { CallAuth } from '../../shared/bridge.js';
import type { AnyContract, InputOf, OutputOf } from '../../shared/operation.js';
import type { OPERATIONS, SessionOutput } from '../../shared/operations.js';
import type { LiveEvent } from '../../shared/events.js';

// The typed client's error and result are shared with the CLI and the benchmarks (shared/api-client.ts).
export { ApiError, type CallResult } from '../../shared/api-client.js';

/** Receives the live event stream: each event, and the end when the session no longer holds. */
export interface LiveListener {
  event(e: Pick<LiveEvent, 'id' | 'type' | 'data'>): void;
  end(reason: string): void;
  /** Whether the stream is connected now (it reconnects by itself after a drop). */
  connected?(up: boolean): void;
}

/** Where things stand when the app starts: no organisation yet, locked (desktop), or ready to sign in. */
export interface StartState {
  state: 'firstRun' | 'locked' | 'signIn';
  version: string;
  network: string;
}

/**
 * What every view and store uses to reach the engine. Two implementations, chosen once at start: over
 * the preload bridge (desktop) and over HTTP (headless host and browser tests). Same operations, same
 * errors, and the same first-run and sign-in steps, so nothing above this asks which one it has.
 */
export interface KeysteadClient {
  readonly host: 'desktop' | 'browser';
  /** Whether the tab should keep the session token across reloads (the browser; the desktop keeps none). */
  readonly keepsToken: boolean;
  call<C extends AnyContract>(op: C, input: InputOf<C>, auth?: CallAuth): Promise<CallResult<OutputOf<C>>>;
  start(): Promise<StartState>;
  /** First run: creates the organisation and its first admin (on the desktop, the encrypted database too). */
  setup(input: InputOf<typeof OPERATIONS.setup>): Promise<SessionOutput>;
  /** Signs in (on a locked desktop, the password first opens the database); `otp` once asked for (OTP_REQUIRED). */
  signIn(email: string, password: string, locked: boolean, otp?: string): Promise<SessionOutput>;
  /** The embedded API's address, for the Overview's "how scripts reach it". */
  apiUrl(): Promise<string | null>;
  /** Follows the live event stream as the signed-in user, reconnecting without losing events; returns how to stop. */
  liveEvents(auth: CallAuth, listener: LiveListener): () => void;
}
