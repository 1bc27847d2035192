import { pushBytes, pushInt, toScriptHex } from '../../contracts/scrypt/script.js';

/**
 * Building and reading the pieces of token scripts: data pushes in locking scripts (plain, length-prefixed,
 * as STAS writes its symbol and data), minimal pushes in unlocking scripts (version-1 transactions enforce
 * minimal encoding: OP_0, OP_1…OP_16, then data), and reading the pushes after a script's OP_RETURN.
 */

/** A data push as written into a locking script: length-prefixed (OP_0 for nothing). */
export function dataPush(hex: string): string {
  return hex === '' ? '00' : toScriptHex([{ push: hex }]);
}

/** The minimal push of bytes, as an unlocking script must use. */
export function minimalPush(hex: string): string {
  return toScriptHex([pushBytes(hex)]);
}

/** The minimal push of a script number. */
export function minimalNumber(n: number | bigint): string {
  return toScriptHex([pushInt(BigInt(n))]);
}

/** Reads consecutive pushes from `at` to the end of the script; null if anything else is there. */
export function readPushes(hex: string, at: number): string[] | null {
  const out: string[] = [];
  let i = at;
  const byte = (k: number) => parseInt(hex.slice(k * 2, k * 2 + 2), 16);
  const total = hex.length / 2;
  while (i < total) {
    const op = byte(i);
    let len: number;
    let start: number;
    if (op === 0) {
      out.push('');
      i += 1;
      continue;
    }
    if (op >= 1 && op <= 0x4b) [len, start] = [op, i + 1];
    else if (op === 0x4c && i + 1 < total) [len, start] = [byte(i + 1), i + 2];
    else if (op === 0x4d && i + 2 < total) [len, start] = [byte(i + 1) | (byte(i + 2) << 8), i + 3];
    else if (op === 0x4e && i + 4 < total)
      [len, start] = [(byte(i + 1) | (byte(i + 2) << 8) | (byte(i + 3) << 16)) + byte(i + 4) * 0x1000000, i + 5];
    else return null;
    if (start + len > total) return null;
    out.push(hex.slice(start * 2, (start + len) * 2));
    i = start + len;
  }
  return out;
}

export const utf8Hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');
export const hexUtf8 = (h: string) => Buffer.from(h, 'hex').toString('utf8');

/** `76a914 <pkh> 88ac`. */
export const p2pkhScript = (pkh: string) => `76a914${pkh}88ac`;

/** The owner key hash of a script that starts with a P2PKH (a token output), or null. */
export function ownerPkhOf(script: string): string | null {
  return /^76a914[0-9a-f]{40}88ac/.test(script) && script.length > 50 ? script.slice(6, 46) : null;
}

/** The same token script with another owner: only bytes 3…23 change on a transfer. */
export const withOwner = (script: string, pkh: string) => `76a914${pkh}${script.slice(46)}`;
