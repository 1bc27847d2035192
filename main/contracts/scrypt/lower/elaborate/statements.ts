import type { Stmt } from '../../ast.js';
import { INT } from '../../semantics/model.js';
import type { IExpr, IStmt } from '../ir.js';
import type { ElabContext } from './context.js';
import { operation } from './expressions.js';
import { constructValue } from './library-values.js';
import { unrollLoop } from './loops.js';
import { flatten, readOf } from './places.js';
import { isConcrete } from './types.js';
import { dynamicWrite } from './writes.js';

/**
 * A statement as IR, after the typer has checked it in this instantiation (and elaboration stopped if that
 * found an error): declarations get new slots, writes name their storage, loops are unrolled (loops.ts).
 */
export function elaborateStmt(cx: ElabContext, s: Stmt): IStmt {
  cx.tick();
  cx.at = s.at;
  const declared = cx.scope.typer.statement(s);
  cx.checkpoint();
  const at = s.at;
  switch (s.kind) {
    case 'var': {
      if (!s.init) return cx.internal(at, `variable ${s.name} has no initial value`);
      const init = cx.expr(s.init);
      const slot = cx.slot(s.name, declared && isConcrete(declared) ? declared : cx.concrete(init.type, at));
      cx.scope.slots.set(cx.declared(s), slot);
      return { kind: 'declare', slot, init, at };
    }
    case 'new':
      return constructValue(cx, s, declared ? cx.concrete(declared, at) : cx.internal(at, 'new without a type'));
    case 'assign':
      return assignment(cx, s);
    case 'expr':
      return expressionStatement(cx, s);
    case 'require':
    case 'exit':
      return { kind: s.kind, cond: cx.expr(s.cond), at };
    case 'if':
      return { kind: 'if', cond: cx.expr(s.cond), then: cx.branch(s.then), else: s.else ? cx.branch(s.else) : null, at };
    case 'block':
      return { kind: 'block', body: s.body.map((x) => cx.stmt(x)), at };
    case 'loop':
      return unrollLoop(cx, s);
    case 'codesep':
      return { kind: 'codesep', at };
    case 'asm':
    case 'return':
      return cx.internal(at, `${s.kind} where the front end does not allow it`);
  }
}

/** `x = e`, `x op= e`, or the move of a `new T(…)` temporary into place: at a run-time index, a write per position. */
function assignment(cx: ElabContext, s: Extract<Stmt, { kind: 'assign' }>): IStmt {
  const at = s.at;
  const target = cx.place(s.target) ?? cx.internal(s.target.at, 'an assignment to something that is not storage');
  const flat = flatten(target)!;
  const moved = s.move && s.value.kind === 'ident' ? cx.place(s.value) : null;
  const compute = (current: IExpr): IExpr => {
    if (moved) return { kind: 'take', slot: moved.slot, type: moved.type, at };
    return s.op === '=' ? cx.expr(s.value) : operation(cx, s.op.slice(0, -1), current, s.value, flat.type, at);
  };
  if (flat.dynamic.length) return dynamicWrite(cx, flat, compute, at);
  return { kind: 'assign', place: target, value: compute(readOf(target, s.target.at)), compound: s.op !== '=', at };
}

/** An expression whose value is dropped; `x++;` and `x--;` are steps of their storage. */
function expressionStatement(cx: ElabContext, s: Extract<Stmt, { kind: 'expr' }>): IStmt {
  const at = s.at;
  const e = s.expr;
  if ((e.kind === 'postfix' || e.kind === 'unary') && (e.op === '++' || e.op === '--')) {
    const target = cx.place(e.operand) ?? cx.internal(e.operand.at, 'a write to something that is not storage');
    const flat = flatten(target)!;
    if (flat.dynamic.length) {
      const one: IExpr = { kind: 'const', value: 1n, type: INT, at };
      return dynamicWrite(
        cx,
        flat,
        (current) => ({ kind: 'binary', op: e.op === '++' ? '+' : '-', left: current, right: one, type: flat.type, at }),
        at,
      );
    }
    return { kind: 'step', place: target, op: e.op, at };
  }
  return { kind: 'eval', expr: cx.expr(e), at };
}
