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

/** The scripts could not be checked (a worker failed or the pool closed): says nothing about the transaction. */
export class ScriptCheckUnavailable extends Error {}

/**
 * Checks transactions' scripts on worker threads, one per core, so that several transactions arriving at
 * once are checked side by side and the event loop stays free for requests while they are. A large
 * transaction's inputs are split across the workers.
 */
export class ScriptVerifier {
  private pool: Piscina | null = null;
  private closed = false;

  constructor(private readonly threads = Math.max(1, os.availableParallelism())) {}

  private get workers(): Piscina {
    this.pool ??= new Piscina({
      filename: workerFile(),
      minThreads: 0,
      maxThreads: this.threads,
      // Kept while the node is busy now and then; an idle node gives its threads back.
      idleTimeout: 5 * 60_000,
      // Scripts are the stranger's: a hostile one exhausting a worker's heap fails that worker, not the engine.
      resourceLimits: { maxOldGenerationSizeMb: 512 },
    });
    return this.pool;
  }

  /** The first input whose script fails (in input order), or null when every script unlocks its output. */
  async verify(raw: string, sources: readonly SpentSource[]): Promise<Rejection | null> {
    if (this.closed) throw new ScriptCheckUnavailable('the node is closing');
    const chunks = Math.max(1, Math.min(this.threads, Math.floor(sources.length / MIN_CHUNK)));
    const per = Math.ceil(sources.length / chunks);
    const tasks: ScriptTask[] = [];
    for (let start = 0; start < sources.length; start += per) {
      tasks.push({ raw, inputs: sources.slice(start, start + per).map((s, k) => ({ index: start + k, satoshis: s.satoshis, script: s.script })) });
    }
    let results: (Rejection | null)[];
    try {
      results = (await Promise.all(tasks.map((t) => this.workers.run(t)))) as (Rejection | null)[];
    } catch (err) {
      throw new ScriptCheckUnavailable(`the scripts could not be checked: ${(err as Error).message}`);
    }
    return results.find((r) => r !== null) ?? null;
  }

  async close(): Promise<void> {
    this.closed = true;
    const pool = this.pool;
    this.pool = null;
    await pool?.destroy();
  }
}
