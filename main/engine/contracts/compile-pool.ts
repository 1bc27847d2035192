import { MessageChannel } from 'node:worker_threads';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { DomainError } from '../../../shared/errors.js';
import type { CompileResult } from '../../contracts/scrypt/compile.js';
import type { TranspileResult } from '../../contracts/solidity/transpile.js';

/** What one compile may use. Untrusted source must not hold the engine's event loop or its memory. */
export interface CompileLimits {
  /** Compiling (not waiting in the queue) longer than this is stopped. */
  timeoutMs: number;
  /** The worker's heap; a compile that needs more is stopped. */
  memoryMb: number;
  /** Larger sources are refused before any work. */
  maxSourceBytes: number;
}

export const DEFAULT_COMPILE_LIMITS: CompileLimits = { timeoutMs: 10_000, memoryMb: 512, maxSourceBytes: 1_000_000 };

/** Compiles waiting longer than this for a free worker are refused as busy. */
const MAX_QUEUE_WAIT_MS = 60_000;
const MAX_QUEUE = 32;

/** The worker entry: beside this file under tsx (tests), beside the bundle in dist/. */
function workerFile(): string {
  const here = fileURLToPath(import.meta.url);
  return here.endsWith('.ts') ? path.join(path.dirname(here), '..', '..', 'contracts', 'compile-worker.ts') : path.join(path.dirname(here), 'compile-worker.js');
}

/**
 * Compiles and transpiles in a pool of worker threads (one fewer than the cores, at least one), each with
 * a heap limit; work that runs past its time limit has its worker terminated. The pool starts on first use.
 */
export class CompilePool {
  private pool: Piscina | null = null;

  constructor(private readonly limits: CompileLimits = DEFAULT_COMPILE_LIMITS) {}

  private get workers(): Piscina {
    this.pool ??= new Piscina({
      filename: workerFile(),
      minThreads: 0,
      maxThreads: Math.max(1, os.availableParallelism() - 1),
      idleTimeout: 30_000,
      maxQueue: MAX_QUEUE,
      resourceLimits: { maxOldGenerationSizeMb: this.limits.memoryMb, maxYoungGenerationSizeMb: 64 },
    });
    return this.pool;
  }

  compile(source: string, opts: { file: string; optimize: boolean; imports?: Record<string, string> }): Promise<CompileResult> {
    return this.run({ kind: 'compile', source, file: opts.file, optimize: opts.optimize, imports: opts.imports ?? {} }, 'Compiling') as Promise<CompileResult>;
  }

  transpile(source: string, opts: { file: string }): Promise<TranspileResult> {
    return this.run({ kind: 'transpile', source, file: opts.file }, 'Transpiling') as Promise<TranspileResult>;
  }

  private async run(task: { kind: 'compile'; source: string; file: string; optimize: boolean; imports: Record<string, string> } | { kind: 'transpile'; source: string; file: string }, doing: string): Promise<unknown> {
    const imported = task.kind === 'compile' ? Object.values(task.imports).reduce((n, text) => n + Buffer.byteLength(text, 'utf8'), 0) : 0;
    const bytes = Buffer.byteLength(task.source, 'utf8') + imported;
    if (bytes > this.limits.maxSourceBytes) {
      throw new DomainError('PAYLOAD_TOO_LARGE', `sourceCode: the source is ${bytes} bytes; ${this.limits.maxSourceBytes} at most.`);
    }
    const { port1, port2 } = new MessageChannel();
    const abort = new AbortController();
    let reason: 'time' | 'queue' | null = null;
    const stop = (why: 'time' | 'queue') => {
      reason = why;
      abort.abort();
    };
    let timer = setTimeout(() => stop('queue'), MAX_QUEUE_WAIT_MS);
    port1.once('message', () => {
      clearTimeout(timer);
      timer = setTimeout(() => stop('time'), this.limits.timeoutMs);
    });
    try {
      return await this.workers.run({ ...task, started: port2 }, { signal: abort.signal, transferList: [port2] });
    } catch (err) {
      if (reason === 'time') throw new DomainError('COMPILE_LIMIT', `${doing} took longer than ${this.limits.timeoutMs / 1000} s and was stopped. Simplify the contract (fewer or shorter loops).`);
      if (reason === 'queue') throw new DomainError('BUSY', 'The compiler is busy with other contracts. Try again shortly.', { retryAfter: 10 });
      const e = err as { code?: string; message?: string };
      if (e.code === 'ERR_WORKER_OUT_OF_MEMORY') throw new DomainError('COMPILE_LIMIT', `${doing} needed more than ${this.limits.memoryMb} MB and was stopped. Simplify the contract.`);
      if (/queue is at limit/i.test(e.message ?? '')) throw new DomainError('BUSY', 'The compiler is busy with other contracts. Try again shortly.', { retryAfter: 10 });
      throw err;
    } finally {
      clearTimeout(timer);
      port1.close();
    }
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    await pool?.destroy();
  }
}
