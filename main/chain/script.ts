import { createHash } from 'node:crypto';
import { Script, Utils } from '@bsv/sdk';

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/**
 * The mainnet-prefixed address (version byte 0) of a 20-byte key hash, in hex. Base58Check with the
 * checksum by node:crypto: the ledger and the books compute an address for every output they record, and
 * @bsv/sdk's pure-JavaScript SHA-256 and digit-by-digit Base58 made that a visible part of accepting a
 * transaction. Checked against @bsv/sdk's toBase58Check in test/unit/script-address.test.ts.
 */
export function addressOfHash160(hash160Hex: string): string {
  const payload = Buffer.from(`00${hash160Hex}`, 'hex');
  const check = createHash('sha256').update(createHash('sha256').update(payload).digest()).digest();
  const bytes = Buffer.concat([payload, check.subarray(0, 4)]);
  // Base 256 to base 58 in small integers (little-endian digits): no BigInt allocation per digit.
  const digits = [0];
  for (const byte of bytes) {
    let carry = byte;
    for (let j = 0; j < digits.length; j++) {
      carry += digits[j] * 256;
      digits[j] = carry % 58;
      carry = Math.floor(carry / 58);
    }
    while (carry > 0) {
      digits.push(carry % 58);
      carry = Math.floor(carry / 58);
    }
  }
  let out = '';
  // Each leading zero byte is a leading '1'.
  for (let i = 0; i < bytes.length && bytes[i] === 0; i++) out += '1';
  const isZero = digits.length === 1 && digits[0] === 0; // only for all-zero bytes: the ones say it all
  if (!isZero) for (let j = digits.length - 1; j >= 0; j--) out += BASE58[digits[j]];
  return out;
}

/**
 * Addresses of recent P2PKH scripts. One payment asks for the same few several times (the ledger records
 * its outputs, the books work out its effect when it is recorded and again when it is booked), and each
 * costs two SHA-256 objects and a Base58 conversion. Bounded: emptied when full.
 */
const recentAddresses = new Map<string, string>();
const RECENT_ADDRESSES = 4096;

/** The P2PKH address a locking script pays, or null for any other script. */
export function p2pkhAddressOf(scriptHex: string): string | null {
  if (scriptHex.length !== 50) return null;
  const known = recentAddresses.get(scriptHex);
  if (known !== undefined) return known;
  const m = /^76a914([0-9a-f]{40})88ac$/.exec(scriptHex);
  if (!m) return null;
  const address = addressOfHash160(m[1]);
  if (recentAddresses.size >= RECENT_ADDRESSES) recentAddresses.clear();
  recentAddresses.set(scriptHex, address);
  return address;
}

/**
 * The address that holds an output whose script starts with a P2PKH (a token output: the STAS family and
 * Keystead's own template put the owner's P2PKH first), or null. Plain P2PKH outputs are not included.
 */
export function holderAddressOf(scriptHex: string): string | null {
  const m = /^76a914([0-9a-f]{40})88ac/.exec(scriptHex);
  return m && scriptHex.length > 50 ? addressOfHash160(m[1]) : null;
}

/**
 * The address whose key alone spends an output that is a P2PKH followed only by what cannot change its
 * outcome: OP_RETURN and anything after it (execution ends with the signature check's result, as a token
 * contract's schema), or `OP_FALSE OP_IF <data pushes> OP_ENDIF` envelopes (an inscription). Null for a plain
 * P2PKH (p2pkhAddressOf's) and for any other script: a P2PKH followed by code (`OP_DROP OP_TRUE`, …) may be
 * spendable by anyone.
 */
export function signedHolderOf(scriptHex: string): string | null {
  const m = /^76a914([0-9a-f]{40})88ac/.exec(scriptHex);
  if (!m || scriptHex.length <= 50 || !inertTail(scriptHex.slice(50))) return null;
  return addressOfHash160(m[1]);
}

const OP_FALSE = 0x00;
const OP_IF = 0x63;
const OP_ENDIF = 0x68;
const OP_RETURN = 0x6a;
/** A data push (OP_0…OP_PUSHDATA4, OP_1NEGATE, OP_1…OP_16): changes nothing but the stack inside a skipped branch. */
const isPush = (op: number) => op <= 0x4e || op === 0x4f || (op >= 0x51 && op <= 0x60);

function inertTail(tailHex: string): boolean {
  if (tailHex.startsWith('6a')) return true;
  let chunks: { op: number }[];
  try {
    chunks = Script.fromHex(tailHex).chunks;
  } catch {
    return false;
  }
  let i = 0;
  while (i < chunks.length) {
    if (chunks[i].op === OP_RETURN) return true;
    if (chunks[i].op !== OP_FALSE || chunks[i + 1]?.op !== OP_IF) return false;
    i += 2;
    while (i < chunks.length && chunks[i].op !== OP_ENDIF) {
      if (!isPush(chunks[i].op)) return false;
      i++;
    }
    if (i >= chunks.length) return false;
    i++;
  }
  return true;
}

/** The 20-byte key hash (hex) a P2PKH address names. Throws when it is not Base58Check. */
export function hash160OfAddress(address: string): string {
  return Utils.toHex(Utils.fromBase58Check(address).data as number[]);
}
