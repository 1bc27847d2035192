import { numberBytes, pushInt, type Token } from './script.js';

/**
 * The optional peephole optimiser (-O). Each rule replaces a window of tokens with a shorter (or, for the
 * push moves, an equally long but further reducible) equivalent; rules run to a fixpoint, and at each
 * position the first rule that matches wins, so longer windows come first (`OP_2 OP_PICK OP_2 OP_PICK`
 * becomes `OP_3DUP OP_DROP` before `OP_1 OP_PICK` could become `OP_OVER`). Every rule is exact: for every
 * stack the window and its replacement leave the same stacks or fail alike, which the property tests
 * check under the @bsv/sdk interpreter. The official optimiser's rewrites (OP_NOP removal, the 2-item
 * stack ops, NOTIF, 1ADD/1SUB) are here, plus what measuring the corpus found.
 */

/**
 * A token the window must hold: an opcode by name, `PUSH` (a data push, a small number or a constructor
 * placeholder), `CONST` (a push whose value is in the code, not a placeholder scryptlib must find) or
 * `NUM` (a constant that is a minimally encoded script number of at most 4 bytes).
 */
export type Pattern = string | 'PUSH' | 'CONST' | 'NUM';

export interface Rule {
  name: string;
  from: Pattern[];
  to: (matched: Token[]) => Token[];
  /** A further condition on the tokens matched (constant folding applies only where the values allow it). */
  when?: (matched: Token[]) => boolean;
  /**
   * The values the rule is exact for: `any` stack items, or `number`s (minimally encoded script numbers,
   * which is what the compiler's types put where these opcodes are used: on anything else the original
   * window fails the script where the replacement reads the value as a number or a truth value would).
   */
  domain: 'any' | 'number';
}

const op =
  (...names: string[]) =>
  (): Token[] =>
    names.map((name) => ({ op: name }));

/** The value of a NUM token. */
export function numberOf(t: Token): bigint {
  if ('op' in t) return t.op === 'OP_0' ? 0n : t.op === 'OP_1NEGATE' ? -1n : BigInt(t.op.slice(3));
  const bytes = Buffer.from((t as { push: string }).push, 'hex');
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(i === bytes.length - 1 ? bytes[i] & 0x7f : bytes[i]);
  return bytes[bytes.length - 1] & 0x80 ? -n : n;
}

/** Folds a binary operation on two constants; the result is pushed minimally. */
const fold =
  (f: (a: bigint, b: bigint) => bigint) =>
  (m: Token[]): Token[] => [pushInt(f(numberOf(m[0]), numberOf(m[1])))];
/** Script numbers are limited to what the interpreter accepts as arithmetic input; stay well inside. */
const small = (m: Token[]) => m.filter((t) => isNumber(t)).every((t) => numberOf(t) >= -(2n ** 31n) + 1n && numberOf(t) <= 2n ** 31n - 1n);

/** Operators whose two operands can be given in either order. */
const SYMMETRIC = [
  'OP_ADD',
  'OP_MUL',
  'OP_NUMEQUAL',
  'OP_NUMEQUALVERIFY',
  'OP_NUMNOTEQUAL',
  'OP_EQUAL',
  'OP_EQUALVERIFY',
  'OP_BOOLAND',
  'OP_BOOLOR',
  'OP_MIN',
  'OP_MAX',
  'OP_AND',
  'OP_OR',
  'OP_XOR',
];

