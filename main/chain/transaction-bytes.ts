import { Transaction } from '@bsv/sdk';
import { createHash } from 'node:crypto';

/** Bytes offered as a transaction that are not exactly one transaction. */
export class MalformedTransactionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedTransactionError';
  }
}

/** A transaction read from bytes someone else gave us, with the id every other node computes for it. */
export interface ParsedTransaction {
  tx: Transaction;
  txid: string;
  /** Its standard serialization (hex), also when it came in Extended Format. */
  raw: string;
}

/** Extended Format (BRC-30) starts with the version, then the marker 0000000000EF. */
const isExtendedFormat = (bytes: Buffer) => bytes.length > 10 && bytes.readUInt32BE(4) === 0 && bytes[8] === 0 && bytes[9] === 0xef;

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest();

/**
 * Reads a raw or Extended Format transaction strictly: the bytes must be exactly the transaction's own
 * serialization. @bsv/sdk's parser stops where the transaction ends and keeps the bytes it was given, so
 * trailing bytes or a non-minimal count would otherwise give the transaction an id no other node computes
 * (and a ledger entry under it). The txid is the double SHA-256 of the standard serialization.
 */
export function parseTransactionHex(input: string): ParsedTransaction {
  const hex = input.trim().toLowerCase();
  if (hex.length === 0 || hex.length % 2 !== 0 || !/^[0-9a-f]+$/.test(hex))
    throw new MalformedTransactionError('The transaction is not hex.');
  const bytes = Buffer.from(hex, 'hex');
  const ef = isExtendedFormat(bytes);
  // The usual case, a standard serialization with minimal counts and nothing after it, needs no second
  // serialization to prove it (@bsv/sdk keeps each script's bytes as given); anything else is judged below.
  if (!ef && standardLength(bytes) === bytes.length) {
    let tx: Transaction;
    try {
      tx = Transaction.fromBinary(bytes as unknown as number[]);
    } catch (err) {
      throw new MalformedTransactionError(`The transaction cannot be parsed: ${(err as Error).message}`);
    }
    return {
      tx,
      txid: Buffer.from(sha256(sha256(bytes)))
        .reverse()
        .toString('hex'),
      raw: hex,
    };
  }
  let tx: Transaction;
  try {
    tx = ef ? Transaction.fromEF(bytes) : Transaction.fromBinary(bytes);
  } catch (err) {
    throw new MalformedTransactionError(`The transaction cannot be parsed: ${(err as Error).message}`);
  }
  // Serialized afresh (the parsed one answers with the bytes it was given).
  const fresh = new Transaction(tx.version, tx.inputs, tx.outputs, tx.lockTime);
  const own = Buffer.from(ef ? fresh.toEF() : fresh.toBinary());
  if (!own.equals(bytes)) {
    throw new MalformedTransactionError(
      own.length < bytes.length && own.equals(bytes.subarray(0, own.length))
        ? `The transaction ends ${bytes.length - own.length} bytes before the data does.`
        : 'The transaction is not in its canonical form (a count or length is not minimally encoded).',
    );
  }
  const standard = ef ? Buffer.from(fresh.toBinary()) : own;
  return {
    tx,
    txid: Buffer.from(sha256(sha256(standard)))
      .reverse()
      .toString('hex'),
    raw: standard.toString('hex'),
  };
}

/**
 * The length of the standard serialization at the start of `bytes` when every count and script length in it
 * is minimally encoded; null when one is not, or the bytes end first. Reads only the structure.
 */
function standardLength(bytes: Buffer): number | null {
  let at = 0;
  const varint = (): number | null => {
    if (at >= bytes.length) return null;
    const first = bytes[at];
    if (first < 0xfd) {
      at += 1;
      return first;
    }
    const size = first === 0xfd ? 2 : first === 0xfe ? 4 : 8;
    if (at + 1 + size > bytes.length) return null;
    const n = size === 2 ? bytes.readUInt16LE(at + 1) : size === 4 ? bytes.readUInt32LE(at + 1) : Number(bytes.readBigUInt64LE(at + 1));
    // Minimal: the smallest encoding that holds n (anything larger than a transaction is no count of ours).
    if (n < (size === 2 ? 0xfd : size === 4 ? 0x10000 : 0x100000000) || n > bytes.length) return null;
    at += 1 + size;
    return n;
  };
  const skip = (n: number) => (at += n) <= bytes.length;
  if (!skip(4)) return null;
  const inputs = varint();
  if (inputs === null) return null;
  for (let i = 0; i < inputs; i++) {
    if (!skip(36)) return null;
    const script = varint();
    if (script === null || !skip(script + 4)) return null;
  }
  const outputs = varint();
  if (outputs === null) return null;
  for (let i = 0; i < outputs; i++) {
    if (!skip(8)) return null;
    const script = varint();
    if (script === null || !skip(script)) return null;
  }
  return skip(4) ? at : null;
}
