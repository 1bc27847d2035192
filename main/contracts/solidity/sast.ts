/**
 * The sCrypt the transpiler writes, as a small tree, and how it is printed: two-space indentation, one
 * blank line between members and between top-level items, `else` on its own line, single spaces around
 * binary operators, parentheses only where the source had them or the transpiler put them, and no
 * trailing newline. The same tree always prints the same text.
 */

export type SExpr =
  | { k: 'raw'; text: string }
  | { k: 'paren'; e: SExpr }
  | { k: 'unary'; op: string; e: SExpr; postfix: boolean }
  | { k: 'binary'; op: string; l: SExpr; r: SExpr }
  | { k: 'ternary'; c: SExpr; t: SExpr; e: SExpr }
  | { k: 'call'; f: SExpr; args: SExpr[] }
  | { k: 'member'; o: SExpr; name: string }
  | { k: 'index'; o: SExpr; i: SExpr }
  | { k: 'slice'; o: SExpr; from: SExpr; to: SExpr }
  | { k: 'struct'; fields: SExpr[] }
  | { k: 'array'; items: SExpr[] };

export type SStmt =
  | { k: 'expr'; e: SExpr }
  | { k: 'decl'; type: string; name: string; init: SExpr }
  | { k: 'require'; e: SExpr }
  | { k: 'return'; e: SExpr }
  | { k: 'if'; c: SExpr; then: SStmt; else: SStmt | null }
  | { k: 'block'; body: SStmt[] }
  | { k: 'loop'; count: string; induction?: string; body: SStmt };

export interface SParam {
  type: string;
  name: string;
}

export type SMember =
  | { k: 'prop'; state: boolean; visibility: string; isConst: boolean; type: string; name: string }
  | { k: 'static'; type: string; name: string; value: SExpr }
  | { k: 'ctor'; params: SParam[]; body: SStmt[] }
  | { k: 'fn'; visibility: string; isStatic: boolean; name: string; params: SParam[]; returns: string | null; body: SStmt[] };

export interface SStruct {
  name: string;
  fields: SParam[];
}

export interface SContract {
  kind: 'contract' | 'library';
  name: string;
  members: SMember[];
}

export interface SProgram {
  imports: string[];
  structs: SStruct[];
  contracts: SContract[];
}

// ------------------------------------------------------------------ building

export const raw = (text: string): SExpr => ({ k: 'raw', text });
export const id = raw;
export const call = (f: string | SExpr, args: SExpr[]): SExpr => ({ k: 'call', f: typeof f === 'string' ? raw(f) : f, args });
export const member = (o: string | SExpr, name: string): SExpr => ({ k: 'member', o: typeof o === 'string' ? raw(o) : o, name });
export const bin = (op: string, l: SExpr, r: SExpr): SExpr => ({ k: 'binary', op, l, r });
export const not = (e: SExpr): SExpr => ({ k: 'unary', op: '!', e, postfix: false });
export const paren = (e: SExpr): SExpr => ({ k: 'paren', e });
export const requireStmt = (e: SExpr): SStmt => ({ k: 'require', e });
export const exprStmt = (e: SExpr): SStmt => ({ k: 'expr', e });
export const assign = (l: SExpr, r: SExpr, op = '='): SStmt => exprStmt(bin(op, l, r));
export const block = (body: SStmt[]): SStmt => ({ k: 'block', body });

// ------------------------------------------------------------------ printing

/**
 * sCrypt's binary operator levels, loosest first (its parser's table). Solidity puts `&`, `^` and `|` above the comparisons; sCrypt below.
 */
const LEVELS: readonly string[][] = [
  ['||'],
  ['&&'],
  ['|'],
  ['^'],
  ['&'],
  ['==', '!='],
  ['<', '<=', '>', '>='],
  ['<<', '>>'],
  ['+', '-'],
  ['*', '/', '%'],
];
const LEVEL = new Map(LEVELS.flatMap((ops, i) => ops.map((op) => [op, i + 2] as const)));
const ASSIGNMENT = 0;
const TERNARY = 1;
const UNARY = 20;
const PRIMARY = 30;

function precedence(e: SExpr): number {
  switch (e.k) {
    case 'binary':
      return LEVEL.get(e.op) ?? ASSIGNMENT;
    case 'ternary':
      return TERNARY;
    case 'unary':
      return UNARY;
    default:
      return PRIMARY;
  }
}

/** `e` where an operand of at least `min` is needed: in parentheses when sCrypt would otherwise read it differently. */
function operand(e: SExpr, min: number): string {
  return precedence(e) < min ? `(${printExpr(e)})` : printExpr(e);
}

/**
 * An expression as sCrypt reads it. The tree comes from Solidity, whose precedence differs from sCrypt's
 * for the bitwise operators: parentheses are added exactly where sCrypt would group differently, so the
 * text is the source's wherever the two languages agree.
 */
