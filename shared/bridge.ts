import type { ErrorCode, ErrorKind } from './errors.js';
import type { LiveEvent } from './events.js';
import { OPERATION_NAMES, type OperationName } from './operations.js';
import type { OperationInput, OperationOutput, SessionOutput } from './operations.js';

/**
 * The desktop bridge: what the preload exposes to the renderer as `window.keystead`. Named functions
 * only, one IPC channel each (no generic invoke), so the surface is reviewable and typed end to end.
 */
export const IPC = {
  vaultStatus: 'keystead:vault:status',
  vaultSetup: 'keystead:vault:setup',
  vaultUnlock: 'keystead:vault:unlock',
  /** The renderer opens (or reopens) its live event stream… */
  eventsOpen: 'keystead:events:open',
  eventsClose: 'keystead:events:close',
  /** …and the main process pushes the events on this one. */
  eventsPush: 'keystead:events:push',
  op: (name: OperationName) => `keystead:op:${name}` as const,
} as const;

export const OP_CHANNELS: readonly string[] = OPERATION_NAMES.map((n) => IPC.op(n));

/** Results cross IPC as tagged unions: Electron flattens thrown errors to a bare message. */
export type BridgeResult<T> =
  | { ok: true; msg: string; output: T }
  | {
      ok: false;
      error: { code: ErrorCode; msg: string; kind: ErrorKind; retryAfter?: number; errors?: unknown; details?: Record<string, unknown> };
    };

export interface VaultStatus {
  /** A database exists in the data directory. */
  exists: boolean;
  /** It is open in the main process (the engine and the local API are running). */
  unlocked: boolean;
  /** The embedded API for local scripts, once unlocked. */
  apiUrl: string | null;
  dataDir: string;
}

export interface UnlockInput {
  email: string;
  password: string;
  /** The second factor's code, when the owner has two-step sign-in on. */
  otp?: string;
}

/** Who is calling: the session token, and the organisation for enterprise operations. */
export interface CallAuth {
  authToken?: string;
  serviceId?: string;
}

export type OpsBridge = {
  [N in OperationName]: (input: OperationInput<N>, auth?: CallAuth) => Promise<BridgeResult<OperationOutput<N>>>;
};

/** What the main process pushes to a window's live event stream. */
export type EventPush = { kind: 'event'; event: LiveEvent } | { kind: 'end'; reason: string };

export interface KeysteadBridge {
  readonly host: 'desktop';
  vault: {
    status(): Promise<VaultStatus>;
    /** First run: creates the encrypted database with the admin's password, then the organisation. */
    setup(input: OperationInput<'setup'>): Promise<BridgeResult<SessionOutput>>;
    /** Opens the database with the owner's password and signs them in. */
    unlock(input: UnlockInput): Promise<BridgeResult<SessionOutput>>;
  };
  ops: OpsBridge;
  /** The window's live event stream (one per window; opening again replaces it). */
  events: {
    open(auth: CallAuth, lastEventId: number | undefined, listener: (push: EventPush) => void): Promise<BridgeResult<{ open: true }>>;
    close(): Promise<void>;
  };
}
