import { posix } from 'node:path';
import type { MessagePort } from 'node:worker_threads';
import { compileScrypt, type CompileResult } from './scrypt/compile.js';
import { transpileSolidity, type TranspileResult } from './solidity/transpile.js';

/** One compile or transpile, as the engine's worker pool hands it over. */
export type ToolTask = (
  | { kind: 'compile'; source: string; file: string; optimize: boolean; imports: Record<string, string> }
  | { kind: 'transpile'; source: string; file: string }
) & {
  /** Told the moment the work starts, so the time limit counts the work, not waiting in the queue. */
  started: MessagePort;
};

/** The worker's entry: untrusted source is compiled or transpiled here, off the engine's event loop. */
export default function runInWorker(task: ToolTask): CompileResult | TranspileResult {
  task.started.postMessage('started');
  task.started.close();
  if (task.kind === 'transpile') return transpileSolidity(task.source, { file: task.file });
  // Imported files come with the request, keyed by their path relative to the source.
  const imports = new Map(Object.entries(task.imports).map(([p, text]) => [posix.normalize(p.replace(/\\/g, '/')), text]));
  return compileScrypt(task.source, { file: task.file, optimize: task.optimize, readImport: (p) => imports.get(p) ?? null });
}
