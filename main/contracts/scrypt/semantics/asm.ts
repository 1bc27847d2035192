import { OP, type Token } from '../script.js';

/**
 * The text of an `asm { … }` block (asm.rst) as script tokens: opcodes (case-insensitive, `OP_FALSE` and
 * `OP_TRUE` as OP_0 and OP_1), hex data pushed as it is, `0` and `-1`, and inline-asm variables `$name`,
 * which become the placeholder `Owner.function.name` that scryptlib's replaceAsmVars fills in. Returns the
 * tokens, or what cannot be read.
 */
export function readAsm(text: string, placeholderPrefix: string): { tokens: Token[] } | { error: string } {
  const words = text
    .replace(/[{}()]/g, ' $& ')
    .split(/\s+/)
    .filter(Boolean);
  const read = readWords(words, 0, placeholderPrefix, false);
  return 'error' in read ? read : { tokens: read.tokens };
}

/** The most tokens one asm block may unroll to. */
const MAX_ASM_TOKENS = 1_000_000;

/**
 * Reads words from `start` up to the end, or to the `}` closing a loop body. `loop (N) { … }` repeats
 * its body N times (N a decimal literal), as the official compiler unrolls it.
 */
function readWords(
  words: string[],
  start: number,
  placeholderPrefix: string,
  inLoop: boolean,
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
      if (words[i + 1] !== '(' || !/^\d+$/.test(words[i + 2] ?? '') || words[i + 3] !== ')' || words[i + 4] !== '{')
        return { error: 'an asm loop is written loop (N) { … } with N a number' };
      const body = readWords(words, i + 5, placeholderPrefix, true);
      if ('error' in body) return body;
      const n = Number(words[i + 2]);
      if (n * body.tokens.length > MAX_ASM_TOKENS) return { error: `an asm loop of ${n} iterations is too large` };
      for (let k = 0; k < n; k++) tokens.push(...body.tokens);
      i = body.next - 1;
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