export const RULES: readonly Rule[] = [
  // Markers: the official non-optimised output brackets inlined calls, constructors and loop iterations with OP_NOP.
  { name: 'OP_NOP → nothing', from: ['OP_NOP'], to: op(), domain: 'any' },
  // Copies.
  { name: '2 PICK ×3 → 3DUP', from: ['OP_2', 'OP_PICK', 'OP_2', 'OP_PICK', 'OP_2', 'OP_PICK'], to: op('OP_3DUP'), domain: 'any' },
  { name: '3 PICK ×2 → 2OVER', from: ['OP_3', 'OP_PICK', 'OP_3', 'OP_PICK'], to: op('OP_2OVER'), domain: 'any' },
  { name: '2 PICK ×2 → 3DUP DROP', from: ['OP_2', 'OP_PICK', 'OP_2', 'OP_PICK'], to: op('OP_3DUP', 'OP_DROP'), domain: 'any' },
  { name: '1 PICK ×2 → 2DUP', from: ['OP_1', 'OP_PICK', 'OP_1', 'OP_PICK'], to: op('OP_2DUP'), domain: 'any' },
  { name: 'OVER OVER → 2DUP', from: ['OP_OVER', 'OP_OVER'], to: op('OP_2DUP'), domain: 'any' },
  { name: '0 PICK → DUP', from: ['OP_0', 'OP_PICK'], to: op('OP_DUP'), domain: 'any' },
  { name: '1 PICK → OVER', from: ['OP_1', 'OP_PICK'], to: op('OP_OVER'), domain: 'any' },
  // Moves.
  { name: '5 ROLL ×2 → 2ROT', from: ['OP_5', 'OP_ROLL', 'OP_5', 'OP_ROLL'], to: op('OP_2ROT'), domain: 'any' },
  { name: '3 ROLL ×2 → 2SWAP', from: ['OP_3', 'OP_ROLL', 'OP_3', 'OP_ROLL'], to: op('OP_2SWAP'), domain: 'any' },
  { name: '0 ROLL → nothing', from: ['OP_0', 'OP_ROLL'], to: op(), domain: 'any' },
  { name: '1 ROLL → SWAP', from: ['OP_1', 'OP_ROLL'], to: op('OP_SWAP'), domain: 'any' },
  { name: '2 ROLL → ROT', from: ['OP_2', 'OP_ROLL'], to: op('OP_ROT'), domain: 'any' },
  { name: 'SWAP SWAP → nothing', from: ['OP_SWAP', 'OP_SWAP'], to: op(), domain: 'any' },
  { name: 'SWAP OVER → TUCK', from: ['OP_SWAP', 'OP_OVER'], to: op('OP_TUCK'), domain: 'any' },
  { name: 'DUP 2 PICK → 2DUP SWAP', from: ['OP_DUP', 'OP_2', 'OP_PICK'], to: op('OP_2DUP', 'OP_SWAP'), domain: 'any' },
  { name: 'TOALTSTACK FROMALTSTACK → nothing', from: ['OP_TOALTSTACK', 'OP_FROMALTSTACK'], to: op(), domain: 'any' },
  // Removals.
  { name: 'SWAP DROP → NIP', from: ['OP_SWAP', 'OP_DROP'], to: op('OP_NIP'), domain: 'any' },
  { name: 'SWAP NIP → DROP', from: ['OP_SWAP', 'OP_NIP'], to: op('OP_DROP'), domain: 'any' },
  { name: 'DUP DROP → nothing', from: ['OP_DUP', 'OP_DROP'], to: op(), domain: 'any' },
  { name: 'DUP NIP → nothing', from: ['OP_DUP', 'OP_NIP'], to: op(), domain: 'any' },
  { name: 'NIP DROP → 2DROP', from: ['OP_NIP', 'OP_DROP'], to: op('OP_2DROP'), domain: 'any' },
  { name: 'DROP DROP → 2DROP', from: ['OP_DROP', 'OP_DROP'], to: op('OP_2DROP'), domain: 'any' },
  { name: '0 SPLIT NIP → nothing', from: ['OP_0', 'OP_SPLIT', 'OP_NIP'], to: op(), domain: 'any' },
  // Constants: a bounds check that a constant index passes, arithmetic on constants, an alt-stack round trip.
  {
    name: 'constant index bounds check → the index',
    from: ['NUM', 'OP_DUP', 'OP_0', 'OP_GREATERTHANOREQUAL', 'OP_VERIFY', 'OP_DUP', 'NUM', 'OP_LESSTHAN', 'OP_VERIFY'],
    when: (m) => numberOf(m[0]) >= 0n && numberOf(m[0]) < numberOf(m[6]),
    to: (m) => [m[0]],
    domain: 'any',
  },
  { name: 'const const ADD → const', from: ['NUM', 'NUM', 'OP_ADD'], when: small, to: fold((a, b) => a + b), domain: 'any' },
  { name: 'const const SUB → const', from: ['NUM', 'NUM', 'OP_SUB'], when: small, to: fold((a, b) => a - b), domain: 'any' },
  { name: 'const const MUL → const', from: ['NUM', 'NUM', 'OP_MUL'], when: small, to: fold((a, b) => a * b), domain: 'any' },
  { name: 'const 1ADD → const', from: ['NUM', 'OP_1ADD'], when: small, to: (m) => [pushInt(numberOf(m[0]) + 1n)], domain: 'any' },
  { name: 'const 1SUB → const', from: ['NUM', 'OP_1SUB'], when: small, to: (m) => [pushInt(numberOf(m[0]) - 1n)], domain: 'any' },
  {
    name: 'DUP TOALTSTACK PICK FROMALTSTACK DROP → PICK',
    from: ['OP_DUP', 'OP_TOALTSTACK', 'OP_PICK', 'OP_FROMALTSTACK', 'OP_DROP'],
    to: op('OP_PICK'),
    domain: 'any',
  },
  // A run of NIPs under the value on top (the end of a public function): the value waits on the alt stack
  // while the rest goes two at a time. From six NIPs on this is shorter; longer runs are tried first.
  ...Array.from({ length: 59 }, (_, i) => 64 - i).map((k): Rule => ({
    name: `NIP ×${k} → TOALTSTACK 2DROP ×${k >> 1}${k % 2 ? ' NIP' : ''} FROMALTSTACK`,
    from: Array<Pattern>(k).fill('OP_NIP'),
    to: op('OP_TOALTSTACK', ...Array<string>(k >> 1).fill('OP_2DROP'), 'OP_FROMALTSTACK', ...(k % 2 ? ['OP_NIP'] : [])),
    domain: 'any',
  })),
  // A push under removals: remove first, then push (so the removals can fuse into 2DROPs).
  { name: 'push NIP → DROP push', from: ['PUSH', 'OP_NIP'], to: (m) => [{ op: 'OP_DROP' }, m[0]], domain: 'any' },
  { name: 'push DROP → nothing', from: ['CONST', 'OP_DROP'], to: op(), domain: 'any' },
  // Verifying forms.
  { name: 'EQUAL VERIFY → EQUALVERIFY', from: ['OP_EQUAL', 'OP_VERIFY'], to: op('OP_EQUALVERIFY'), domain: 'any' },
  { name: 'NUMEQUAL VERIFY → NUMEQUALVERIFY', from: ['OP_NUMEQUAL', 'OP_VERIFY'], to: op('OP_NUMEQUALVERIFY'), domain: 'any' },
  { name: 'CHECKSIG VERIFY → CHECKSIGVERIFY', from: ['OP_CHECKSIG', 'OP_VERIFY'], to: op('OP_CHECKSIGVERIFY'), domain: 'any' },
  {
    name: 'CHECKMULTISIG VERIFY → CHECKMULTISIGVERIFY',
    from: ['OP_CHECKMULTISIG', 'OP_VERIFY'],
    to: op('OP_CHECKMULTISIGVERIFY'),
    domain: 'any',
  },
  { name: 'NUMEQUAL NOT → NUMNOTEQUAL', from: ['OP_NUMEQUAL', 'OP_NOT'], to: op('OP_NUMNOTEQUAL'), domain: 'any' },
  // Conditions.
  { name: 'NOT IF → NOTIF', from: ['OP_NOT', 'OP_IF'], to: op('OP_NOTIF'), domain: 'number' },
  { name: 'NOT NOTIF → IF', from: ['OP_NOT', 'OP_NOTIF'], to: op('OP_IF'), domain: 'number' },
  { name: 'NOT NOT → 0NOTEQUAL', from: ['OP_NOT', 'OP_NOT'], to: op('OP_0NOTEQUAL'), domain: 'any' },
  { name: '0NOTEQUAL 0NOTEQUAL → 0NOTEQUAL', from: ['OP_0NOTEQUAL', 'OP_0NOTEQUAL'], to: op('OP_0NOTEQUAL'), domain: 'any' },
  // Arithmetic with 1.
  { name: '1 ADD → 1ADD', from: ['OP_1', 'OP_ADD'], to: op('OP_1ADD'), domain: 'any' },
  { name: '1 SUB → 1SUB', from: ['OP_1', 'OP_SUB'], to: op('OP_1SUB'), domain: 'any' },
  { name: '1 MUL → nothing', from: ['OP_1', 'OP_MUL'], to: op(), domain: 'number' },
  { name: '1 DIV → nothing', from: ['OP_1', 'OP_DIV'], to: op(), domain: 'number' },
  // Symmetric operators do not need their operands swapped.
  ...SYMMETRIC.map((name): Rule => ({
    name: `SWAP ${name.slice(3)} → ${name.slice(3)}`,
    from: ['OP_SWAP', name],
    to: op(name),
    domain: 'any',
  })),
  // x y OVER op NIP: the copy of x is the operand, the x under it is removed; the op on x y is the same.
  ...SYMMETRIC.filter((name) => !name.endsWith('VERIFY')).map((name): Rule => ({
    name: `OVER ${name.slice(3)} NIP → ${name.slice(3)}`,
    from: ['OP_OVER', name, 'OP_NIP'],
    to: op(name),
    domain: 'any',
  })),
];

