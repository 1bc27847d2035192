import { OP, type Token } from '../script.js';

/**
 * The text of an `asm { … }` block (asm.rst) as script tokens: opcodes (case-insensitive, `OP_FALSE` and
 * `OP_TRUE` as OP_0 and OP_1), hex data pushed as it is, `0` and `-1`, and inline-asm variables `$name`,
 * which become the placeholder `Owner.function.name` that scryptlib's replaceAsmVars fills in. Returns the
 * tokens, or what cannot be read.
 */
export function readAsm(text: string, placeholderPrefix: string): { tokens: Token[] } | { error: string } {
  const tokens: Token[] = [];
  for (const raw of text.split(/\s+/).filter(Boolean)) {
    const word = /^op_/i.test(raw) ? raw.toUpperCase() : raw;
    if (word.startsWith('$')) {
      if (!/^\$[A-Za-z_]\w*$/.test(word)) return { error: `bad asm variable ${word}` };
      tokens.push({ placeholder: `${placeholderPrefix}.${word.slice(1)}` });
    } else if (/^OP_\w+$/.test(word)) {
      const name = word === 'OP_FALSE' ? 'OP_0' : word === 'OP_TRUE' ? 'OP_1' : word;
      if (OP[name] === undefined) return { error: `unknown opcode ${word} in asm` };
      tokens.push({ op: name });
    } else if (word === '0') tokens.push({ op: 'OP_0' });
    else if (word === '-1') tokens.push({ op: 'OP_1NEGATE' });
    else if (/^([0-9a-fA-F]{2})+$/.test(word)) tokens.push({ push: word.toLowerCase() });
    else return { error: `cannot read '${word}' in asm (opcodes, hex data, $variables)` };
  }
  return { tokens };
}
