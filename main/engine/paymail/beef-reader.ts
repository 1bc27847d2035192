import type { Transaction } from '@bsv/sdk';
import { parseTransactionHex } from '../../chain/transaction-bytes.js';
import type { Bump } from './bump.js';

/**
 * A BEEF (BRC-62, BRC-96, Atomic BEEF BRC-95) read strictly and within bounds. @bsv/sdk's reader trusts
 * the counts it reads (nine bytes announcing 100,000,000 transactions keep it looping for minutes) and
 * links ancestors by walking every path again (a chain of transactions each spending two outputs of the
 * one before costs 2^depth steps). Here every count is checked against the limit and against the bytes
 * left before anything is read, the bytes must end where the BEEF does, every transaction is in its
 * canonical form, and ancestors are linked once each.
 */

const BEEF_V1 = 4022206465; // 0100BEEF, read little-endian
const BEEF_V2 = 4022206466; // 0200BEEF
const ATOMIC_BEEF = 0x01010101;
/** BEEF V2's per-transaction formats. */
const RAWTX = 0;
const RAWTX_AND_BUMP_INDEX = 1;
const TXID_ONLY = 2;
/** A block of 2^64 transactions is more than any chain will hold. */
const MAX_TREE_HEIGHT = 64;
const MIN_INPUT_BYTES = 41;
const MIN_OUTPUT_BYTES = 9;

export class BeefFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BeefFormatError';
  }
}

export interface BeefReadLimits {
  /** Transactions the BEEF may carry (txid-only entries included). */
  transactions: number;
  /** Leaves of all its merkle paths together: @bsv/sdk checks each path's leaves against each other. */
  bumpLeaves: number;
}

/** One transaction the BEEF carries: its bytes read, or only its id (BEEF V2's "known to you" entries). */
export interface BeefEntry {
  txid: string;
  tx: Transaction | null;
  /** Its standard serialization, hex (what a script worker is handed). */
  raw: string | null;
  /** The merkle path that proves it, when the BEEF says one does. */
  proof: Bump | null;
}

export interface ReadBeef {
  /** The transaction the BEEF is about: the atomic one, else the last. */
  subject: BeefEntry;
  byTxid: Map<string, BeefEntry>;
}

class Cursor {
  pos = 0;
  constructor(private readonly bytes: Buffer) {}

  get left(): number {
    return this.bytes.length - this.pos;
  }

  take(n: number, what: string): Buffer {
    if (n > this.left) throw new BeefFormatError(`the BEEF ends inside ${what}`);
    const b = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }

  u8(what: string): number {
    return this.take(1, what)[0];
  }

  u32(what: string): number {
    return this.take(4, what).readUInt32LE(0);
  }

  varint(what: string): number {
    const first = this.u8(what);
    if (first < 0xfd) return first;
    if (first === 0xfd) return this.take(2, what).readUInt16LE(0);
    if (first === 0xfe) return this.u32(what);
    const b = this.take(8, what);
    const high = b.readUInt32LE(4);
    if (high >= 2 ** 21) throw new BeefFormatError(`${what} is larger than any count can be`);
    return high * 2 ** 32 + b.readUInt32LE(0);
  }

  bytesFrom(start: number): Buffer {
    return this.bytes.subarray(start, this.pos);
  }

  /** A count of items of at least `minBytes` each: refused before reading when the bytes left cannot hold them. */
  count(what: string, minBytes: number, limit = Infinity): number {
    const n = this.varint(what);
    if (n > limit) throw new BeefFormatError(`the BEEF has ${n} ${what}; the limit is ${limit}`);
    if (n * minBytes > this.left) throw new BeefFormatError(`the BEEF announces ${n} ${what} but ends first`);
    return n;
  }
}

/** Steps over one transaction's bytes (checking every count against what is left) and returns them. */
function rawTransaction(c: Cursor, k: number): Buffer {
  const start = c.pos;
  const what = `transaction ${k}`;
  c.take(4, what);
  const inputs = c.count(`inputs of ${what}`, MIN_INPUT_BYTES);
  if (inputs === 0) throw new BeefFormatError(`${what} has no inputs`);
  for (let i = 0; i < inputs; i++) {
    c.take(36, what);
    c.take(c.varint(what), what);
    c.take(4, what);
  }
  const outputs = c.count(`outputs of ${what}`, MIN_OUTPUT_BYTES);
  if (outputs === 0) throw new BeefFormatError(`${what} has no outputs`);
  for (let o = 0; o < outputs; o++) {
    c.take(8, what);
    c.take(c.varint(what), what);
  }
  c.take(4, what);
  return c.bytesFrom(start);
}

