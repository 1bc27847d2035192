import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { BridgeResult, CallAuth, UnlockInput, VaultStatus } from '../../shared/bridge.js';
import { OPERATIONS, type OperationName, type OperationOutput, type SessionOutput } from '../../shared/operations.js';
import { describeIssues } from '../engine/execute.js';
import { DomainError } from '../../shared/errors.js';
import { DATABASE_FILE, WrongPasswordError } from '../store/database.js';
import { toBridgeResult } from './bridge-result.js';
import type { LiveEvent } from '../../shared/events.js';
import type { EventStream } from '../engine/events/streams.js';
import { DEFAULT_THROTTLE, Throttle, type ThrottleOptions } from '../engine/auth/throttle.js';
import { silentLogger, type Logger } from '../log/logger.js';
import { startRuntime, type Runtime, type RuntimeOptions } from './runtime.js';
import { startDesktop } from './desktop-brc100.js';

export interface VaultOptions extends Omit<RuntimeOptions, 'password'> {
  throttle?: ThrottleOptions;
  now?: () => number;
}

const UNLOCK_KEY = 'unlock:database';

/**
 * The desktop host's lifecycle: the app starts locked; the first-run screen creates the database with
 * the admin's password, the unlock screen opens it with the owner's. Only then do the engine and the
 * local API run. Plain Node, so it is tested without Electron.
 */
export class Vault {
  private runtime: Runtime | null = null;
  private opening: Promise<unknown> | null = null;

  private readonly logger: Logger;
  /** Guesses at the database password on the unlock screen; the engine's own throttle takes over once open. */
  private readonly unlockThrottle: Throttle;

  constructor(private readonly opts: VaultOptions) {
    this.logger = opts.logger ?? silentLogger();
    this.unlockThrottle = new Throttle(opts.throttle ?? DEFAULT_THROTTLE, opts.now ?? Date.now);
  }

  private get dbFile(): string {
    return path.join(this.opts.dataDir, DATABASE_FILE);
  }

  status(): VaultStatus {
    return {
      exists: existsSync(this.dbFile),
      unlocked: this.runtime !== null,
      apiUrl: this.runtime?.url ?? null,
      dataDir: this.opts.dataDir,
    };
  }

  setup(rawInput: unknown): Promise<BridgeResult<SessionOutput>> {
    return this.once(() =>
      toBridgeResult(async () => {
        if (this.runtime || existsSync(this.dbFile))
          throw new DomainError('ALREADY_SET_UP', 'Keystead is already set up on this computer. Unlock it instead.');
        const parsed = OPERATIONS.setup.input.safeParse(rawInput ?? {});
        if (!parsed.success) throw new DomainError('VALIDATION_FAILED', describeIssues(parsed.error, rawInput));
        const runtime = await this.start(parsed.data.password);
        try {
          const result = await runtime.engine.execute(OPERATIONS.setup.name, parsed.data, {}, { clientId: 'ipc' });
          this.runtime = runtime;
          return result;
        } catch (err) {
          // Nothing but the empty schema was written: remove it so the first run can be retried cleanly.
          await runtime.close();
          for (const suffix of ['', '-wal', '-shm']) rmSync(this.dbFile + suffix, { force: true });
          throw err;
        }
      }, this.logger),
    );
  }

  unlock(input: UnlockInput): Promise<BridgeResult<SessionOutput>> {
    return this.once(() =>
      toBridgeResult(async () => {
        const email = typeof input?.email === 'string' ? input.email : '';
        const password = typeof input?.password === 'string' ? input.password : '';
        if (!password) throw new DomainError('VALIDATION_FAILED', 'password: is required');
        if (!this.runtime) {
          if (!existsSync(this.dbFile)) throw new DomainError('NOT_FOUND', 'There is no Keystead database here yet. Set it up first.');
          // The database key is derived from the password (the costly part): admitted before it runs.
          const ticket = this.unlockThrottle.admit([UNLOCK_KEY], 'Too many wrong passwords');
          try {
            this.runtime = await this.start(password);
            ticket.succeed();
          } catch (err) {
            if (err instanceof WrongPasswordError)
              throw new DomainError('INVALID_CREDENTIALS', 'That password does not unlock this Keystead.');
            throw err;
          } finally {
            ticket.release();
          }
        }
        const otp = typeof input?.otp === 'string' && input.otp ? { otp: input.otp } : {};
        return this.runtime.engine.execute(OPERATIONS.login.name, { email, password, ...otp }, {}, { clientId: 'ipc' });
      }, this.logger),
    );
  }

  execute<N extends OperationName>(name: N, input: unknown, auth: CallAuth, clientId: string): Promise<BridgeResult<OperationOutput<N>>> {
    return toBridgeResult(async () => {
      if (!this.runtime) throw new DomainError('NOT_READY', 'Keystead is locked. Unlock it first.');
      return this.runtime.engine.execute(name, input, { authToken: auth.authToken, serviceId: auth.serviceId }, { clientId });
    }, this.logger);
  }

  /** Opens a live event stream for a window (see Engine.openEventStream); the stream, or why not. */
  openEvents(
    auth: CallAuth,
    lastEventId: number | undefined,
    deliver: (event: LiveEvent) => void,
    end: (reason: string) => void,
  ): { result: BridgeResult<{ open: true }>; stream: EventStream | null } {
    try {
      if (!this.runtime) throw new DomainError('NOT_READY', 'Keystead is locked. Unlock it first.');
      const stream = this.runtime.engine.openEventStream({ credentials: { authToken: auth.authToken }, lastEventId }, deliver, end);
      return { result: { ok: true, msg: 'Event stream opened.', output: { open: true } }, stream };
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      return { result: { ok: false, error: { code: err.code, msg: err.message, kind: err.kind } }, stream: null };
    }
  }

  async close(): Promise<void> {
    const runtime = this.runtime;
    this.runtime = null;
    await runtime?.close();
  }

  /** Serialises setup/unlock so two clicks cannot open the database twice. */
  private once<T>(work: () => Promise<T>): Promise<T> {
    const next = (this.opening ?? Promise.resolve()).then(work, work);
    this.opening = next.catch(() => undefined);
    return next;
  }

  /** A taken port never keeps the app closed: the local API takes any free one, the BRC-100 listener stays off (desktop-brc100.ts). */
  private start(password: string): Promise<Runtime> {
    return startDesktop(startRuntime, { ...this.opts, password }, this.logger);
  }
}
