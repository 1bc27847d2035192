import { parse, ParserError } from '@solidity-parser/parser';
import type { SourceUnit } from '@solidity-parser/parser/dist/src/ast-types.js';
import type { SourceText, Span } from './logs.js';

export type ParseOutcome = { ok: true; ast: SourceUnit } | { ok: false; span: Span; message: string };

const options = { range: true, loc: false, tolerant: false } as const;

/**
 * Parses Solidity with ranges. A syntax error is returned with its position, never thrown: the parser
 * reports most with a line and column, but on some broken inputs (`x = ;`) its tree builder crashes
 * before it can report. Then the source is cut at statement ends (`;`, `{`, `}` outside parentheses),
 * each cut closed with the braces it leaves open, and the first cut that fails to parse is searched for:
 * the error is in its last statement.
 */
export function parseSolidity(source: SourceText): ParseOutcome {
  const first = attempt(source.text);
  if (first.kind === 'ok') return { ok: true, ast: first.ast };
  if (first.kind === 'error')
    return { ok: false, span: source.spanAt(first.line, first.column), message: `syntax error: ${first.message}` };
  return locateCrash(source);
}

type Attempt = { kind: 'ok'; ast: SourceUnit } | { kind: 'error'; line: number; column: number; message: string } | { kind: 'crash' };

function attempt(text: string): Attempt {
  try {
    return { kind: 'ok', ast: parse(text, options) };
  } catch (err) {
    if (!(err instanceof ParserError)) return { kind: 'crash' };
    const e = err.errors[0] as { message: string; line: number; column: number };
    return { kind: 'error', line: e.line, column: e.column, message: e.message };
  }
}

/** Offsets just past each statement end, with the braces open there; strings and comments skipped. */
function cuts(text: string): { end: number; open: number }[] {
  const out: { end: number; open: number }[] = [];
  let braces = 0;
  let parens = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '/' && text[i + 1] === '/') {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl;
    } else if (ch === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      i = close < 0 ? text.length : close + 1;
    } else if (ch === '"' || ch === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== ch && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      i = j;
    } else if (ch === '(') parens++;
    else if (ch === ')') parens = Math.max(0, parens - 1);
    else if (ch === '{') {
      braces++;
      if (!parens) out.push({ end: i + 1, open: braces });
    } else if (ch === '}') {
      braces = Math.max(0, braces - 1);
      if (!parens) out.push({ end: i + 1, open: braces });
    } else if (ch === ';' && !parens) out.push({ end: i + 1, open: braces });
  }
  return out;
}

function locateCrash(source: SourceText): ParseOutcome {
  const text = source.text;
  const ends = cuts(text);
  const at = (k: number) => attempt(text.slice(0, ends[k].end) + '}'.repeat(ends[k].open));
  let lo = 0;
  let hi = ends.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (at(mid).kind !== 'ok') hi = mid;
    else lo = mid + 1;
  }
  const found = ends.length ? at(lo) : ({ kind: 'crash' } as Attempt);
  if (found.kind === 'error')
    return { ok: false, span: source.spanAt(found.line, found.column), message: `syntax error: ${found.message}` };
  // The statement that breaks the parser ends at this cut; its end is what the parser did not expect.
  const end = ends.length ? ends[lo].end - 1 : text.length - 1;
  const pos = Math.max(0, Math.min(end, text.length - 1));
  return {
    ok: false,
    span: { start: pos, end: Math.min(pos + 1, text.length) },
    message: `syntax error: unexpected \`${text[pos] ?? 'end of file'}\``,
  };
}
