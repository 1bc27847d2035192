import { createHash } from 'node:crypto';

/**
 * A merkle path (BUMP, BRC-74) as a stranger sent it, and the root it gives for a txid, computed here with
 * node:crypto and every node at most once. @bsv/sdk's MerklePath checks a path by recomputing each txid's
 * root from scratch, recomputing inner nodes again for every txid below them in pure-JavaScript SHA-256:
 * a compound path of 250 txids (72 KB) took it 73 s on the main thread.
 */
export interface Bump {
  blockHeight: number;
  /** Per level (leaves first): offset → hash in internal byte order, or `null` for "duplicate the other child". */
  levels: Map<number, Buffer | null>[];
}

export class BumpError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BumpError';
  }
}

const hash256 = (a: Buffer, b: Buffer): Buffer => createHash('sha256').update(createHash('sha256').update(a).update(b).digest()).digest();
const sibling = (offset: number) => (offset % 2 === 0 ? offset + 1 : offset - 1);
const parent = (offset: number) => Math.floor(offset / 2);
const display = (b: Buffer) => Buffer.from(b).reverse().toString('hex');

/**
 * The block's merkle root (hex, as txids are written) that this path gives `txid`, which must be one of its
 * leaves. Throws with what is missing otherwise. Follows @bsv/sdk's reading of paths: an inner node that is
 * not given is computed from its two children; a path of one level is a compound path of txids only.
 */
export function bumpRoot(bump: Bump, txid: string): string {
  const want = Buffer.from(txid, 'hex').reverse();
  let index = -1;
  for (const [offset, hash] of bump.levels[0]) {
    if (hash?.equals(want)) {
      index = offset;
      break;
    }
  }
  if (index < 0) throw new BumpError(`it does not contain ${txid}`);
  const onlyLeaves = bump.levels.length === 1;
  let maxOffset0 = 0;
  for (const offset of bump.levels[0].keys()) maxOffset0 = Math.max(maxOffset0, offset);
  if (onlyLeaves && bump.levels[0].size === 1) return txid; // a block of one transaction
  const height = Math.max(bump.levels.length, Math.ceil(Math.log2(maxOffset0 + 1)));
  const computed = new Map<string, Buffer | null | undefined>();

  /** The node at (level, offset): given, or computed from its children (once), or undefined when it cannot be. */
  function node(level: number, offset: number): Buffer | null | undefined {
    const given = level < bump.levels.length ? bump.levels[level].get(offset) : undefined;
    if (given !== undefined) return given;
    if (level === 0) return undefined;
    const key = `${level}:${offset}`;
    if (computed.has(key)) return computed.get(key);
    let result: Buffer | undefined;
    const left = node(level - 1, offset * 2);
    if (left) {
      const right = node(level - 1, offset * 2 + 1);
      if (right) result = hash256(left, right);
      else if (right === null || (onlyLeaves && offset * 2 === Math.floor(maxOffset0 / 2 ** (level - 1)))) result = hash256(left, left);
    }
    computed.set(key, result);
    return result;
  }

  let working: Buffer = want;
  let at = index;
  for (let level = 0; level < height; level++) {
    const other = node(level, sibling(at));
    if (other === undefined) {
      // The last node of a level in a path of leaves only pairs with itself (Bitcoin's rule).
      if (onlyLeaves && at === Math.floor(maxOffset0 / 2 ** level)) working = hash256(working, working);
      else throw new BumpError(`it lacks the hash beside index ${index} at level ${level}`);
    } else if (other === null) working = hash256(working, working);
    else working = at % 2 === 0 ? hash256(working, other) : hash256(other, working);
    at = parent(at);
  }
  return display(working);
}
