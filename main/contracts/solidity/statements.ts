import type { BaseASTNode, Expression, Statement, VariableDeclaration } from '@solidity-parser/parser/dist/src/ast-types.js';
import type { MapEntry, ProgramContext } from './context.js';
import { asStatement, assignedNames, expr, hasEffects, isConstant, pushedArray, typeOf, valueFor, type Cx } from './expressions.js';
import { spanOf } from './logs.js';
import { scryptName } from './names.js';
import { assign, bin, block, call, exprStmt, member, not, paren, raw, requireStmt, type SExpr, type SStmt } from './sast.js';
import { solType } from './type-names.js';
import { BYTES, UNKNOWN } from './types.js';

const LOOPS = new Set(['ForStatement', 'WhileStatement', 'DoWhileStatement']);

/** Whether a statement holds a node of `type`, looking into nested loops only when `intoLoops`. */
function holds(s: BaseASTNode, type: string, intoLoops: boolean): boolean {
  let found = false;
  const visit = (node: unknown, top: boolean): void => {
    if (found || !node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((x) => visit(x, false));
    const o = node as { type?: string };
    if (o.type === type) {
      found = true;
      return;
    }
    if (!top && !intoLoops && o.type && LOOPS.has(o.type)) return;
    for (const [k, v] of Object.entries(o)) if (k !== 'range' && k !== 'loc') visit(v, false);
  };
  visit(s, !intoLoops && LOOPS.has((s as { type: string }).type) ? false : true);
  return found;
}

export const mayReturn = (s: BaseASTNode) => holds(s, 'ReturnStatement', true);
/** A `break` or `continue` of the enclosing loop (one inside a nested loop belongs to that loop). */
const ownJump = (s: BaseASTNode, type: 'BreakStatement' | 'ContinueStatement') =>
  !LOOPS.has((s as { type: string }).type) && holds(s, type, false);

/** `a && b && c`. */
const all = (xs: SExpr[]): SExpr => xs.reduce((acc, x) => bin('&&', acc, x));

/**
 * The check of a mapping entry: absent with the default value, or present with this value at this index.
 * Absence is `isAbsent` (the index is where the key would go), not `!has` (the official has() is false for
 * a present key behind a wrong index, which would let a caller read a stored entry as the default).
 */
export function mapCheck(p: ProgramContext, e: MapEntry): SStmt[] {
  const item: SExpr = { k: 'struct', fields: [e.key, raw(e.indexName)] };
  const absent = bin('&&', call(member(e.map, 'isAbsent'), [item]), bin('==', raw(e.valueName), p.defaultOf(e.valueType) ?? raw('0')));
  const check = requireStmt(bin('||', paren(absent), call(member(e.map, 'canGet'), [item, raw(e.valueName)])));
  return e.snapshot ? [{ k: 'decl', type: e.snapshot.type, name: e.snapshot.name, init: e.snapshot.init }, check] : [check];
}

/**
 * Statements, block by block. Two rewrites run through every block: after a statement that may have
 * returned (in a function with a `return` before its end) or hit a `break`/`continue` of the enclosing
 * loop, the rest of the block runs under `if (!returned && !loopBreakFlagN …)`; and a mapping entry's
 * check is placed before the statement where the entry first appears, as far out as the key's names allow.
 */
export class Statements {
  constructor(private readonly cx: Cx) {}

  private get p() {
    return this.cx.p;
  }

  /** The statements of one block; the caller has opened the block's scope. */
  list(stmts: Statement[]): SStmt[] {
    const out: SStmt[] = [];
    const f = this.cx.f;
    for (let i = 0; i < stmts.length; i++) {
      const s = stmts[i];
      const converted = this.stmt(s);
      out.push(...this.takeChecks(this.cx.scope.depth), ...converted);
      const rest = stmts.slice(i + 1);
      if (!f || !rest.length) continue;
      const guards: SExpr[] = [];
      if (f.middleReturn && mayReturn(s)) {
        guards.push(not(raw('returned')));
        if (this.cx.scope.depth === 1) f.pastReturn = true;
      }
      const loop = f.loops.at(-1);
      if (loop && ownJump(s, 'BreakStatement')) guards.push(not(raw(`loopBreakFlag${loop.id}`)));
      if (loop && ownJump(s, 'ContinueStatement')) guards.push(not(raw(`loopContinueFlag${loop.id}`)));
      if (guards.length) {
        out.push({ k: 'if', c: all(guards), then: block(this.list(rest)), else: null });
        break;
      }
    }
    return out;
  }

  /**
   * Checks of entries that can be placed at this depth. At the function's top level every waiting check
   * is placed, except, in a function that returns early, those whose keys are parameters or properties:
   * the function places them before its body so that they run on every path (the entries are written
   * back with `set` at the end whichever way the body went).
   */
  takeChecks(depth: number): SStmt[] {
    const f = this.cx.f;
    if (!f || !f.pending.length) return [];
    const here = f.pending.filter((e) => e.depth >= depth || (depth <= 1 && !f.middleReturn));
    if (!here.length) return [];
    f.pending = f.pending.filter((e) => !here.includes(e));
    return here.sort((a, b) => (a.valueName < b.valueName ? -1 : a.valueName > b.valueName ? 1 : 0)).flatMap((e) => mapCheck(this.p, e));
  }

  /** A sub-statement of `if`/`else` in its own scope: a block, or one statement (always a block when it jumps). */
  branch(s: Statement): SStmt {
    this.cx.scope.push();
    try {
      if (s.type === 'Block') return block(this.list(s.statements as Statement[]));
      const body = this.list([s]);
      const jumps = holds(s, 'ReturnStatement', true) || holds(s, 'BreakStatement', false) || holds(s, 'ContinueStatement', false);
      return body.length === 1 && !jumps ? body[0] : block(body);
    } finally {
      this.cx.scope.pop();
    }
  }

  stmt(s: Statement): SStmt[] {
    const { p, cx } = this;
    switch (s.type) {
      case 'Block':
      case 'UncheckedStatement': {
        const statements = (s.type === 'Block' ? s.statements : s.block.statements) as Statement[];
        cx.scope.push();
        const body = this.list(statements);
        cx.scope.pop();
        return [block(body)];
      }
      case 'VariableDeclarationStatement':
        return this.declaration(s);
      case 'ExpressionStatement':
        return s.expression ? this.expressionStatement(s.expression, s) : [];
      case 'IfStatement': {
        const c = expr(cx, s.condition);
        const then = this.branch(s.trueBody);
        const otherwise = s.falseBody ? this.branch(s.falseBody) : null;
        return c ? [{ k: 'if', c, then, else: otherwise }] : [];
      }
      case 'ForStatement':
        return this.loop(s, s.initExpression, s.conditionExpression ?? null, s.loopExpression?.expression ?? null, s.body, false);
      case 'WhileStatement':
        return this.loop(s, null, s.condition, null, s.body, false);
      case 'DoWhileStatement':
        return this.loop(s, null, s.condition, null, s.body, true);
      case 'BreakStatement' as Statement['type']:
      case 'ContinueStatement': {
        const loop = cx.f?.loops.at(-1);
        const isBreak = (s.type as string) === 'BreakStatement';
        if (!loop) {
          p.error(s, `unsupported statement: \`${isBreak ? 'break' : 'continue'}\``);
          return [];
        }
        return [assign(raw(`${isBreak ? 'loopBreakFlag' : 'loopContinueFlag'}${loop.id}`), raw('true'))];
      }
      case 'ReturnStatement': {
        // Only a return before the function's end gets here: it records its value and raises `returned`.
        const f = cx.f;
        const value = s.expression ? expr(cx, s.expression) : raw(f?.namedReturn ?? 'true');
        if (!value) return [];
        return [block([assign(raw('ret'), value), assign(raw('returned'), raw('true'))])];
      }
      case 'EmitStatement':
        return [];
      case 'RevertStatement':
        return [requireStmt(raw('false'))];
      case 'InlineAssemblyStatement':
        p.error(s, 'unsupported assembly statement');
        return [];
      case 'ThrowStatement':
        p.error(s, 'unsupported deprecated throw statement');
        return [];
      default:
        p.error(s, `unsupported statement: \`${p.text(s).split(/[{\n]/)[0].trim()}\``);
        return [];
    }
  }

  private declaration(s: Extract<Statement, { type: 'VariableDeclarationStatement' }>): SStmt[] {
    const { p, cx } = this;
    if (s.variables.length !== 1 || !s.variables[0]) {
      p.error(s, 'unsupported tuple expression declaration');
      return [];
    }
    const v = s.variables[0] as VariableDeclaration;
    const name = v.name ?? '_';
    // A storage pointer (`Voter storage sender = voters[msg.sender];`) is another name for what it points at.
    if (v.storageLocation === 'storage' && s.initialValue && isPlace(s.initialValue)) {
      const target = s.initialValue;
      const init = expr(cx, target);
      const t = v.typeName ? solType(p, v.typeName) : null;
      if (init) cx.scope.declareAlias(name, t ?? UNKNOWN, target);
      return [];
    }
    if (!v.typeName) {
      if (s.initialValue) expr(cx, s.initialValue);
      p.error(s, 'unsupported deprecated var statement');
      return [];
    }
    // The initial value is looked at before the type (sol2scrypt reports them in that order).
    const declared = v.typeName.type === 'ElementaryTypeName' && /^(bytes\d*|byte|string)$/.test(v.typeName.name) ? BYTES : null;
    const init = s.initialValue ? valueFor(cx, declared, s.initialValue) : null;
    const t = solType(p, v.typeName);
    cx.scope.declare(name, 'local', t ?? UNKNOWN);
    if (!t) return [];
    if (s.initialValue) return init ? [{ k: 'decl', type: p.typeText(t), name: scryptName(name), init }] : [];
    const d = p.defaultOf(t);
    if (!d) {
      p.error(s, 'unsupported variable declaration without initializing it');
      return [];
    }
    return [{ k: 'decl', type: p.typeText(t), name: scryptName(name), init: d }];
  }

  private expressionStatement(e: Expression, s: BaseASTNode): SStmt[] {
    return asStatement(this.cx, e, () => this.expressionStatementOf(e, s));
  }

  private expressionStatementOf(e: Expression, s: BaseASTNode): SStmt[] {
    const { p, cx } = this;
    if (e.type === 'FunctionCall' && e.expression.type === 'Identifier' && !cx.scope.lookup(e.expression.name)) {
      const name = e.expression.name;
      if ((name === 'require' || name === 'assert') && e.arguments.length >= 1) {
        const c = expr(cx, e.arguments[0]);
        return c ? [requireStmt(c)] : [];
      }
      if (name === 'revert') return [requireStmt(raw('false'))];
      // `Transfer(from, to, v);`: an event fired the old way, without `emit`; it vanishes as `emit` does.
      if (p.events.has(name) && !cx.c.functions.has(name)) return [];
    }
    if (e.type === 'BinaryOperation' && e.left.type === 'TupleExpression' && !e.left.isArray && e.left.components.length !== 1) {
      p.error(s, 'unsupported tuple expression assignment');
      return [];
    }
    const pushed = this.push(e);
    if (pushed) return pushed;
    const dispatched = this.runTimeIndexWrite(e);
    if (dispatched) return dispatched;
    const x = expr(cx, e);
    return x ? [exprStmt(x)] : [];
  }

  /**
   * `xs.push(v)` on a state array with a length counter: a bounds check, the write at the counter (a loop
   * over the indices, as a run-time index write), and the counter's increment.
   */
  private push(e: Expression): SStmt[] | null {
    const { cx } = this;
    if (e.type !== 'FunctionCall' || e.expression.type !== 'MemberAccess' || e.expression.memberName !== 'push') return null;
    const base = e.expression.expression;
    const arr = base.type === 'Identifier' ? pushedArray(cx, base.name) : undefined;
    const t = arr && typeOf(cx, base);
    if (!arr || t?.k !== 'array' || e.arguments.length !== 1) return null;
    const v = valueFor(cx, t.elem, e.arguments[0]);
    if (!v) return [];
    const counter = raw(`this.${arr.counter}`);
    const self = expr(cx, base, true);
    if (!self) return [];
    const write: SStmt = {
      k: 'if',
      c: bin('==', raw('__i0'), counter),
      then: block([assign({ k: 'index', o: self, i: raw('__i0') }, v)]),
      else: null,
    };
    return [
      requireStmt(bin('<', counter, raw(String(arr.size)))),
      { k: 'loop', count: String(arr.size), induction: '__i0', body: block([write]) },
      assign(counter, raw('1'), '+='),
    ];
  }

  /**
   * sCrypt writes an array element only at a compile-time index. `a[k] = v` (also `op=`, `++`, `--`, and
   * fields or elements below it) at a run-time `k` becomes a bounds check, as Solidity's, and a loop over
   * the indices that writes where the induction variable equals `k`:
   * `require(k >= 0 && k < 3); loop (3) : __i0 { if (__i0 == k) { a[__i0] = v; } }`.
   */
  private runTimeIndexWrite(e: Expression): SStmt[] | null {
    const { cx } = this;
    let target: Expression | null = null;
    if (e.type === 'BinaryOperation' && ['=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<=', '>>='].includes(e.operator))
      target = e.left;
    if (e.type === 'UnaryOperation' && (e.operator === '++' || e.operator === '--')) target = e.subExpression;
    const dynamic: { node: Expression; index: Expression; size: number }[] = [];
    for (let t = target; t;) {
      if (t.type === 'IndexAccess' && t.index) {
        const base = typeOf(cx, t.base);
        if (base?.k === 'array' && !isConstant(cx, t.index)) {
          if (hasEffects(t.index)) return null;
          dynamic.unshift({ node: t, index: t.index, size: base.size });
        }
        t = t.base;
      } else if (t.type === 'MemberAccess') t = t.expression;
      else if (t.type === 'TupleExpression' && t.components.length === 1) t = t.components[0] as Expression | null;
      else t = null;
    }
    if (!dynamic.length) return null;
    const vars = dynamic.map((_, i) => `__i${i}`);
    const indexes = dynamic.map((d) => expr(cx, d.index));
    if (!indexes.every(Boolean)) return null;
    const bounds = dynamic.map((d, i) =>
      requireStmt(bin('&&', bin('>=', indexes[i] as SExpr, raw('0')), bin('<', indexes[i] as SExpr, raw(String(d.size))))),
    );
    const previous = cx.indexVars;
    cx.indexVars = new Map([...(previous ?? []), ...dynamic.map((d, i) => [d.node, vars[i]] as const)]);
    const write = expr(cx, e);
    cx.indexVars = previous;
    if (!write) return null;
    let body: SStmt = {
      k: 'if',
      c: all(vars.map((v, i) => bin('==', raw(v), indexes[i] as SExpr))),
      then: block([exprStmt(write)]),
      else: null,
    };
    for (let i = dynamic.length - 1; i >= 0; i--)
      body = { k: 'loop', count: String(dynamic[i].size), induction: vars[i], body: block([body]) };
    return [...bounds, body];
  }

  /**
   * `for`, `while` and `do … while` as a bounded `loop (__LoopCount__N)` whose body runs under the loop's
   * condition; `break` and `continue` become flags. A `do … while` runs its body once before the loop.
   */
  private loop(
    s: BaseASTNode,
    init: Statement | null,
    cond: Expression | null,
    iter: Expression | null,
    body: Statement,
    bodyFirst: boolean,
  ): SStmt[] {
    const { cx } = this;
    const f = cx.f;
    if (!f) return [];
    const id = f.loopCounter++;
    const breaks = ownJump(body, 'BreakStatement');
    const continues = ownJump(body, 'ContinueStatement');
    const breakFlagName = `loopBreakFlag${id}`;
    const breakFlag = raw(breakFlagName);
    const continueFlag = `loopContinueFlag${id}`;
    const out: SStmt[] = [];
    if (breaks) out.push({ k: 'decl', type: 'bool', name: breakFlagName, init: raw('false') });
    cx.c.loops.push({ id, bound: loopBound(init, cond, iter), at: spanOf(s) });

    // The loop's own variables live one level in, so a mapping check keyed by them goes inside the loop.
    cx.scope.push();
    if (init) out.push(...this.stmt(init));
    // What the loop changes on each turn (its initialiser runs once): a mapping entry keyed by it is refused.
    f.loopAssigned.push(assignedNames([cond, iter, body]));
    const loopFrame = { id, breaks, continues };
    const runBody = (): SStmt[] => {
      f.loops.push(loopFrame);
      cx.scope.push();
      const inner: SStmt[] = continues ? [{ k: 'decl', type: 'bool', name: continueFlag, init: raw('false') }] : [];
      inner.push(...this.list(body.type === 'Block' ? (body.statements as Statement[]) : [body]));
      cx.scope.pop();
      f.loops.pop();
      return inner;
    };
    // The body's own block keeps its declarations apart from the loop's copy of them.
    if (bodyFirst) out.push(block(runBody()));
    const c = cond ? expr(cx, cond) : null;
    const inner = runBody();
    if (iter) {
      const it = asStatement(cx, iter, () => expr(cx, iter));
      if (it) inner.push(breaks ? { k: 'if', c: not(breakFlag), then: block([exprStmt(it)]), else: null } : exprStmt(it));
    }
    const guards: SExpr[] = [];
    if (f.middleReturn && mayReturn(body)) guards.push(not(raw('returned')));
    if (breaks) guards.push(not(breakFlag));
    if (c) guards.push(c);
    const checks = this.takeChecks(cx.scope.depth);
    f.loopAssigned.pop();
    cx.scope.pop();
    out.push({
      k: 'loop',
      count: `__LoopCount__${id}`,
      body: block([...checks, { k: 'if', c: guards.length ? all(guards) : raw('true'), then: block(inner), else: null }]),
    });
    return out;
  }
}

/** An expression a storage pointer can stand for: a name, a member, an element or a mapping entry. */
function isPlace(e: Expression): boolean {
  return e.type === 'Identifier' || e.type === 'IndexAccess' || (e.type === 'MemberAccess' && isPlace(e.expression));
}

/**
 * The number of times a counting loop runs, when it is written with literals:
 * `for (uint i = A; i < B; i++)` (also `<=`, `++i`, `i += k`). Null when it cannot be told.
 */
function loopBound(init: Statement | null, cond: Expression | null, iter: Expression | null): bigint | null {
  if (!init || init.type !== 'VariableDeclarationStatement' || init.variables.length !== 1 || !cond || !iter) return null;
  const v = init.variables[0] as VariableDeclaration | null;
  const start = literal(init.initialValue);
  if (!v?.name || start === null || cond.type !== 'BinaryOperation' || cond.left.type !== 'Identifier' || cond.left.name !== v.name)
    return null;
  const end = literal(cond.right);
  if (end === null || (cond.operator !== '<' && cond.operator !== '<=')) return null;
  let step: bigint | null = null;
  if (
    iter.type === 'UnaryOperation' &&
    iter.operator === '++' &&
    iter.subExpression.type === 'Identifier' &&
    iter.subExpression.name === v.name
  )
    step = 1n;
  if (iter.type === 'BinaryOperation' && iter.operator === '+=' && iter.left.type === 'Identifier' && iter.left.name === v.name)
    step = literal(iter.right);
  if (!step || step <= 0n) return null;
  const span = end - start + (cond.operator === '<=' ? 1n : 0n);
  return span <= 0n ? 0n : (span + step - 1n) / step;
}

function literal(e: Expression | null): bigint | null {
  if (e?.type !== 'NumberLiteral' || e.subdenomination) return null;
  try {
    return BigInt(e.number.replace(/_/g, ''));
  } catch {
    return null;
  }
}
