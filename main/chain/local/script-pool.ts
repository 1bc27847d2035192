import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { ScriptTask } from './script-worker.js';
import type { Rejection, SpentSource } from './validate.js';

/** The worker entry: beside this file under tsx (tests), beside the bundle in dist/. */
function workerFile(): string {
  const here = fileURLToPath(import.meta.url);
  return path.join(path.dirname(here), here.endsWith('.ts') ? 'script-worker.ts' : 'script-worker.js');
}

/** Inputs per worker task, at the least: fewer would cost more in hand-over than they save. */
const MIN_CHUNK = 8;

/** How long one transaction's scripts may take on the workers before the check is given up. */
export const SCRIPT_CHECK_LIMIT_MS = 120_000;

/** Each script worker's memory: heap (old and young generations) and stack. */
export const SCRIPT_WORKER_LIMITS = { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 64, stackSizeMb: 4 } as const;

/** The scripts could not be checked (a worker failed or the pool closed): says nothing about the transaction. */
export class ScriptCheckUnavailable extends Error {
  constructor(
    message: string,
    /** The pool was closed on purpose (the node is closing), rather than failing. */
    readonly closing: boolean,
    /** The check ran past its time limit (its worker was stopped): the script is too costly to judge here. */
    readonly timedOut = false,
  ) {
    super(message);
    this.name = 'ScriptCheckUnavailable';
  }
}

/** A worker's answer is a verdict only if it is exactly "no failure" or a refusal: anything else fails closed. */
const isVerdict = (r: unknown): r is Rejection | null =>
  r === null ||
  (typeof r === 'object' &&
    (r as Rejection).ok === false &&
    typeof (r as Rejection).reason === 'string' &&
    typeof (r as Rejection).message === 'string');

/**
 * Checks transactions' scripts on worker threads, one per core, so that several transactions arriving at
 * once are checked side by side and the event loop stays free for requests while they are. A large
 * transaction's inputs are split across the workers.
 */
export class ScriptVerifier {
  private static process: ScriptVerifier | undefined;

  /** The pool the local nodes of this process share unless given their own (tests run many nodes in one process). */
  static shared(): ScriptVerifier {
    return (ScriptVerifier.process ??= new ScriptVerifier());
  }

  private pool: Piscina | null = null;
  private closed = false;
  private started = false;
  /** Tasks handed to piscina now (at most `threads`), and those waiting for one of those slots. */
  private busy = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly threads = Math.max(1, os.availableParallelism()),
    /** The worker entry; another only in tests (a worker that fails). */
    private readonly file = workerFile(),
    private readonly limitMs = SCRIPT_CHECK_LIMIT_MS,
  ) {}

  private get workers(): Piscina {
    if (!this.pool) {
      const pool = new Piscina({
        filename: this.file,
        minThreads: 0,
        maxThreads: this.threads,
        // Kept while the node is busy now and then; an idle node gives its threads back.
        idleTimeout: 5 * 60_000,
        // Scripts are the stranger's: a hostile one exhausting a worker's heap or stack fails that worker, not the engine.
        resourceLimits: SCRIPT_WORKER_LIMITS,
      });
      // Piscina emits 'error' for a worker that fails with no task of its own (out of memory while being
      // stopped for its time limit, a throw from a timer): unheard, that would end the process. No check
      // waits on that worker and piscina has dropped it, so there is nothing to do.
      pool.on('error', () => {});
      this.pool = pool;
    }
    return this.pool;
  }

  /**
   * Hands a task to piscina once one of `threads` slots is free. Piscina starts a queued task only when a
   * worker becomes free or a run() call adds one; a worker stopped for its time limit is dropped without a
   * replacement, so a task queued inside piscina would wait for the next transaction. Queued here instead,
   * the stopped task's slot going back starts the next one, on a fresh worker.
   */
  private async runTask(task: ScriptTask, signal: AbortSignal): Promise<unknown> {
    if (this.busy >= this.threads) {
      await new Promise<void>((resolve, reject) => {
        const waiter = () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = () => {
          const at = this.waiting.indexOf(waiter);
          if (at >= 0) this.waiting.splice(at, 1);
          reject(new Error('aborted while waiting for a script worker'));
        };
        signal.addEventListener('abort', onAbort, { once: true });
        this.waiting.push(waiter);
      });
    } else this.busy += 1;
    try {
      // Closed while this task waited: a new pool now would never be destroyed.
      if (this.closed) throw new Error('the node is closing');
      return await this.workers.run(task, { signal });
    } finally {
      // The slot passes straight to the next task in line, or is given back.
      const next = this.waiting.shift();
      if (next) next();
      else this.busy -= 1;
    }
  }

  /**
   * Starts the threads now, in the background (each gets a task with no inputs), so that the first busy
   * moment does not wait for them: each loads @bsv/sdk, about a quarter of a second. Idle, they are given
   * back as ever.
   */
  prestart(): void {
    if (this.started || this.closed) return;
    this.started = true;
    const never = new AbortController().signal;
    for (let i = 0; i < this.threads; i++) this.runTask({ raw: '', inputs: [] }, never).catch(() => {});
  }

  /** The first input whose script fails (in input order), or null when every script unlocks its output. */
  async verify(raw: string, sources: readonly SpentSource[]): Promise<Rejection | null> {
    if (this.closed) throw new ScriptCheckUnavailable('the node is closing', true);
    const chunks = Math.max(1, Math.min(this.threads, Math.floor(sources.length / MIN_CHUNK)));
    const per = Math.ceil(sources.length / chunks);
    const tasks: ScriptTask[] = [];
    for (let start = 0; start < sources.length; start += per) {
      tasks.push({
        raw,
        inputs: sources.slice(start, start + per).map((s, k) => ({ index: start + k, satoshis: s.satoshis, script: s.script })),
      });
    }
    // A stranger's script can be built to cost minutes; past the limit its workers are stopped.
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), this.limitMs);
    let results: unknown[];
    try {
      results = await Promise.all(tasks.map((t) => this.runTask(t, stop.signal)));
    } catch (err) {
      if (stop.signal.aborted)
        throw new ScriptCheckUnavailable(`checking the scripts took longer than ${this.limitMs / 1000} s`, this.closed, true);
      throw new ScriptCheckUnavailable(`the scripts could not be checked: ${(err as Error).message}`, this.closed);
    } finally {
      // Not aborted on success: piscina may still be listening to the signal, and an abort there stops a worker.
      clearTimeout(timer);
    }
    if (!results.every(isVerdict)) throw new ScriptCheckUnavailable('a script worker answered something other than a verdict', false);
    return results.find((r) => r !== null) ?? null;
  }

  async close(): Promise<void> {
    this.closed = true;
    const pool = this.pool;
    this.pool = null;
    await pool?.destroy();
  }
}
