import type { Transaction } from '@bsv/sdk';
import { addCost, NO_COST, scriptCost, type ScriptCost } from '../script-cost.js';
import type { SpentSource } from './validate.js';

/**
 * What a script check run on the node's own thread may cost, counted in the scripts that would run: each
 * input's unlocking script and the output it spends. A small transaction can still spend an output (already
 * on the chain) whose script holds a thousand signature checks, seconds of the event loop; such a check
 * goes to the workers. Four P2PKH inputs are 4 signature checks and about 530 bytes.
 */
export const MAIN_THREAD_SIGOPS = 8;
export const MAIN_THREAD_SCRIPT_BYTES = 2_000;

/** The cost of checking `tx`'s inputs against the outputs they spend (in input order). */
export function checkCost(tx: Transaction, sources: readonly SpentSource[]): ScriptCost {
  let cost = NO_COST;
  for (const [i, input] of tx.inputs.entries()) {
    if (input.unlockingScript) cost = addCost(cost, scriptCost(input.unlockingScript.toBinary()));
    if (sources[i]) cost = addCost(cost, scriptCost(Buffer.from(sources[i].script, 'hex')));
  }
  return cost;
}

/**
 * Whether the check may run on the node's own thread: few signature checks, few bytes, and nothing that
 * grows a stack element beyond the pushes (OP_CAT and kin: hashing a grown element again and again costs
 * what no byte count shows).
 */
export function cheapEnoughForMainThread(tx: Transaction, sources: readonly SpentSource[]): boolean {
  const cost = checkCost(tx, sources);
  return cost.sigops <= MAIN_THREAD_SIGOPS && cost.bytes <= MAIN_THREAD_SCRIPT_BYTES && cost.growth === 0;
}
