import { Transaction } from '@bsv/sdk';
import { verifyInputScript, type Rejection, type SpentSource } from './validate.js';

/** Some of a transaction's inputs, each with the output it spends, for one worker to check. */
export interface ScriptTask {
  /** The transaction's standard serialization, hex. */
  raw: string;
  inputs: (SpentSource & { index: number })[];
}

/** The worker's entry: checks the inputs it was given, in order; the first failure, or null. */
export default function verifyInWorker(task: ScriptTask): Rejection | null {
  if (task.inputs.length === 0) return null; // nothing to check: the pool starting its threads
  const tx = Transaction.fromHex(task.raw);
  for (const { index, ...source } of task.inputs) {
    const bad = verifyInputScript(tx, index, source);
    if (bad) return bad;
  }
  return null;
}