const NUMBER_OPS = new Set(['OP_0', 'OP_1NEGATE', ...Array.from({ length: 16 }, (_, i) => `OP_${i + 1}`)]);

/** Whether a token only pushes a value, taking nothing from the stack. */
export function isPush(t: Token | undefined): boolean {
  return !!t && ('push' in t || 'placeholder' in t || NUMBER_OPS.has(t.op));
}

/**
 * Whether each short push is a number, remembered: every pass asks again of every push, and in a large
 * unrolled script the same few depths (`0502` …) are pushed hundreds of thousands of times.
 */
const NUMBER_PUSHES = new Map<string, boolean>();

/** A constant whose bytes are the minimal encoding of a script number of at most 4 bytes. */
function isNumber(t: Token | undefined): boolean {
  if (!t || 'placeholder' in t) return false;
  if ('op' in t) return NUMBER_OPS.has(t.op);
  const n = t.push.length / 2;
  if (n < 1 || n > 4) return false;
  let known = NUMBER_PUSHES.get(t.push);
  if (known === undefined) {
    known = Buffer.from(numberBytes(numberOf(t))).toString('hex') === t.push;
    if (NUMBER_PUSHES.size < 65_536) NUMBER_PUSHES.set(t.push, known);
  }
  return known;
}

function matches(p: Pattern, t: Token | undefined): boolean {
  if (p === 'PUSH') return isPush(t);
  if (p === 'NUM') return isNumber(t);
  if (p === 'CONST') return isPush(t) && !('placeholder' in t!);
  return !!t && 'op' in t && t.op === p;
}

