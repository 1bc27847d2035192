/**
 * What running a script may cost, read from its bytes without running it. A stranger chooses the scripts
 * of what they send (and of the outputs it spends), so the decision whether, and where, to run them is
 * made on this count: it is linear in the script's size and never executes anything.
 */
export interface ScriptCost {
  /** Signature checks: OP_CHECKSIG(VERIFY) 1 each, OP_CHECKMULTISIG(VERIFY) its key count (20 when the script does not state it). */
  sigops: number;
  bytes: number;
  /**
   * Operations that make a stack element longer than any push (OP_CAT, OP_NUM2BIN, OP_MUL, OP_LSHIFT): hashing such an element again and
   * again is costly.
   */
  growth: number;
}

const OP_PUSHDATA1 = 0x4c;
const OP_PUSHDATA2 = 0x4d;
const OP_PUSHDATA4 = 0x4e;
const OP_1 = 0x51;
const OP_16 = 0x60;
const OP_IF = 0x63;
const OP_NOTIF = 0x64;
const OP_ENDIF = 0x68;
const OP_RETURN = 0x6a;
const OP_CHECKSIG = 0xac;
const OP_CHECKSIGVERIFY = 0xad;
const OP_CHECKMULTISIG = 0xae;
const OP_CHECKMULTISIGVERIFY = 0xaf;
const GROWTH = new Set([0x7e /* OP_CAT */, 0x80 /* OP_NUM2BIN */, 0x95 /* OP_MUL */, 0x98 /* OP_LSHIFT */]);

/** Bitcoin's count for a CHECKMULTISIG whose key count the script does not state just before it. */
export const MULTISIG_UNSTATED_KEYS = 20;

/** A little-endian script number of at most 4 bytes (the sign in the top bit), or null when it is not one. */
function scriptNumber(bytes: Uint8Array, start: number, length: number): number | null {
  if (length === 0) return 0;
  if (length > 4) return null;
  let n = 0;
  for (let k = 0; k < length; k++) n += bytes[start + k] * 2 ** (8 * k);
  const top = bytes[start + length - 1];
  return top & 0x80 ? -(n - 0x80 * 2 ** (8 * (length - 1))) : n;
}

/**
 * Counts a script's signature checks and growth operations. Pushed data is skipped, not read as opcodes;
 * counting stops at an OP_RETURN outside any IF (execution ends there) and at a push that runs past the
 * end (the script cannot be parsed further, so nothing after it runs).
 */
export function scriptCost(script: Uint8Array | readonly number[]): ScriptCost {
  const bytes = script instanceof Uint8Array ? script : Uint8Array.from(script);
  let sigops = 0;
  let growth = 0;
  let depth = 0;
  /** The number the previous operation put on the stack, when it was a constant: a multisig's key count. */
  let lastNumber: number | null = null;
  for (let pc = 0; pc < bytes.length;) {
    const op = bytes[pc++];
    if (op <= OP_PUSHDATA4) {
      let len = op;
      if (op === OP_PUSHDATA1) len = bytes[pc++];
      else if (op === OP_PUSHDATA2) len = bytes[pc++] | (bytes[pc++] << 8);
      else if (op === OP_PUSHDATA4) len = (bytes[pc++] | (bytes[pc++] << 8) | (bytes[pc++] << 16)) + bytes[pc++] * 2 ** 24;
      if (!Number.isFinite(len) || pc + len > bytes.length) break;
      lastNumber = scriptNumber(bytes, pc, len);
      pc += len;
      continue;
    }
    const number = op >= OP_1 && op <= OP_16 ? op - OP_1 + 1 : op === 0x4f ? -1 : null;
    if (op === OP_CHECKSIG || op === OP_CHECKSIGVERIFY) sigops += 1;
    else if (op === OP_CHECKMULTISIG || op === OP_CHECKMULTISIGVERIFY)
      sigops += lastNumber !== null && lastNumber >= 0 ? lastNumber : MULTISIG_UNSTATED_KEYS;
    else if (GROWTH.has(op)) growth += 1;
    else if (op === OP_IF || op === OP_NOTIF) depth += 1;
    else if (op === OP_ENDIF) depth = Math.max(0, depth - 1);
    else if (op === OP_RETURN && depth === 0) break;
    lastNumber = number;
  }
  return { sigops, bytes: bytes.length, growth };
}

/** The sum of several costs (a transaction's inputs, a package of transactions). */
export function addCost(a: ScriptCost, b: ScriptCost): ScriptCost {
  return { sigops: a.sigops + b.sigops, bytes: a.bytes + b.bytes, growth: a.growth + b.growth };
}

export const NO_COST: ScriptCost = Object.freeze({ sigops: 0, bytes: 0, growth: 0 });

/** A hex script's cost; malformed hex counts as what it could be read as (the caller refuses it elsewhere). */
export function scriptCostOfHex(hex: string): ScriptCost {
  return scriptCost(Buffer.from(hex, 'hex'));
}