/** Reads one merkle path (BRC-74), its leaves counted against what the BEEF may still hold. */
function readBump(c: Cursor, k: number, leavesLeft: number): { bump: Bump; leaves: number } {
  const what = `merkle path ${k}`;
  const blockHeight = c.varint(`the block height of ${what}`);
  const height = c.u8(what);
  if (height === 0 || height > MAX_TREE_HEIGHT)
    throw new BeefFormatError(`${what} is ${height} levels high; a block's tree is 1 to ${MAX_TREE_HEIGHT}`);
  const levels: Bump['levels'] = [];
  let leaves = 0;
  for (let level = 0; level < height; level++) {
    const n = c.count(`leaves of ${what}`, 2, leavesLeft - leaves);
    if (level === 0 && n === 0) throw new BeefFormatError(`${what} has no leaves`);
    leaves += n;
    const nodes = new Map<number, Buffer | null>();
    for (let l = 0; l < n; l++) {
      const offset = c.varint(what);
      const flags = c.u8(what);
      if (nodes.has(offset)) throw new BeefFormatError(`${what} gives offset ${offset} twice at level ${level}`);
      nodes.set(offset, (flags & 1) === 1 ? null : Buffer.from(c.take(32, what)));
    }
    levels.push(nodes);
  }
  return { bump: { blockHeight, levels }, leaves };
}

/** Reads a BEEF from hex: bounded, strict, and with each ancestor linked to the inputs that spend it. */
export function readBeef(hex: string, limits: BeefReadLimits): ReadBeef {
  if (hex.length === 0 || hex.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(hex)) throw new BeefFormatError('the BEEF is not hex');
  const c = new Cursor(Buffer.from(hex, 'hex'));
  let version = c.u32('the version');
  let atomic: string | null = null;
  if (version === ATOMIC_BEEF) {
    atomic = Buffer.from(c.take(32, 'the atomic txid')).reverse().toString('hex');
    version = c.u32('the version');
  }
  if (version !== BEEF_V1 && version !== BEEF_V2) throw new BeefFormatError(`the BEEF's version ${version} is neither BEEF V1 nor V2`);

  const bumps: Bump[] = [];
  const bumpCount = c.count('merkle paths', 3, limits.transactions);
  let leaves = 0;
  for (let k = 0; k < bumpCount; k++) {
    const b = readBump(c, k, limits.bumpLeaves - leaves);
    leaves += b.leaves;
    bumps.push(b.bump);
  }

  const byTxid = new Map<string, BeefEntry>();
  const txCount = c.count('transactions', 33, limits.transactions);
  if (txCount === 0) throw new BeefFormatError('the BEEF carries no transaction');
  let last: BeefEntry | null = null;
  for (let k = 0; k < txCount; k++) {
    let bumpIndex: number | null = null;
    let entry: BeefEntry;
    const format = version === BEEF_V2 ? c.u8(`the format of transaction ${k}`) : RAWTX;
    if (format === TXID_ONLY) {
      entry = {
        txid: Buffer.from(c.take(32, `transaction ${k}`))
          .reverse()
          .toString('hex'),
        tx: null,
        raw: null,
        proof: null,
      };
    } else {
      if (format !== RAWTX && format !== RAWTX_AND_BUMP_INDEX)
        throw new BeefFormatError(`transaction ${k} has an unknown format ${format}`);
      if (format === RAWTX_AND_BUMP_INDEX) bumpIndex = c.varint(`the merkle path index of transaction ${k}`);
      const bytes = rawTransaction(c, k);
      if (version === BEEF_V1) {
        const hasBump = c.u8(`transaction ${k}`);
        if (hasBump > 1) throw new BeefFormatError(`transaction ${k}'s merkle path flag is ${hasBump}, not 0 or 1`);
        if (hasBump === 1) bumpIndex = c.varint(`the merkle path index of transaction ${k}`);
      }
      let parsed;
      try {
        parsed = parseTransactionHex(bytes.toString('hex'));
      } catch (err) {
        throw new BeefFormatError(`transaction ${k}: ${(err as Error).message}`);
      }
      if (bumpIndex !== null && bumpIndex >= bumps.length)
        throw new BeefFormatError(`transaction ${k} names merkle path ${bumpIndex}; the BEEF has ${bumps.length}`);
      entry = { txid: parsed.txid, tx: parsed.tx, raw: parsed.raw, proof: bumpIndex === null ? null : bumps[bumpIndex] };
    }
    if (byTxid.has(entry.txid)) throw new BeefFormatError(`the BEEF carries ${entry.txid} twice`);
    byTxid.set(entry.txid, entry);
    last = entry;
  }
  if (c.left > 0) throw new BeefFormatError(`${c.left} bytes follow the BEEF's last transaction`);

  const subject = atomic === null ? last! : byTxid.get(atomic);
  if (!subject?.tx)
    throw new BeefFormatError(
      atomic === null ? 'the BEEF ends with a txid, not a transaction' : `the atomic BEEF does not carry its transaction ${atomic}`,
    );
  // Each carried ancestor linked once to the inputs spending it (as @bsv/sdk's reader does, without its
  // repeated walks). Merkle paths stay ours: @bsv/sdk's would check themselves at great cost (bump.ts).
  for (const e of byTxid.values()) {
    if (!e.tx) continue;
    for (const input of e.tx.inputs) {
      const source = byTxid.get(input.sourceTXID!)?.tx;
      if (source) input.sourceTransaction = source;
    }
  }
  return { subject, byTxid };
}
