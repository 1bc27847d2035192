import type { ContractLike, Expr, Stmt, TypeRef } from '../ast.js';
import type { Diagnostics } from '../diagnostics.js';
import { BUILTINS, MAX_UNROLL } from './builtins.js';
import { constLeaves, constRef, evaluate, intValue, isConstant, isStackConstant } from './constants.js';
import { calleeName, constValue, eachExpr, eachStmt, startOf, stmtExprs, walkProgram, type Facts } from './model.js';

/** Array sizes above this are rejected: the flattened array would not fit any script. */
export const MAX_ARRAY_SIZE = 1_000_000n;

/**
 * Pass 4, compile-time constants (ctc.rst). A compile-time constant is a literal, a loop induction
 * variable, a `static const` property or file-level constant initialised with a literal, or a
 * `static const` parameter. Only those are allowed as:
 * - a loop count (`loop (N)`), which must not be negative;
 * - an array size (`int[N]`), which must be from 1 to MAX_ARRAY_SIZE;
 * - an array index written by `++`/`--` inside an expression (an assignment or a `a[i]++;` statement
 *   may use a run-time index);
 * - the argument of a `static const` parameter (user functions, `reverseBytes`, `repeat`);
 * - an index into an array that is computed rather than stored (`f()[1]`): the element is picked out at
 *   compile time.
 * Also: the value of every `static const` must be computable at compile time (literals, other constants,
 * arithmetic, conversions); loop counts, `reverseBytes` sizes and `repeat` sizes are at most MAX_UNROLL
 * (each iteration or item costs script); a library function called on a stored value reaches it without
 * a run-time index (its `this` is that value's stack slots; a computed value's is a temporary's).
 */
export function checkConstants(facts: Facts, diags: Diagnostics): void {
  let owner: ContractLike | null = null;
  const ctc = (e: Expr) => constValue(e, facts, owner);

  const type = (ref: TypeRef) => {
    for (const d of ref.dims) {
      const v = ctc(d);
      if (!v)
        diags.error(
          startOf(d),
          'an array size must be a compile-time constant (a literal, a static const initialised with a literal, a static const parameter or a loop variable)',
        );
      else if (v.value !== null && v.value < 1n) diags.error(startOf(d), `an array size must be greater than zero, not ${v.value}`);
      else if (v.value !== null && v.value > MAX_ARRAY_SIZE)
        diags.error(startOf(d), `the array size ${v.value} is too large (at most ${MAX_ARRAY_SIZE})`);
    }
    ref.generics.forEach(type);
  };

  const writeIndices = (target: Expr) => {
    for (let t = target; ;) {
      if (t.kind === 'index') {
        if (!ctc(t.index)) diags.error(startOf(t.index), 'an array index that is written must be a compile-time constant');
        t = t.object;
      } else if (t.kind === 'member' && t.object.kind !== 'this') t = t.object;
      else break;
    }
  };

  const scope = () => ({ facts, owner });

  /** A value in a range, where it is known here (a static const parameter's is known once lowered). */
  const inRange = (e: Expr, min: bigint, what: string) => {
    const v = intValue(e, scope());
    if (v !== null && (v < min || v > MAX_UNROLL)) diags.error(startOf(e), `${what} must be from ${min} to ${MAX_UNROLL}, not ${v}`);
  };

  /** Whether an expression names storage (a variable, property, field or element of one) rather than computing a value. */
  const stored = (e: Expr): boolean => {
    const ref = constRef(e, scope());
    if (ref) return isStackConstant(ref.decl); // picked from the bottom of the stack, like a variable
    if (e.kind === 'ident') return facts.idents.has(e);
    if (e.kind === 'member') {
      if (e.object.kind === 'this') return !!owner?.properties.some((p) => p.name === e.name && !p.isStatic);
      return stored(e.object);
    }
    if (e.kind === 'index') return stored(e.object);
    return false;
  };

  /** A stored value reached without run-time indices. */
  const fixedPlace = (e: Expr): boolean => {
    if (e.kind === 'index') return isConstant(e.index, scope()) && fixedPlace(e.object);
    if (e.kind === 'member' && e.object.kind !== 'this') return fixedPlace(e.object);
    return stored(e);
  };

  /** `x++;` as a statement: like an assignment, it may write at a run-time index. */
  const statementSteps = new Set<Expr>();
  const expr = (root: Expr) =>
    eachExpr(root, (e) => {
      if ((e.kind === 'unary' || e.kind === 'postfix') && (e.op === '++' || e.op === '--') && !statementSteps.has(e))
        writeIndices(e.operand);
      if (e.kind !== 'call') return;
      const target = facts.calls.get(e);
      const builtin = e.callee.kind === 'ident' && !target ? BUILTINS[e.callee.name] : undefined;
      e.args.forEach((a, i) => {
        const needsCtc = target ? target.fn.params[i]?.isStaticConst : builtin?.params[i] === 'ctc';
        if (needsCtc && !ctc(a)) {
          const pname = target ? target.fn.params[i].name : 'size';
          diags.error(startOf(a), `argument ${i + 1} of ${calleeName(e.callee)}() (static const ${pname}) must be a compile-time constant`);
        } else if (needsCtc && builtin)
          inRange(a, e.callee.kind === 'ident' && e.callee.name === 'repeat' ? 1n : 0n, `the size of ${calleeName(e.callee)}()`);
      });
      const object = e.callee.kind === 'member' ? e.callee.object : null;
      const onValue = object && object.kind !== 'this' && !(object.kind === 'ident' && !facts.idents.has(object));
      // A computed value (`L.mk(x).get()`, `new L(x).get()`) is kept in a temporary for the call; a stored
      // one is the method's `this` in place, so its changes stay, and a run-time index cannot say where.
      if (target && onValue && !target.fn.isStatic && stored(object) && !fixedPlace(object)) {
        diags.error(
          startOf(object),
          `${calleeName(e.callee)}() is called on a ${target.owner.name} value, which must be a variable, property or field reached with compile-time constant indices`,
        );
      }
    });

  const stmt = (root: Stmt) =>
    eachStmt(root, (s) => {
      if (s.kind === 'var' && s.type !== 'auto') type(s.type);
      if (s.kind === 'new') type(s.type);
      // An assignment may write at run-time indices (each position is tested); ++ and -- inside an expression may not.
      if (s.kind === 'expr' && (s.expr.kind === 'unary' || s.expr.kind === 'postfix') && (s.expr.op === '++' || s.expr.op === '--'))
        statementSteps.add(s.expr);
      if (s.kind === 'loop') {
        const v = ctc(s.count);
        if (!v)
          diags.error(
            startOf(s.count),
            'the loop count must be a compile-time constant (a literal, a static const initialised with a literal, a static const parameter or a loop variable)',
          );
        else if (v.value !== null && v.value < 0n) diags.error(startOf(s.count), `the loop count must not be negative, not ${v.value}`);
        else if (v.value !== null && v.value > MAX_UNROLL)
          diags.error(
            startOf(s.count),
            `the loop count must be at most ${MAX_UNROLL} (each iteration is a copy of the body), not ${v.value}`,
          );
      }
      stmtExprs(s).forEach(expr);
    });

  walkProgram(facts.env.program, {
    enter: (item) => (owner = item),
    type,
    expr,
    stmt,
    constant: (decl) => {
      const init = 'value' in decl ? decl.value : decl.init!;
      if (!evaluate(init, scope()) && !constLeaves(init, scope()))
        diags.error(
          startOf(init),
          `the value of ${'value' in decl ? 'the constant' : 'static const'} ${decl.name} must be computable at compile time`,
        );
    },
  });
}
