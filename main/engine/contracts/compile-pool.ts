import { MessageChannel } from 'node:worker_threads';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { DomainError } from '../../../shared/errors.js';
import type { Logger } from '../../log/logger.js';
import type { CompileResult } from '../../contracts/scrypt/compile.js';
import type { TranspileResult } from '../../contracts/solidity/transpile.js';
import type { ScryptTsCompileResult } from '../../contracts/compile-worker.js';
import { FairQueue, QueueFull } from './fair-queue.js';

/** What one compile may use. Untrusted source must not hold the engine's event loop or its memory. */
export interface CompileLimits {
  /** Compiling (not waiting in the queue) longer than this is stopped. */
  timeoutMs: number;
  /** The worker's heap; a compile that needs more is stopped. */
  memoryMb: number;
  /** Larger sources are refused before any work. */
  maxSourceBytes: number;
  /** Compiles running at once (one worker each); by default one fewer than the cores, at least one. */
  workers?: number;
  /**
   * The time limit of a scrypt-ts compile (transpile, then compile), by default SCRYPT_TS_TIME_FACTOR times
   * `timeoutMs`: the transpile alone builds a TypeScript program over scrypt-ts's typings, 1–5 s before
   * any of the contract's own work.
   */
  scryptTsTimeoutMs?: number;
}

export const DEFAULT_COMPILE_LIMITS: CompileLimits = { timeoutMs: 10_000, memoryMb: 512, maxSourceBytes: 1_000_000 };

/** scrypt-ts compiles get this many times the compile time limit (see CompileLimits.scryptTsTimeoutMs). */
export const SCRYPT_TS_TIME_FACTOR = 3;

/** The default number of compile workers: the engine keeps a core for itself. */
export const defaultCompileWorkers = (): number => Math.max(1, os.availableParallelism() - 1);

/**
 * Each user's share of the compiler: one compile running and two waiting. Beyond that a request is refused
 * as busy at once, so one user's flood neither fills the queue nor delays another user by more than the
 * compiles already running (the queue takes users in turn).
 */
export const PER_USER_RUNNING = 1;
export const PER_USER_QUEUED = 2;
/** Compiles waiting over all users. */
export const MAX_QUEUE = 32;
/** Compiles waiting longer than this for a free worker are refused as busy. */
export const MAX_QUEUE_WAIT_MS = 60_000;
/** A worker that has not started a compile this long after it was handed over is failing to start. */
const START_LIMIT_MS = 30_000;
/** A worker's stack: deep recursion fails that compile with a RangeError, as on the main thread. */
const STACK_MB = 4;
/** Seconds a refused caller is told to wait before retrying. */
const RETRY_AFTER_S = 10;

/** The worker entry: beside this file under tsx (tests), beside the bundle in dist/. */
function workerFile(): string {
  const here = fileURLToPath(import.meta.url);
  return here.endsWith('.ts')
    ? path.join(path.dirname(here), '..', '..', 'contracts', 'compile-worker.ts')
    : path.join(path.dirname(here), 'compile-worker.js');
}

export interface CompilePoolOptions {
  /** Where a worker's failure outside any compile is reported; the pool carries on without it. */
  logger?: Logger;
  /** The worker entry; another only in tests (a worker that misbehaves). */
  workerFile?: string;
}

type Task =
  | { kind: 'compile'; source: string; file: string; optimize: boolean; imports: Record<string, string> }
  | { kind: 'transpile'; source: string; file: string }
  | { kind: 'scrypt-ts'; source: string; file: string; optimize: boolean };

const busy = (why: string) => new DomainError('BUSY', `The compiler is busy: ${why}. Try again shortly.`, { retryAfter: RETRY_AFTER_S });

/**
 * Compiles and transpiles in a pool of worker threads, each with a heap and stack limit; work that runs
 * past its time limit has its worker terminated. Whatever a compile does to its worker (exhausts its heap,
 * overflows its stack, exits, throws from a timer) fails that compile and the worker is replaced: the
 * engine's process never goes down with it. Compiles are let in through a fair queue in front of the
 * workers (exactly one compile per worker is handed to piscina), so users take turns and a compile
 * waiting behind a stopped one starts as soon as the worker is replaced. The pool starts on first use.
 */
export class CompilePool {
  private pool: Piscina | null = null;
  private readonly queue: FairQueue;
  private readonly workers: number;
  private closed = false;

  constructor(
    private readonly limits: CompileLimits = DEFAULT_COMPILE_LIMITS,
    private readonly options: CompilePoolOptions = {},
  ) {
    this.workers = Math.max(1, limits.workers ?? defaultCompileWorkers());
    this.queue = new FairQueue({
      slots: this.workers,
      perOwnerRunning: PER_USER_RUNNING,
      perOwnerQueued: PER_USER_QUEUED,
      maxQueued: MAX_QUEUE,
    });
  }

  private get piscina(): Piscina {
    if (!this.pool) {
      const pool = new Piscina({
        filename: this.options.workerFile ?? workerFile(),
        minThreads: 0,
        maxThreads: this.workers,
        idleTimeout: 30_000,
        resourceLimits: {
          maxOldGenerationSizeMb: this.limits.memoryMb,
          maxYoungGenerationSizeMb: Math.min(64, Math.max(8, Math.floor(this.limits.memoryMb / 8))),
          stackSizeMb: STACK_MB,
        },
      });
      // Piscina emits 'error' for a worker that fails with no task of its own (it ran out of memory while
      // being terminated for its time limit, or threw from a timer after answering). Unheard, that event
      // would end the process; no compile is waiting on that worker, and piscina has already dropped it.
      pool.on('error', (err: Error & { code?: string }) =>
        this.options.logger?.warn(
          { err: { message: err.message, code: err.code } },
          'a compile worker failed outside a compile; it was replaced',
        ),
      );
      this.pool = pool;
    }
    return this.pool;
  }

