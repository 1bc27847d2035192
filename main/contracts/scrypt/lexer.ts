import type { Diagnostics, Position } from './diagnostics.js';

export type TokenKind = 'ident' | 'keyword' | 'int' | 'bytes' | 'string' | 'punct' | 'codesep' | 'annotation' | 'asm' | 'eof';

export interface Token {
  kind: TokenKind;
  /** The token's text; for `bytes` the hex digits, for `string` the decoded text, for `asm` the block body. */
  value: string;
  start: Position;
  end: Position;
}

export const KEYWORDS = new Set([
  'import',
  'contract',
  'library',
  'struct',
  'type',
  'function',
  'public',
  'private',
  'static',
  'const',
  'constructor',
  'return',
  'require',
  'exit',
  'if',
  'else',
  'loop',
  'true',
  'false',
  'new',
  'auto',
  'asm',
  'this',
]);

// Longest first, so ">>=" wins over ">>" and ">". "..." is no operator of the language: it is kept whole
// so that the parser can name it (documentation excerpts write it for code left out), not three '.'.
const PUNCTUATION = [
  '...',
  '<<=',
  '>>=',
  '&&',
  '||',
  '==',
  '!=',
  '<=',
  '>=',
  '<<',
  '>>',
  '++',
  '--',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '{',
  '}',
  '(',
  ')',
  '[',
  ']',
  ';',
  ',',
  '.',
  ':',
  '?',
  '=',
  '+',
  '-',
  '*',
  '/',
  '%',
  '<',
  '>',
  '!',
  '~',
  '&',
  '|',
  '^',
];

/**
 * Turns sCrypt source into tokens. Comments vanish; `***` (three or more stars) is a code separator;
 * `asm { … }` is kept whole as one token; unknown characters are reported and skipped, so one bad
 * character does not hide the errors after it.
 */
export function tokenize(source: string, diags: Diagnostics): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  let col = 1;
  const pos = (): Position => ({ line, column: col });
  const advance = (n: number) => {
    for (let k = 0; k < n && i < source.length; k++) {
      if (source[i] === '\n') {
        line += 1;
        col = 1;
      } else col += 1;
      i += 1;
    }
  };
  const push = (kind: TokenKind, value: string, start: Position) => tokens.push({ kind, value, start, end: pos() });

  while (i < source.length) {
    const c = source[i];
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n') {
      advance(1);
      continue;
    }
    if (source.startsWith('//', i)) {
      while (i < source.length && source[i] !== '\n') advance(1);
      continue;
    }
    if (source.startsWith('/*', i)) {
      const start = pos();
      const end = source.indexOf('*/', i + 2);
      if (end === -1) {
        diags.error(start, 'unterminated comment');
        advance(source.length - i);
      } else advance(end + 2 - i);
      continue;
    }
    const start = pos();
    if (source.startsWith('***', i)) {
      let n = 0;
      while (source[i + n] === '*') n++;
      advance(n);
      push('codesep', '***', start);
      continue;
    }
    if (c === '@') {
      const m = /^@[A-Za-z_]\w*/.exec(source.slice(i, i + 64));
      if (!m) {
        diags.error(start, "'@' must start an annotation such as @state");
        advance(1);
        continue;
      }
      advance(m[0].length);
      push('annotation', m[0].slice(1), start);
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_]\w*/.exec(source.slice(i, i + 256))!;
      const word = m[0];
      if (word === 'b' && source[i + 1] === "'") {
        advance(2);
        const open = start;
        let hex = '';
        while (i < source.length && source[i] !== "'" && source[i] !== '\n') {
          hex += source[i];
          advance(1);
        }
        if (source[i] !== "'") diags.error(open, "unterminated bytes literal b'…'");
        else advance(1);
        if (!/^([0-9a-fA-F]{2})*$/.test(hex))
          diags.error(open, `bytes literal b'${hex.slice(0, 20)}' must be an even number of hex digits`);
        push('bytes', hex.toLowerCase(), start);
        continue;
      }
      advance(word.length);
      if (word === 'asm' && /^\s*\{/.test(source.slice(i))) {
        // Keep the asm body raw: its contents are opcodes, not sCrypt.
        while (source[i] !== '{') advance(1);
        const bodyStart = i + 1;
        // The body may hold `loop (N) { … }` blocks: find the brace that closes the asm block.
        let close = -1;
        for (let j = bodyStart, depth = 1; j < source.length; j++) {
          if (source[j] === '{') depth++;
          else if (source[j] === '}' && --depth === 0) {
            close = j;
            break;
          }
        }
        if (close === -1) {
          diags.error(start, "unterminated asm block: missing '}'");
          advance(source.length - i);
          push('asm', source.slice(bodyStart), start);
        } else {
          advance(close + 1 - i);
          push('asm', source.slice(bodyStart, close).trim(), start);
        }
        continue;
      }
      push(KEYWORDS.has(word) ? 'keyword' : 'ident', word, start);
      continue;
    }
    if (/[0-9]/.test(c)) {
      const m = /^(0x[0-9a-fA-F]+|[0-9]+)/.exec(source.slice(i, i + 1024))!;
      advance(m[0].length);
      if (/^[A-Za-z_]/.test(source[i] ?? '')) diags.error(start, `invalid number '${m[0]}${source[i]}'`);
      push('int', m[0], start);
      continue;
    }
    if (c === '"') {
      let text = '';
      advance(1);
      while (i < source.length && source[i] !== '"' && source[i] !== '\n') {
        if (source[i] === '\\' && i + 1 < source.length) {
          const e = source[i + 1];
          text += e === 'n' ? '\n' : e === 't' ? '\t' : e === 'r' ? '\r' : e;
          advance(2);
          continue;
        }
        text += source[i];
        advance(1);
      }
      if (source[i] !== '"') diags.error(start, 'unterminated string literal');
      else advance(1);
      push('string', text, start);
      continue;
    }
    const p = PUNCTUATION.find((q) => source.startsWith(q, i));
    if (p) {
      advance(p.length);
      push('punct', p, start);
      continue;
    }
    diags.error(start, `unexpected character '${c}'`);
    advance(1);
  }
  tokens.push({ kind: 'eof', value: '', start: pos(), end: pos() });
  return tokens;
}
