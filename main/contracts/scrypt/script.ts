/**
 * Script emission: opcodes and minimal pushes, as ASM tokens and as hex. A template token `$name`
 * (ASM) / `<name>` (hex) stands for a constructor argument that scryptlib fills in.
 */
export const OP: Record<string, number> = {
  OP_0: 0x00,
  OP_PUSHDATA1: 0x4c,
  OP_PUSHDATA2: 0x4d,
  OP_1NEGATE: 0x4f,
  OP_NOP: 0x61,
  OP_IF: 0x63,
  OP_NOTIF: 0x64,
  OP_ELSE: 0x67,
  OP_ENDIF: 0x68,
  OP_VERIFY: 0x69,
  OP_RETURN: 0x6a,
  OP_2DUP: 0x6e,
  OP_3DUP: 0x6f,
  OP_TOALTSTACK: 0x6b,
  OP_FROMALTSTACK: 0x6c,
  OP_DROP: 0x75,
  OP_DUP: 0x76,
  OP_NIP: 0x77,
  OP_OVER: 0x78,
  OP_PICK: 0x79,
  OP_ROLL: 0x7a,
  OP_ROT: 0x7b,
  OP_SWAP: 0x7c,
  OP_TUCK: 0x7d,
  OP_CAT: 0x7e,
  OP_SPLIT: 0x7f,
  OP_NUM2BIN: 0x80,
  OP_BIN2NUM: 0x81,
  OP_SIZE: 0x82,
  OP_INVERT: 0x83,
  OP_AND: 0x84,
  OP_OR: 0x85,
  OP_XOR: 0x86,
  OP_EQUAL: 0x87,
  OP_EQUALVERIFY: 0x88,
  OP_1ADD: 0x8b,
  OP_1SUB: 0x8c,
  OP_NEGATE: 0x8f,
  OP_ABS: 0x90,
  OP_NOT: 0x91,
  OP_0NOTEQUAL: 0x92,
  OP_ADD: 0x93,
  OP_SUB: 0x94,
  OP_MUL: 0x95,
  OP_DIV: 0x96,
  OP_MOD: 0x97,
  OP_LSHIFT: 0x98,
  OP_RSHIFT: 0x99,
  OP_BOOLAND: 0x9a,
  OP_BOOLOR: 0x9b,
  OP_NUMEQUAL: 0x9c,
  OP_NUMEQUALVERIFY: 0x9d,
  OP_NUMNOTEQUAL: 0x9e,
  OP_LESSTHAN: 0x9f,
  OP_GREATERTHAN: 0xa0,
  OP_LESSTHANOREQUAL: 0xa1,
  OP_GREATERTHANOREQUAL: 0xa2,
  OP_MIN: 0xa3,
  OP_MAX: 0xa4,
  OP_WITHIN: 0xa5,
  OP_RIPEMD160: 0xa6,
  OP_SHA1: 0xa7,
  OP_SHA256: 0xa8,
  OP_HASH160: 0xa9,
  OP_HASH256: 0xaa,
  OP_CODESEPARATOR: 0xab,
  OP_CHECKSIG: 0xac,
  OP_CHECKSIGVERIFY: 0xad,
  OP_CHECKMULTISIG: 0xae,
};
for (let n = 1; n <= 16; n++) OP[`OP_${n}`] = 0x50 + n;
// The rest of the instruction set, for asm blocks.
Object.assign(OP, {
  OP_PUSHDATA4: 0x4e,
  OP_RESERVED: 0x50,
  OP_VER: 0x62,
  OP_VERIF: 0x65,
  OP_VERNOTIF: 0x66,
  OP_2DROP: 0x6d,
  OP_2OVER: 0x70,
  OP_2ROT: 0x71,
  OP_2SWAP: 0x72,
  OP_IFDUP: 0x73,
  OP_DEPTH: 0x74,
  OP_LEFT: 0x80,
  OP_RIGHT: 0x81,
  OP_RESERVED1: 0x89,
  OP_RESERVED2: 0x8a,
  OP_2MUL: 0x8d,
  OP_2DIV: 0x8e,
  OP_CHECKMULTISIGVERIFY: 0xaf,
  OP_NOP1: 0xb0,
  OP_NOP2: 0xb1,
  OP_CHECKLOCKTIMEVERIFY: 0xb1,
  OP_NOP3: 0xb2,
  OP_CHECKSEQUENCEVERIFY: 0xb2,
  OP_NOP4: 0xb3,
  OP_NOP5: 0xb4,
  OP_NOP6: 0xb5,
  OP_NOP7: 0xb6,
  OP_NOP8: 0xb7,
  OP_NOP9: 0xb8,
  OP_NOP10: 0xb9,
  OP_INVALIDOPCODE: 0xff,
});
// OP_LEFT/OP_RIGHT are the pre-Genesis names of OP_NUM2BIN/OP_BIN2NUM; keep the modern names canonical.
OP.OP_NUM2BIN = 0x80;
OP.OP_BIN2NUM = 0x81;