/** The rules that can start at a token, in RULES order: those whose first pattern is its opcode, or a push class. */
const BY_FIRST = new Map<string, Rule[]>();
for (const rule of RULES) BY_FIRST.set(rule.from[0], [...(BY_FIRST.get(rule.from[0]) ?? []), rule]);
const PUSH_RULES = RULES.filter((r) => r.from[0] === 'PUSH' || r.from[0] === 'CONST' || r.from[0] === 'NUM');

const CANDIDATES = new Map<string, readonly Rule[]>();

function candidates(t: Token): readonly Rule[] {
  const key = 'op' in t ? t.op : 'push' in t ? '<push>' : '<placeholder>';
  let found = CANDIDATES.get(key);
  if (!found) {
    const own = 'op' in t ? (BY_FIRST.get(t.op) ?? []) : [];
    found = isPush(t) ? RULES.filter((r) => own.includes(r) || PUSH_RULES.includes(r)) : own;
    CANDIDATES.set(key, found);
  }
  return found;
}

export function optimize(tokens: readonly Token[]): Token[] {
  let current = [...tokens];
  for (let changed = true; changed;) {
    changed = false;
    const out: Token[] = [];
    for (let i = 0; i < current.length;) {
      const rule = candidates(current[i]).find(
        ({ from, when }) => from.every((p, k) => matches(p, current[i + k])) && (!when || when(current.slice(i, i + from.length))),
      );
      if (rule) {
        const matched = current.slice(i, i + rule.from.length);
        out.push(...rule.to(matched));
        i += rule.from.length;
        changed = true;
      } else out.push(current[i++]);
    }
    current = out;
  }
  return current;
}
