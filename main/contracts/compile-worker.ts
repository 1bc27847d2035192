import type { MessagePort } from 'node:worker_threads';
import { compileScrypt, type CompileResult } from './scrypt/compile.js';

/** One compile, as the engine's worker pool hands it over. */
export interface CompileTask {
  source: string;
  file: string;
  optimize: boolean;
  /** Told the moment the work starts, so the time limit counts compiling, not waiting in the queue. */
  started: MessagePort;
}

/** The worker's entry: untrusted source is compiled here, off the engine's event loop. */
export default function compileInWorker(task: CompileTask): CompileResult {
  task.started.postMessage('started');
  task.started.close();
  return compileScrypt(task.source, { file: task.file, optimize: task.optimize });
}
