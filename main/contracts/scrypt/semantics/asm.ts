import { OP, pushInt, type Token } from '../script.js';

/** The value of a compile-time constant an asm loop count names (`loop (UB) { … }`), or null. */
export type AsmConstant = (name: string) => bigint | null;

/** What an asm block reads as: its tokens, and the named constants its loop counts used, with their values. */
export type AsmRead = { tokens: Token[]; constants: [string, bigint][] } | { error: string };

/**
 * The text of an `asm { … }` block (asm.rst) as script tokens: opcodes (case-insensitive, `OP_FALSE` and
 * `OP_TRUE` as OP_0 and OP_1), hex data pushed as it is, `0` and `-1`, and inline-asm variables `$name`,
 * which become the placeholder `Owner.function.name` that scryptlib's replaceAsmVars fills in. A loop count
 * is a number or a named compile-time constant (`static const int UB = 368; … loop (UB) { … }`, as the
 * official EC libraries write it), whose value `constant` gives. Returns the tokens, or what cannot be read.
 */
export function readAsm(text: string, placeholderPrefix: string, constant: AsmConstant = () => null): AsmRead {
  const words = text
    .replace(/[{}()]/g, ' $& ')
    .split(/\s+/)
    .filter(Boolean);
  const constants = new Map<string, bigint>();
  const named: AsmConstant = (name) => {
    const v = constant(name);
    if (v !== null) constants.set(name, v);
    return v;
  };
  const read = readWords(words, 0, placeholderPrefix, false, new Map(), named);
  return 'error' in read ? read : { tokens: read.tokens, constants: [...constants] };
}

/** The most tokens one asm block may unroll to. */
const MAX_ASM_TOKENS = 1_000_000;

/**
 * `loop (N) { … }` or `loop (N) : i { … }`, N a decimal or 0x literal or a named constant that is not
 * negative: the count, the variable, where the body starts.
 */
function loopHead(words: string[], i: number, constant: AsmConstant): { n: number; variable: string | null; body: number } | null {
  const count = words[i + 2] ?? '';
  if (words[i + 1] !== '(' || words[i + 3] !== ')') return null;
  const named = /^[A-Za-z_][\w.]*$/.test(count) ? constant(count) : null;
  if (!/^(\d+|0x[0-9a-fA-F]+)$/.test(count) && (named === null || named < 0n)) return null;
  const n = named !== null ? Number(named) : Number(count);
  if (words[i + 4] === '{') return { n, variable: null, body: i + 5 };
  const colon = /^:([A-Za-z_]\w*)?$/.exec(words[i + 4] ?? '');
  if (!colon) return null;
  // `: i` may be written with or without a space after the colon.
  const variable = colon[1] ?? words[i + 5];
  const open = colon[1] ? i + 5 : i + 6;
  // A name that reads as an opcode or as hex data would change what those words mean in the body.
  if (!/^[A-Za-z_]\w*$/.test(variable ?? '') || /^op_/i.test(variable) || /^([0-9a-fA-F]{2})+$/.test(variable) || words[open] !== '{')
    return null;
  return { n, variable, body: open + 1 };
}

/**
 * Reads words from `start` up to the end, or to the `}` closing a loop body. `loop (N) { … }` repeats
 * its body N times, as the official compiler unrolls it; in `loop (N) : i { … }` the induction variable
 * `i`, as a word of the body, is the iteration's number (0 to N − 1) pushed as a number, as a loop
 * variable is a literal in each copy of a loop in sCrypt code. `vars` holds the enclosing loops' values.
 */
function readWords(
  words: string[],
  start: number,
  placeholderPrefix: string,
  inLoop: boolean,
  vars: ReadonlyMap<string, number>,
  constant: AsmConstant,
): { tokens: Token[]; next: number } | { error: string } {
  const tokens: Token[] = [];
  let i = start;
  for (; i < words.length; i++) {
    const raw = words[i];
    if (raw === '}') {
      if (!inLoop) return { error: "an unmatched '}' in asm" };
      return { tokens, next: i + 1 };
    }
    if (raw === 'loop') {
      const head = loopHead(words, i, constant);
      if (!head)
        return {
          error: 'an asm loop is written loop (N) { … } or loop (N) : i { … } with N a number or a static const that is not negative',
        };
      const { n, variable } = head;
      if (n > MAX_ASM_TOKENS) return { error: `an asm loop of ${n} iterations is too large` };
      // The body is read once per iteration only when it names the variable; otherwise once, then repeated.
      const first = readWords(words, head.body, placeholderPrefix, true, variable ? new Map([...vars, [variable, 0]]) : vars, constant);
      if ('error' in first) return first;
      if (n * first.tokens.length > MAX_ASM_TOKENS) return { error: `an asm loop of ${n} iterations is too large` };
      const usesVariable = variable !== null && words.slice(head.body, first.next).includes(variable);
      for (let k = 0; k < n; k++) {
        if (k === 0 || !usesVariable) {
          tokens.push(...first.tokens);
          continue;
        }
        const again = readWords(words, head.body, placeholderPrefix, true, new Map([...vars, [variable, k]]), constant);
        if ('error' in again) return again;
        tokens.push(...again.tokens);
      }
      i = first.next - 1;
      continue;
    }
    const bound = vars.get(raw);
    if (bound !== undefined) {
      tokens.push(pushInt(BigInt(bound)));
      continue;
    }
    const read = readWord(raw, placeholderPrefix);
    if ('error' in read) return read;
    tokens.push(read);
  }
  if (inLoop) return { error: "an asm loop is missing its '}'" };
  return { tokens, next: i };
}

function readWord(raw: string, placeholderPrefix: string): Token | { error: string } {
  {
    const word = /^op_/i.test(raw) ? raw.toUpperCase() : raw;
    if (word.startsWith('$')) {
      if (!/^\$[A-Za-z_]\w*$/.test(word)) return { error: `bad asm variable ${word}` };
      return { placeholder: `${placeholderPrefix}.${word.slice(1)}` };
    }
    if (/^OP_\w+$/.test(word)) {
      const name = word === 'OP_FALSE' ? 'OP_0' : word === 'OP_TRUE' ? 'OP_1' : word;
      if (OP[name] === undefined) return { error: `unknown opcode ${word} in asm` };
      return { op: name };
    }
    if (word === '0') return { op: 'OP_0' };
    if (word === '-1') return { op: 'OP_1NEGATE' };
    if (/^([0-9a-fA-F]{2})+$/.test(word)) return { push: word.toLowerCase() };
    return { error: `cannot read '${word}' in asm (opcodes, hex data, $variables, loop (N) { … })` };
  }
}