export function printExpr(e: SExpr): string {
  switch (e.k) {
    case 'raw':
      return e.text;
    case 'paren':
      return `(${printExpr(e.e)})`;
    case 'unary':
      return e.postfix ? `${operand(e.e, PRIMARY)}${e.op}` : `${e.op}${operand(e.e, UNARY)}`;
    case 'binary': {
      const level = precedence(e);
      // Assignments group to the right; the operators to the left.
      if (level === ASSIGNMENT) return `${operand(e.l, UNARY)} ${e.op} ${operand(e.r, ASSIGNMENT)}`;
      return `${operand(e.l, level)} ${e.op} ${operand(e.r, level + 1)}`;
    }
    case 'ternary':
      return `${operand(e.c, TERNARY + 1)} ? ${operand(e.t, ASSIGNMENT)} : ${operand(e.e, TERNARY)}`;
    case 'call':
      return `${operand(e.f, PRIMARY)}(${e.args.map(printExpr).join(', ')})`;
    case 'member':
      return `${operand(e.o, PRIMARY)}.${e.name}`;
    case 'index':
      return `${operand(e.o, PRIMARY)}[${printExpr(e.i)}]`;
    case 'slice':
      return `${operand(e.o, PRIMARY)}[${printExpr(e.from)} : ${printExpr(e.to)}]`;
    case 'struct':
      return `{${e.fields.map(printExpr).join(', ')}}`;
    case 'array':
      return `[${e.items.map(printExpr).join(', ')}]`;
  }
}

const pad = (level: number) => '  '.repeat(level);

/** A statement on its own line(s) at `level`, each line starting with a newline (as members do). */
function printStmt(s: SStmt, level: number): string {
  const at = `\n${pad(level)}`;
  switch (s.k) {
    case 'expr':
      return `${at}${printExpr(s.e)};`;
    case 'decl':
      return `${at}${s.type} ${s.name} = ${printExpr(s.init)};`;
    case 'require':
      return `${at}require(${printExpr(s.e)});`;
    case 'return':
      return `${at}return ${printExpr(s.e)};`;
    case 'block':
      return `${at}${printBlock(s.body, level)}`;
    case 'loop':
      return `${at}loop (${s.count})${s.induction ? ` : ${s.induction}` : ''}${branch(s.body, level)}`;
    case 'if': {
      let out = `${at}if (${printExpr(s.c)})${branch(s.then, level)}`;
      if (s.else) {
        out += s.else.k === 'if' ? `${at}else ${printStmt(s.else, level).trimStart()}` : `${at}else${branch(s.else, level)}`;
      }
      return out;
    }
  }
}

/** A block after `if (…)`, `else` or `loop (…)` follows on the same line; a single statement goes on the next, one level deeper. */
function branch(s: SStmt, level: number): string {
  return s.k === 'block' ? ` ${printBlock(s.body, level)}` : printStmt(s, level + 1);
}

function printBlock(body: SStmt[], level: number): string {
  return `{${body.map((x) => printStmt(x, level + 1)).join('')}\n${pad(level)}}`;
}

const params = (ps: SParam[]) => ps.map((p) => `${p.type} ${p.name}`).join(', ');

function printMember(m: SMember): string {
  switch (m.k) {
    case 'prop':
      if (m.state) return `\n  @state\n  ${m.visibility ? `${m.visibility} ` : ''}${m.type} ${m.name};`;
      return `\n  ${m.visibility ? `${m.visibility} ` : ''}${m.isConst ? 'const ' : ''}${m.type} ${m.name};`;
    case 'static':
      return `\n  static const ${m.type} ${m.name} = ${printExpr(m.value)};`;
    case 'ctor':
      return `\n  constructor(${params(m.params)}) ${printBlock(m.body, 1)}`;
    case 'fn': {
      const head = `${m.visibility ? `${m.visibility} ` : ''}${m.isStatic ? 'static ' : ''}function ${m.name}(${params(m.params)})${m.returns ? ` : ${m.returns}` : ''}`;
      return `\n  ${head} ${printBlock(m.body, 1)}`;
    }
  }
}

function printStruct(s: SStruct): string {
  return `struct ${s.name} {${s.fields.map((f) => `\n  ${f.type} ${f.name};`).join('')}\n}`;
}

function printContract(c: SContract): string {
  return `${c.kind} ${c.name} {${c.members.map(printMember).join('\n')}\n}`;
}

/** The whole file: imports, structs, then libraries and contracts. */
export function printProgram(p: SProgram): string {
  const parts: string[] = [];
  if (p.imports.length) parts.push(p.imports.join('\n'));
  if (p.structs.length) parts.push(p.structs.map(printStruct).join('\n\n'));
  const libs = p.contracts.filter((c) => c.kind === 'library');
  const contracts = p.contracts.filter((c) => c.kind === 'contract');
  if (libs.length + contracts.length) parts.push([...libs, ...contracts].map(printContract).join('\n\n'));
  return parts.join('\n\n');
}
