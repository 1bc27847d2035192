import type { Token } from '../script.js';

/**
 * How large a locking script may be, from the Bitcoin SV node's rules after Genesis (src/consensus/consensus.h,
 * src/policy/policy.h, src/policy/policy.cpp):
 * - consensus allows scripts of up to UINT32_MAX bytes (MAX_SCRIPT_SIZE_AFTER_GENESIS) in transactions of up to
 *   1 GB (MAX_TX_SIZE_CONSENSUS_AFTER_GENESIS): no limit a contract meets;
 * - by default, nodes relay and mine transactions of at most 10,000,000 bytes (-maxtxsizepolicy,
 *   DEFAULT_MAX_TX_SIZE_POLICY_AFTER_GENESIS = 10 × ONE_MEGABYTE, IsStandardTx's "tx-size"): a locking script
 *   is only usable if a transaction that creates it can be broadcast, so this is the limit a compile enforces;
 * - by default, nodes run scripts of at most 500,000 bytes (-maxscriptsizepolicy,
 *   DEFAULT_MAX_SCRIPT_SIZE_POLICY_AFTER_GENESIS = 500 × ONE_KILOBYTE, checked by EvalScript on each script
 *   of a spend, the locking script included): a larger contract can be deployed, but spending it needs a miner
 *   configured for larger scripts, which the compile reports as a warning.
 */
export const MAX_TX_SIZE_POLICY = 10_000_000;
export const MAX_SCRIPT_SIZE_POLICY = 500_000;

/**
 * The smallest transaction around one output of a large script: version (4), one input (count 1, outpoint 36,
 * an empty unlocking script's length 1, sequence 4), one output (count 1, value 8, the script's length as a
 * 5-byte varint, needed from 65,536 bytes on), lock time (4).
 */
export const SMALLEST_TX_OVERHEAD = 4 + 1 + 36 + 1 + 4 + 1 + 8 + 5 + 4;

/** The largest locking script a transaction that default Bitcoin SV nodes relay can carry. */
export const MAX_LOCKING_SCRIPT_BYTES = MAX_TX_SIZE_POLICY - SMALLEST_TX_OVERHEAD;

/**
 * The script bytes of one token. A constructor placeholder counts as the one byte of its smallest value (OP_0):
 * the argument scryptlib puts there is only known at deployment, so sizes of templates are lower bounds.
 */
export function tokenBytes(t: Token): number {
  if ('op' in t || 'placeholder' in t) return 1;
  const n = t.push.length / 2;
  return n + (n < 0x4c ? 1 : n <= 0xff ? 2 : n <= 0xffff ? 3 : 5);
}

/** The template's size in bytes (placeholders as one byte each). */
export function scriptBytes(tokens: readonly Token[]): number {
  let n = 0;
  for (const t of tokens) n += tokenBytes(t);
  return n;
}

const fmt = (n: number) => n.toLocaleString('en-US');

/** The refusal: the script cannot be broadcast by default nodes. `exact` false when generation stopped early (at `bytes`). */
export function tooLargeMessage(bytes: number, exact: boolean): string {
  return (
    `the locking script is ${exact ? '' : 'at least '}${fmt(bytes)} bytes; Bitcoin SV nodes relay transactions of at most ` +
    `${fmt(MAX_TX_SIZE_POLICY)} bytes by default (maxtxsizepolicy), so no transaction could carry it ` +
    `(at most ${fmt(MAX_LOCKING_SCRIPT_BYTES)} bytes of locking script); unroll fewer loop iterations`
  );
}

/** The warning: the script can be broadcast, but default nodes do not run it when it is spent. */
export function notSpendableMessage(bytes: number): string {
  return (
    `the locking script is ${fmt(bytes)} bytes; Bitcoin SV nodes run scripts of at most ${fmt(MAX_SCRIPT_SIZE_POLICY)} bytes ` +
    `by default (maxscriptsizepolicy), so spending it needs a miner that accepts larger scripts`
  );
}
