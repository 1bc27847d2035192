import type { Token } from './script.js';

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
 * placeholder) or `CONST` (a push whose value is in the code, not a placeholder scryptlib must find).
 */
export type Pattern = string | 'PUSH' | 'CONST';

export interface Rule {
  name: string;
  from: Pattern[];
  to: (matched: Token[]) => Token[];
  /**
   * The values the rule is exact for: `any` stack items, or `number`s (minimally encoded script numbers,
   * which is what the compiler's types put where these opcodes are used: on anything else the original
   * window fails the script where the replacement reads the value as a number or a truth value would).
   */
  domain: 'any' | 'number';
}

const op = (...names: string[]) => (): Token[] => names.map((name) => ({ op: name }));

/** Operators whose two operands can be given in either order. */
const SYMMETRIC = ['OP_ADD', 'OP_MUL', 'OP_NUMEQUAL', 'OP_NUMEQUALVERIFY', 'OP_NUMNOTEQUAL', 'OP_EQUAL', 'OP_EQUALVERIFY', 'OP_BOOLAND', 'OP_BOOLOR', 'OP_MIN', 'OP_MAX', 'OP_AND', 'OP_OR', 'OP_XOR'];

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
  { name: 'TOALTSTACK FROMALTSTACK → nothing', from: ['OP_TOALTSTACK', 'OP_FROMALTSTACK'], to: op(), domain: 'any' },
  // Removals.
  { name: 'SWAP DROP → NIP', from: ['OP_SWAP', 'OP_DROP'], to: op('OP_NIP'), domain: 'any' },
  { name: 'SWAP NIP → DROP', from: ['OP_SWAP', 'OP_NIP'], to: op('OP_DROP'), domain: 'any' },
  { name: 'DUP DROP → nothing', from: ['OP_DUP', 'OP_DROP'], to: op(), domain: 'any' },
  { name: 'DUP NIP → nothing', from: ['OP_DUP', 'OP_NIP'], to: op(), domain: 'any' },
  { name: 'NIP DROP → 2DROP', from: ['OP_NIP', 'OP_DROP'], to: op('OP_2DROP'), domain: 'any' },
  { name: 'DROP DROP → 2DROP', from: ['OP_DROP', 'OP_DROP'], to: op('OP_2DROP'), domain: 'any' },
  { name: '0 SPLIT NIP → nothing', from: ['OP_0', 'OP_SPLIT', 'OP_NIP'], to: op(), domain: 'any' },
  // A push under removals: remove first, then push (so the removals can fuse into 2DROPs).
  { name: 'push NIP → DROP push', from: ['PUSH', 'OP_NIP'], to: (m) => [{ op: 'OP_DROP' }, m[0]], domain: 'any' },
  { name: 'push DROP → nothing', from: ['CONST', 'OP_DROP'], to: op(), domain: 'any' },
  // Verifying forms.
  { name: 'EQUAL VERIFY → EQUALVERIFY', from: ['OP_EQUAL', 'OP_VERIFY'], to: op('OP_EQUALVERIFY'), domain: 'any' },
  { name: 'NUMEQUAL VERIFY → NUMEQUALVERIFY', from: ['OP_NUMEQUAL', 'OP_VERIFY'], to: op('OP_NUMEQUALVERIFY'), domain: 'any' },
  { name: 'CHECKSIG VERIFY → CHECKSIGVERIFY', from: ['OP_CHECKSIG', 'OP_VERIFY'], to: op('OP_CHECKSIGVERIFY'), domain: 'any' },
  { name: 'CHECKMULTISIG VERIFY → CHECKMULTISIGVERIFY', from: ['OP_CHECKMULTISIG', 'OP_VERIFY'], to: op('OP_CHECKMULTISIGVERIFY'), domain: 'any' },
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
  ...SYMMETRIC.map((name): Rule => ({ name: `SWAP ${name.slice(3)} → ${name.slice(3)}`, from: ['OP_SWAP', name], to: op(name), domain: 'any' })),
];

const NUMBER_OPS = new Set(['OP_0', 'OP_1NEGATE', ...Array.from({ length: 16 }, (_, i) => `OP_${i + 1}`)]);

/** Whether a token only pushes a value, taking nothing from the stack. */
export function isPush(t: Token | undefined): boolean {
  return !!t && ('push' in t || 'placeholder' in t || NUMBER_OPS.has(t.op));
}

function matches(p: Pattern, t: Token | undefined): boolean {
  if (p === 'PUSH') return isPush(t);
  if (p === 'CONST') return isPush(t) && !('placeholder' in t!);
  return !!t && 'op' in t && t.op === p;
}

/** The rules that can start at a token, in RULES order: those whose first pattern is its opcode, or a push class. */
const BY_FIRST = new Map<string, Rule[]>();
for (const rule of RULES) BY_FIRST.set(rule.from[0], [...(BY_FIRST.get(rule.from[0]) ?? []), rule]);
const PUSH_RULES = RULES.filter((r) => r.from[0] === 'PUSH' || r.from[0] === 'CONST');

function candidates(t: Token): readonly Rule[] {
  const own = 'op' in t ? BY_FIRST.get(t.op) ?? [] : [];
  if (!isPush(t)) return own;
  return RULES.filter((r) => own.includes(r) || PUSH_RULES.includes(r));
}

export function optimize(tokens: readonly Token[]): Token[] {
  let current = [...tokens];
  for (let changed = true; changed; ) {
    changed = false;
    const out: Token[] = [];
    for (let i = 0; i < current.length; ) {
      const rule = candidates(current[i]).find(({ from }) => from.every((p, k) => matches(p, current[i + k])));
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