export type Token = { op: string } | { push: string } | { placeholder: string };

/** Script number encoding: little-endian sign-magnitude, minimal. */
export function numberBytes(n: bigint): number[] {
  if (n === 0n) return [];
  const neg = n < 0n;
  let abs = neg ? -n : n;
  const out: number[] = [];
  while (abs > 0n) {
    out.push(Number(abs & 0xffn));
    abs >>= 8n;
  }
  if (out[out.length - 1] & 0x80) out.push(neg ? 0x80 : 0x00);
  else if (neg) out[out.length - 1] |= 0x80;
  return out;
}

const toHex = (bytes: number[]) => bytes.map((b) => b.toString(16).padStart(2, '0')).join('');

/** The minimal push of an integer: OP_0, OP_1NEGATE, OP_1…OP_16, or data. */
export function pushInt(n: bigint): Token {
  if (n === 0n) return { op: 'OP_0' };
  if (n === -1n) return { op: 'OP_1NEGATE' };
  if (n >= 1n && n <= 16n) return { op: `OP_${n}` };
  return { push: toHex(numberBytes(n)) };
}

/** The minimal push of bytes: OP_0 for empty, OP_1…OP_16 for one byte 0x01…0x10, else data. */
export function pushBytes(hex: string): Token {
  if (hex === '') return { op: 'OP_0' };
  if (hex.length === 2) {
    const v = parseInt(hex, 16);
    if (v >= 1 && v <= 16) return { op: `OP_${v}` };
    if (v === 0x81) return { op: 'OP_1NEGATE' };
  }
  return { push: hex };
}

function pushHex(data: string): string {
  const n = data.length / 2;
  if (n < 0x4c) return n.toString(16).padStart(2, '0') + data;
  if (n <= 0xff) return `4c${n.toString(16).padStart(2, '0')}${data}`;
  if (n <= 0xffff) return `4d${(n & 0xff).toString(16).padStart(2, '0')}${(n >> 8).toString(16).padStart(2, '0')}${data}`;
  // OP_PUSHDATA4 with a 4-byte little-endian length: a literal of 64 kB or more.
  const length = Buffer.alloc(4);
  length.writeUInt32LE(n);
  return `4e${length.toString('hex')}${data}`;
}

/**
 * Joins the text of each token, a chunk at a time: a large unrolled script is millions of tokens, and one
 * array of a string per token before the join would take several times the script's own memory.
 */
function joinTokens(tokens: readonly Token[], text: (t: Token) => string, separator: string): string {
  const chunks: string[] = [];
  const CHUNK = 65_536;
  for (let i = 0; i < tokens.length; i += CHUNK)
    chunks.push(
      tokens
        .slice(i, i + CHUNK)
        .map(text)
        .join(separator),
    );
  return chunks.join(separator);
}

export function toAsm(tokens: readonly Token[]): string {
  return joinTokens(tokens, (t) => ('op' in t ? t.op : 'push' in t ? t.push : `$${t.placeholder}`), ' ');
}

export function toScriptHex(tokens: readonly Token[]): string {
  return joinTokens(
    tokens,
    (t) => {
      if ('op' in t) {
        const code = OP[t.op];
        if (code === undefined) throw new Error(`unknown opcode ${t.op}`);
        return code.toString(16).padStart(2, '0');
      }
      if ('push' in t) return pushHex(t.push);
      return `<${t.placeholder}>`;
    },
    '',
  );
}
