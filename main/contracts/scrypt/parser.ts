import type { ContractLike, Expr, Func, Item, Param, Program, Property, Stmt, StructDecl, TypeRef } from './ast.js';
import { Diagnostics, type Position } from './diagnostics.js';
import { tokenize, type Token } from './lexer.js';

/** Binary operators by precedence, lowest first (sCrypt's table, `syntax.rst`). */
const BINARY_LEVELS: readonly string[][] = [
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
const ASSIGN_OPS = new Set(['=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<=', '>>=']);

class ParseError extends Error {}

/**
 * A recursive-descent parser for the grammar of the sCrypt reference (§2.1): imports, structs,
 * libraries, contracts, type aliases, static constants; statements; expressions with sCrypt's
 * precedence. On an error it records a diagnostic, skips to the next `;` or `}`, and goes on, so one
 * run reports several errors.
 */
/** Deeper nesting than this (parentheses, blocks, chained operators) is refused with a positioned error. */
export const MAX_NESTING = 100;
/** The most operators one chain such as `a + b + c …` may have (each adds a level to the tree). */
export const MAX_CHAIN = 1_000;

export class Parser {
  private i = 0;
  /** Temporaries made for `x = new T(…)`. */
  private news = 0;
  /** Whether the type being parsed may omit array sizes (a declaration with an initialiser), and the sizes it omitted. */
  private omittable = false;
  private readonly omitted = new WeakSet<Expr>();
  private depth = 0;
  /**
   * Whether the first `>` of the current `>>` token has already closed a type-argument list: in
   * `ST1<ST0<int>>` the lexer's `>>` closes two lists, as in Java or C++11. Kept as a flag rather than by
   * splitting the token, so backtracking (looksLikeDeclaration) restores it and an expression `a >> b`
   * is never affected.
   */
  private halfShift = false;
  /** How many type-argument lists enclose the type being parsed. */
  private typeArgs = 0;
  private readonly tokens: Token[];

  constructor(
    source: string,
    readonly diags: Diagnostics,
  ) {
    this.tokens = tokenize(source, diags);
  }

  /** Runs one level of nesting; past MAX_NESTING the program is refused here, not by a stack overflow later. */
  private nested<T>(parse: () => T): T {
    if (this.depth >= MAX_NESTING)
      this.fail(`this is nested more than ${MAX_NESTING} levels deep; split it into smaller functions or expressions`);
    this.depth++;
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  // ---- token helpers ----
  private get tok(): Token {
    return this.tokens[this.i];
  }
  private peek(n = 1): Token {
    return this.tokens[Math.min(this.i + n, this.tokens.length - 1)];
  }
  private is(value: string, kind?: Token['kind']): boolean {
    const t = this.tok;
    return t.value === value && (kind ? t.kind === kind : t.kind === 'punct' || t.kind === 'keyword');
  }
  private eat(value: string): boolean {
    if (this.is(value)) {
      this.i++;
      return true;
    }
    return false;
  }
  private fail(message: string, at: Position = this.tok.start): never {
    this.diags.error(at, message);
    throw new ParseError(message);
  }
  private describe(t: Token): string {
    if (t.kind === 'punct' && t.value === '...')
      return "'...', which stands for code left out (as in documentation excerpts) and is not sCrypt: write the code it stands for";
    return t.kind === 'eof' ? 'end of file' : `'${t.kind === 'bytes' ? `b'${t.value}'` : t.value}'`;
  }
  private expect(value: string): Token {
    if (!this.is(value)) this.fail(`expected '${value}' but found ${this.describe(this.tok)}`);
    return this.tokens[this.i++];
  }
  /** A missing `;` is reported and taken as present, so the next statement still parses. */
  private semicolon(): void {
    if (this.eat(';')) return;
    this.diags.error(this.tok.start, `expected ';' but found ${this.describe(this.tok)}`);
    if (this.tok.kind === 'eof') throw new ParseError('eof');
  }
  private ident(what = 'a name'): Token {
    if (this.tok.kind !== 'ident') this.fail(`expected ${what} but found ${this.describe(this.tok)}`);
    return this.tokens[this.i++];
  }
  /** After an error: skip to just past the next `;`, or to a `}` that closes the current level. */
  private recover(): void {
    this.halfShift = false;
    let depth = 0;
    while (this.tok.kind !== 'eof') {
      if (this.is('{')) depth++;
      if (this.is('}')) {
        if (depth === 0) return;
        depth--;
        if (depth === 0) {
          this.i++;
          return;
        }
      }
      if (this.is(';') && depth === 0) {
        this.i++;
        return;
      }
      this.i++;
    }
  }

  // ---- program ----
  parseProgram(): Program {
    const program: Program = { imports: [], items: [] };
    while (this.tok.kind !== 'eof') {
      const start = this.i;
      try {
        if (this.is('import')) {
          const at = this.tok.start;
          this.i++;
          if (this.tok.kind !== 'string') this.fail('expected the path of the import as a string');
          program.imports.push({ path: this.tokens[this.i++].value, at });
          this.semicolon();
        } else program.items.push(this.item());
      } catch (err) {
        if (!(err instanceof ParseError)) throw err;
        this.recover();
        if (this.is('}')) this.i++;
        if (this.i === start) this.i++; // always make progress
      }
    }
    return program;
  }

  private genericNames(): string[] {
    const names: string[] = [];
    if (this.eat('<')) {
      do names.push(this.ident('a type parameter').value);
      while (this.eat(','));
      this.expect('>');
    }
    return names;
  }

  private item(): Item {
    const at = this.tok.start;
    if (this.is('struct')) return this.struct();
    if (this.is('contract') || this.is('library')) return this.contract();
    if (this.is('type')) {
      this.i++;
      const name = this.ident('the alias name').value;
      this.expect('=');
      const type = this.type();
      this.semicolon();
      return { kind: 'alias', name, type, at };
    }
    if (this.is('static')) {
      this.i++;
      this.expect('const');
      const type = this.declType();
      const name = this.ident('the constant name').value;
      this.expect('=');
      const value = this.expr();
      this.sizesFromInit(type, value);
      this.semicolon();
      return { kind: 'const', name, type, value, at };
    }
    return this.fail(`expected a contract, library, struct, type alias or static const, found ${this.describe(this.tok)}`);
  }

  private struct(): StructDecl {
    const at = this.expect('struct').start;
    const name = this.ident('the struct name').value;
    const generics = this.genericNames();
    this.expect('{');
    const fields: StructDecl['fields'] = [];
    while (!this.is('}') && this.tok.kind !== 'eof') {
      const fat = this.tok.start;
      try {
        const type = this.type();
        fields.push({ type, name: this.ident('a field name').value, at: fat });
        this.semicolon();
      } catch (err) {
        if (!(err instanceof ParseError)) throw err;
        this.recover();
      }
    }
    this.expect('}');
    if (fields.length === 0) this.diags.error(at, `struct ${name} needs at least one field`);
    return { kind: 'struct', name, generics, fields, at };
  }

  private contract(): ContractLike {
    const at = this.tok.start;
    const kind = this.tokens[this.i++].value as 'contract' | 'library';
    const name = this.ident(`the ${kind} name`).value;
    const generics = this.genericNames();
    this.expect('{');
    const c: ContractLike = { kind, name, generics, properties: [], ctor: null, functions: [], at };
    while (!this.is('}') && this.tok.kind !== 'eof') {
      try {
        this.member(c);
      } catch (err) {
        if (!(err instanceof ParseError)) throw err;
        this.recover();
      }
    }
    this.expect('}');
    return c;
  }

  private member(c: ContractLike): void {
    const at = this.tok.start;
    let state = false;
    while (this.tok.kind === 'annotation') {
      const a = this.tokens[this.i++];
      if (a.value === 'state') state = true;
      else this.diags.error(a.start, `unknown annotation @${a.value}`);
    }
    let isStatic = false;
    let isConst = false;
    let visibility: Property['visibility'] = 'default';
    for (;;) {
      if (this.eat('static')) isStatic = true;
      else if (this.eat('const')) isConst = true;
      else if (this.eat('public')) visibility = 'public';
      else if (this.eat('private')) visibility = 'private';
      else break;
    }
    if (this.is('constructor')) {
      this.i++;
      if (c.ctor) this.diags.error(at, `${c.name} has more than one constructor`);
      const params = this.params();
      c.ctor = { params, body: this.block(), at };
      return;
    }
    if (this.eat('function')) {
      const name = this.ident('the function name').value;
      const params = this.params();
      let returnType = this.eat(':') ? this.type() : null;
      // The older form `function f(…) returns (T)`, which the official compiler still accepts.
      if (!returnType && this.is('returns', 'ident') && this.peek().value === '(') {
        this.i += 2;
        returnType = this.type();
        this.expect(')');
      }
      c.functions.push({ name, visibility, isStatic, params, returnType, body: this.block(), at } satisfies Func);
      return;
    }
    const type = this.declType();
    const name = this.ident('a property name').value;
    const init = this.eat('=') ? this.expr() : null;
    this.sizesFromInit(type, init);
    this.semicolon();
    // `static auto N = 10;`: the type is the literal's.
    if (type.name === 'auto' && !type.dims.length && init) {
      const literal = init.kind === 'unary' && init.op === '-' ? init.operand : init;
      const name =
        literal.kind === 'int'
          ? 'int'
          : literal.kind === 'bool'
            ? 'bool'
            : literal.kind === 'bytes' || literal.kind === 'string'
              ? 'bytes'
              : null;
      if (name) type.name = name;
    }
    c.properties.push({ name, type, state, isStatic, isConst, visibility, init, at });
  }

  private params(): Param[] {
    this.expect('(');
    const params: Param[] = [];
    if (!this.is(')')) {
      do {
        const at = this.tok.start;
        let isStaticConst = false;
        let isConst = false;
        if (this.eat('static')) {
          this.expect('const');
          isStaticConst = true;
        } else if (this.eat('const')) isConst = true; // a parameter the body may not assign
        const type = this.type();
        params.push({ name: this.ident('a parameter name').value, type, isStaticConst, isConst, at });
      } while (this.eat(','));
    }
    this.expect(')');
    return params;
  }

  // ---- types ----
  private type(): TypeRef {
    // Only this type's own sizes may be omitted, not those of its type arguments.
    const omittable = this.omittable;
    this.omittable = false;
    // The older form `struct Point` names the struct Point (a parameter, a return type, an array element…).
    const tagged = this.startsTaggedType();
    if (tagged) this.i++;
    const t = this.tok;
    if (t.kind !== 'ident' && !(t.kind === 'keyword' && t.value === 'auto' && !tagged))
      this.fail(`expected a ${tagged ? 'struct name after struct' : 'type'} but found ${this.describe(t)}`);
    this.i++;
    const generics: TypeRef[] = [];
    if (this.is('<') && (this.peek().kind === 'ident' || this.startsTaggedType(1))) {
      this.i++;
      this.typeArgs++;
      try {
        do generics.push(this.nested(() => this.type()));
        while (!this.halfShift && this.eat(','));
      } finally {
        this.typeArgs--;
      }
      this.closeTypeArguments();
      // Only an enclosing list can take the second half of a `>>`.
      if (this.halfShift && this.typeArgs === 0) {
        this.halfShift = false;
        this.fail(`expected '>' but found '>>'`);
      }
    }
    const dims: Expr[] = [];
    while (!this.halfShift && this.is('[')) {
      const at = this.tok.start;
      this.i++;
      if (this.is(']')) {
        // `int[] a = [1, 4, 2]`: the size is the initialiser's (declarations only, see sizesFromInit).
        if (!omittable) this.fail('an array size can be omitted only where a variable or constant is declared with an array literal', at);
        const size: Expr = { kind: 'int', value: 0n, at };
        this.omitted.add(size);
        dims.push(size);
      } else dims.push(this.expr());
      this.expect(']');
    }
    return { kind: 'type', name: t.value, generics, dims, at: t.start, ...(tagged ? { tagged: true as const } : {}) };
  }

  /**
   * Whether the name here is followed by a type-argument list and then `.` (`L<int, Pt>.f`), not a
   * comparison: the list holds only what types are written with (names, sizes, brackets, commas).
   */
  private typeArgumentsThenDot(): boolean {
    if (this.peek().kind !== 'punct' || this.peek().value !== '<') return false;
    let depth = 0;
    for (let k = this.i + 1; k < this.tokens.length; k++) {
      const t = this.tokens[k];
      if (t.kind === 'punct' && t.value === '<') depth++;
      else if (t.kind === 'punct' && (t.value === '>' || t.value === '>>')) {
        depth -= t.value === '>' ? 1 : 2;
        if (depth < 0) return false;
        if (depth === 0) {
          const next = this.tokens[k + 1];
          return next?.kind === 'punct' && next.value === '.';
        }
      } else if (!(t.kind === 'ident' || t.kind === 'int' || (t.kind === 'keyword' && t.value === 'struct'))) {
        if (!(t.kind === 'punct' && [',', '[', ']'].includes(t.value))) return false;
      }
    }
    return false;
  }

  /** Whether the token `offset` ahead is the keyword `struct` followed by a name: the older form of a struct type. */
  private startsTaggedType(offset = 0): boolean {
    const t = this.tokens[Math.min(this.i + offset, this.tokens.length - 1)];
    const next = this.tokens[Math.min(this.i + offset + 1, this.tokens.length - 1)];
    return t.kind === 'keyword' && t.value === 'struct' && next.kind === 'ident';
  }

  /** The `>` that closes a type-argument list, which may be either half of a `>>` token. */
  private closeTypeArguments(): void {
    if (this.halfShift) {
      this.halfShift = false;
      this.i++;
    } else if (this.is('>>')) this.halfShift = true;
    else this.expect('>');
  }

  /** A declaration's type, whose array sizes may be omitted (`int[][] f = [[1, 2], [3, 4]]`). */
  private declType(): TypeRef {
    const before = this.omittable;
    this.omittable = true;
    try {
      return this.type();
    } finally {
      this.omittable = before;
    }
  }

  /**
   * The omitted sizes of a declared array type, read off its array-literal initialiser as the reference
   * says (`int[] e = [1, 4, 2]` is `int[3]`; `int[][]` takes the outer literal's length, then its first
   * item's). Anything else must write the size.
   */
  private sizesFromInit(type: TypeRef, init: Expr | null): void {
    type.dims.forEach((d, level) => {
      if (!this.omitted.has(d) || d.kind !== 'int') return;
      let e: Expr | null = init;
      for (let k = 0; k < level && e; k++) e = e.kind === 'array' ? (e.items[0] ?? null) : null;
      if (!e || e.kind !== 'array') this.fail('an omitted array size needs an array literal as the initial value; write the size', d.at);
      d.value = BigInt(e.items.length);
    });
  }

  /** Whether a declaration `Type name …` starts here (tried without consuming, with backtracking). */
  private looksLikeDeclaration(): boolean {
    if (this.is('auto')) return true;
    if (this.tok.kind !== 'ident' && !this.startsTaggedType()) return false;
    return this.lookahead(() => {
      this.declType();
      return !this.halfShift && this.tok.kind === 'ident';
    });
  }

  /** Runs `attempt` and undoes everything it consumed or reported: whether it says the tokens ahead fit. */
  private lookahead(attempt: () => boolean): boolean {
    const save = this.i;
    const mark = this.diags.mark();
    try {
      return attempt();
    } catch {
      return false;
    } finally {
      this.i = save;
      this.halfShift = false;
      this.diags.rewind(mark);
    }
  }

  /**
   * Whether the token `offset` ahead starts `new T(…);`, a whole right-hand side: those declarations and
   * assignments keep the statement form they always had (and its code). `new T(…).f()` and the like are
   * expressions. Tried without consuming, with backtracking.
   */
  private wholeNewAhead(offset: number): boolean {
    const at = this.tokens[Math.min(this.i + offset, this.tokens.length - 1)];
    if (at.kind !== 'keyword' || at.value !== 'new') return false;
    return this.lookahead(() => {
      this.i += offset + 1;
      this.type();
      this.args();
      return this.is(';');
    });
  }

  // ---- statements ----
  private block(): Stmt[] {
    this.expect('{');
    const body: Stmt[] = [];
    while (!this.is('}') && this.tok.kind !== 'eof') {
      const start = this.i;
      try {
        body.push(this.stmt());
      } catch (err) {
        if (!(err instanceof ParseError)) throw err;
        this.recover();
        if (this.i === start) this.i++;
      }
    }
    this.expect('}');
    return body;
  }

  private stmt(): Stmt {
    return this.nested(() => this.statement());
  }

  private statement(): Stmt {
    const at = this.tok.start;
    const t = this.tok;
    if (t.kind === 'codesep') {
      this.i++;
      return { kind: 'codesep', at };
    }
    if (t.kind === 'asm') {
      this.i++;
      return { kind: 'asm', text: t.value, at };
    }
    if (this.is('{')) return { kind: 'block', body: this.block(), at };
    if (this.is('require') || this.is('exit')) {
      const kind = this.tokens[this.i++].value as 'require' | 'exit';
      this.expect('(');
      const cond = this.expr();
      this.expect(')');
      this.semicolon();
      return { kind, cond, at };
    }
    if (this.eat('if')) {
      this.expect('(');
      const cond = this.expr();
      this.expect(')');
      const then = this.stmt();
      const otherwise = this.eat('else') ? this.stmt() : null;
      return { kind: 'if', cond, then, else: otherwise, at };
    }
    if (this.eat('loop')) {
      this.expect('(');
      const count = this.expr();
      this.expect(')');
      const induction = this.eat(':') ? this.ident('the loop variable').value : null;
      return { kind: 'loop', count, induction, body: this.stmt(), at };
    }
    if (this.eat('return')) {
      const value = this.expr();
      this.semicolon();
      return { kind: 'return', value, at };
    }
    const isConst = this.eat('const');
    if (isConst || this.looksLikeDeclaration()) {
      const type = this.is('auto') ? (this.i++, 'auto' as const) : this.declType();
      const name = this.ident('a variable name').value;
      if (type !== 'auto' && this.is('=') && this.wholeNewAhead(1)) {
        this.i += 2;
        // The declared type is the one built; the written one may carry type arguments (`new G<int>(…)`).
        this.type();
        const args = this.args();
        this.sizesFromInit(type, null);
        this.semicolon();
        return { kind: 'new', type, name, args, at };
      }
      const init = this.eat('=') ? this.expr() : null;
      if (init === null && type === 'auto') this.fail('auto variables need an initial value', at);
      if (type !== 'auto') this.sizesFromInit(type, init);
      this.semicolon();
      return { kind: 'var', type, name, init, isConst, at };
    }
    const expr = this.expr();
    if (this.tok.kind === 'punct' && ASSIGN_OPS.has(this.tok.value)) {
      const op = this.tokens[this.i++].value;
      if (op === '=' && this.wholeNewAhead(0)) {
        // `this.r = new T(…)`: built as a temporary, which the assignment then moves into place.
        this.i++;
        const type = this.type();
        const args = this.args();
        this.semicolon();
        const name = `__new${this.news++}`;
        return {
          kind: 'block',
          body: [
            { kind: 'new', type, name, args, at },
            { kind: 'assign', target: expr, op, value: { kind: 'ident', name, at }, move: true, at },
          ],
          at,
        };
      }
      const value = this.expr();
      this.semicolon();
      return { kind: 'assign', target: expr, op, value, at };
    }
    this.semicolon();
    return { kind: 'expr', expr, at };
  }

  // ---- expressions ----
  expr(): Expr {
    return this.nested(() => this.conditional());
  }

  private conditional(): Expr {
    const cond = this.binary(0);
    if (this.is('?')) {
      const at = this.tokens[this.i++].start;
      const then = this.expr();
      this.expect(':');
      return { kind: 'ternary', cond, then, else: this.expr(), at };
    }
    return cond;
  }

  private binary(level: number): Expr {
    if (level === BINARY_LEVELS.length) return this.unary();
    let left = this.binary(level + 1);
    let chain = 0;
    while (this.tok.kind === 'punct' && BINARY_LEVELS[level].includes(this.tok.value)) {
      if (++chain > MAX_CHAIN) this.fail(`this expression chains more than ${MAX_CHAIN} operators; split it into several statements`);
      const op = this.tokens[this.i++];
      left = { kind: 'binary', op: op.value, left, right: this.binary(level + 1), at: op.start };
    }
    return left;
  }

  private unary(): Expr {
    const t = this.tok;
    if (t.kind === 'punct' && ['-', '!', '~', '++', '--'].includes(t.value)) {
      this.i++;
      return { kind: 'unary', op: t.value as '-', operand: this.nested(() => this.unary()), at: t.start };
    }
    return this.postfix(this.primary());
  }

  private args(): Expr[] {
    this.expect('(');
    const args: Expr[] = [];
    if (!this.is(')')) {
      do args.push(this.expr());
      while (this.eat(','));
    }
    this.expect(')');
    return args;
  }

  private postfix(e: Expr): Expr {
    for (;;) {
      const at = this.tok.start;
      if (this.eat('.')) {
        e = { kind: 'member', object: e, name: this.ident('a member name').value, at };
      } else if (this.is('(')) {
        e = { kind: 'call', callee: e, args: this.args(), generics: [], at };
      } else if (this.eat('[')) {
        let start: Expr | null = null;
        if (!this.is(':')) start = this.expr();
        if (this.eat(':')) {
          const end = this.is(']') ? null : this.expr();
          this.expect(']');
          e = { kind: 'slice', object: e, start, end, at };
        } else {
          this.expect(']');
          e = { kind: 'index', object: e, index: start!, at };
        }
      } else if (this.is('++') || this.is('--')) {
        e = { kind: 'postfix', op: this.tokens[this.i++].value as '++', operand: e, at };
        // `a ++ b`: early sCrypt's concatenation, which current sCrypt (and the official compiler) writes `a + b`.
        if (e.op === '++' && ['ident', 'int', 'bytes', 'string'].includes(this.tok.kind))
          this.fail(`'++' does not join two values in sCrypt: concatenation is '+' (write a + b, not a ++ b)`);
      } else return e;
    }
  }

  private primary(): Expr {
    const t = this.tok;
    const at = t.start;
    switch (t.kind) {
      case 'int':
        this.i++;
        return { kind: 'int', value: BigInt(t.value), at };
      case 'bytes':
        this.i++;
        return { kind: 'bytes', hex: t.value, at };
      case 'string':
        this.i++;
        return { kind: 'string', value: t.value, at };
      case 'ident':
        if (this.typeArgumentsThenDot()) {
          // `L<int>.clone(a)`: a generic library named with its type arguments, for a static call.
          const type = this.nested(() => this.type());
          return { kind: 'ident', name: t.value, typeArgs: type.generics, at };
        }
        this.i++;
        return { kind: 'ident', name: t.value, at };
      case 'keyword':
        if (t.value === 'true' || t.value === 'false') {
          this.i++;
          return { kind: 'bool', value: t.value === 'true', at };
        }
        if (t.value === 'this') {
          this.i++;
          return { kind: 'this', at };
        }
        if (t.value === 'new') {
          // A value of its own: `L l = new L(…)` and `x = new L(…)` keep their statement forms (above).
          this.i++;
          const type = this.nested(() => this.type());
          return { kind: 'new', type, args: this.args(), at };
        }
        break;
      case 'punct':
        if (t.value === '(') {
          this.i++;
          const e = this.expr();
          this.expect(')');
          return e;
        }
        if (t.value === '[' || t.value === '{') {
          const close = t.value === '[' ? ']' : '}';
          this.i++;
          const items: Expr[] = [];
          if (!this.is(close)) {
            do items.push(this.expr());
            while (this.eat(','));
          }
          this.expect(close);
          return close === ']' ? { kind: 'array', items, at } : { kind: 'structLit', fields: items, at };
        }
        break;
    }
    return this.fail(`expected an expression but found ${this.describe(t)}`);
  }
}

/** Parses one source file; the diagnostics hold every syntax error found, with its position. */
export function parse(source: string, file = 'contract.scrypt'): { program: Program; diagnostics: Diagnostics } {
  const diagnostics = new Diagnostics(file);
  const program = new Parser(source, diagnostics).parseProgram();
  return { program, diagnostics };
}