  /** `owner` is the caller's user id: each user has a fair share of the compiler. */
  compile(
    source: string,
    opts: { file: string; optimize: boolean; imports?: Record<string, string>; owner: string },
  ): Promise<CompileResult> {
    return this.run(
      { kind: 'compile', source, file: opts.file, optimize: opts.optimize, imports: opts.imports ?? {} },
      opts.owner,
      'Compiling',
    ) as Promise<CompileResult>;
  }

  /** A scrypt-ts source: transpiled and compiled in one worker task, with the scrypt-ts time limit. */
  compileScryptTs(source: string, opts: { file: string; optimize: boolean; owner: string }): Promise<ScryptTsCompileResult> {
    return this.run(
      { kind: 'scrypt-ts', source, file: opts.file, optimize: opts.optimize },
      opts.owner,
      'Compiling',
    ) as Promise<ScryptTsCompileResult>;
  }

  transpile(source: string, opts: { file: string; owner: string }): Promise<TranspileResult> {
    return this.run({ kind: 'transpile', source, file: opts.file }, opts.owner, 'Transpiling') as Promise<TranspileResult>;
  }

  /** Compiles running and waiting, for a user or for everyone. */
  load(owner?: string): { running: number; waiting: number } {
    return this.queue.load(owner);
  }

  private async run(task: Task, owner: string, doing: string): Promise<unknown> {
    const imported = task.kind === 'compile' ? Object.values(task.imports).reduce((n, text) => n + Buffer.byteLength(text, 'utf8'), 0) : 0;
    const bytes = Buffer.byteLength(task.source, 'utf8') + imported;
    if (bytes > this.limits.maxSourceBytes) {
      throw new DomainError('PAYLOAD_TOO_LARGE', `sourceCode: the source is ${bytes} bytes; ${this.limits.maxSourceBytes} at most.`);
    }
    if (this.closed) throw busy('it is shutting down');
    let release: () => void;
    try {
      release = await this.queue.acquire(owner, AbortSignal.timeout(MAX_QUEUE_WAIT_MS));
    } catch (err) {
      if (err instanceof QueueFull && err.scope === 'owner')
        throw busy(`you already have ${PER_USER_RUNNING} compile running and ${PER_USER_QUEUED} waiting`);
      if (err instanceof QueueFull) throw busy(`${MAX_QUEUE} compiles are waiting`);
      throw busy(this.closed ? 'it is shutting down' : 'no compile worker was free for a minute');
    }
    try {
      return await this.runOnWorker(task, doing);
    } finally {
      // Piscina has rejected the task and, if it stopped the worker, already dropped it: the next compile's
      // run() starts a fresh worker. Giving the slot back here is what starts the next compile in line.
      release();
    }
  }

  private timeLimitOf(task: Task): number {
    if (task.kind !== 'scrypt-ts') return this.limits.timeoutMs;
    return this.limits.scryptTsTimeoutMs ?? this.limits.timeoutMs * SCRYPT_TS_TIME_FACTOR;
  }

  private async runOnWorker(task: Task, doing: string): Promise<unknown> {
    const timeoutMs = this.timeLimitOf(task);
    const { port1, port2 } = new MessageChannel();
    const abort = new AbortController();
    let reason: 'time' | 'start' | null = null;
    const stop = (why: 'time' | 'start') => {
      reason = why;
      abort.abort();
    };
    // The time limit counts compiling, not starting a worker (which loads the compiler).
    let timer = setTimeout(() => stop('start'), START_LIMIT_MS);
    port1.once('message', () => {
      clearTimeout(timer);
      timer = setTimeout(() => stop('time'), timeoutMs);
    });
    try {
      return await this.piscina.run({ ...task, started: port2 }, { signal: abort.signal, transferList: [port2] });
    } catch (err) {
      throw this.failure(err, reason, doing, timeoutMs);
    } finally {
      clearTimeout(timer);
      port1.close();
    }
  }

  /** What a failed compile tells its caller: the source's fault is a 422, the compiler's state a 503. */
  private failure(err: unknown, reason: 'time' | 'start' | null, doing: string, timeoutMs: number): DomainError {
    if (reason === 'time')
      return new DomainError(
        'COMPILE_LIMIT',
        `${doing} took longer than ${timeoutMs / 1000} s and was stopped. Simplify the contract (fewer or shorter loops).`,
      );
    if (reason === 'start' || this.closed) return busy(this.closed ? 'it is shutting down' : 'a compile worker failed to start');
    const e = (err ?? {}) as { code?: string; message?: string; name?: string };
    if (e.code === 'ERR_WORKER_OUT_OF_MEMORY')
      return new DomainError(
        'COMPILE_LIMIT',
        `${doing} needed more than ${this.limits.memoryMb} MB and was stopped. Simplify the contract.`,
      );
    if (e.name === 'RangeError' && /call stack/i.test(e.message ?? '')) {
      return new DomainError(
        'COMPILE_LIMIT',
        `${doing} needed more than the compiler's stack (the contract nests or calls too deeply) and was stopped. Simplify the contract.`,
      );
    }
    // Anything else is the worker failing on this source (it exited, or the compiler threw): the source
    // is refused, the worker replaced, and the detail kept for the log rather than shown.
    this.options.logger?.warn({ err: { message: e.message, name: e.name, code: e.code } }, `${doing.toLowerCase()} failed in its worker`);
    return new DomainError(
      'COMPILE_LIMIT',
      `${doing} failed: the compiler stopped on this source and was restarted. Simplify the contract.`,
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    this.queue.refuseAll(busy('it is shutting down'));
    const pool = this.pool;
    this.pool = null;
    await pool?.destroy();
  }
}
