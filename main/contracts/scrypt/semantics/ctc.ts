import type { ContractLike, Expr, Stmt, TypeRef } from '../ast.js';
import type { Diagnostics } from '../diagnostics.js';
import { BUILTINS } from './builtins.js';
import { bodiesOf, calleeName, constValue, eachExpr, eachStmt, startOf, stmtExprs, type Facts } from './model.js';

/** Array sizes above this are rejected: the flattened array would not fit any script. */
export const MAX_ARRAY_SIZE = 1_000_000n;

/**
 * Pass 3, compile-time constants (ctc.rst). A compile-time constant is a literal, a loop induction
 * variable, a `static const` property or file-level constant initialised with a literal, or a
 * `static const` parameter. Only those are allowed as:
 * - a loop count (`loop (N)`), which must not be negative;
 * - an array size (`int[N]`), which must be from 1 to MAX_ARRAY_SIZE;
 * - an array index in a write (`a[i] = …`, `a[i] += …`, `a[i]++`);
 * - the argument of a `static const` parameter (user functions, `reverseBytes`, `repeat`).
 */
export function checkConstants(facts: Facts, diags: Diagnostics): void {
  let owner: ContractLike | null = null;
  const ctc = (e: Expr) => constValue(e, facts, owner);

  const type = (ref: TypeRef) => {
    for (const d of ref.dims) {
      const v = ctc(d);
      if (!v) diags.error(startOf(d), 'an array size must be a compile-time constant (a literal, a static const initialised with a literal, a static const parameter or a loop variable)');
      else if (v.value !== null && v.value < 1n) diags.error(startOf(d), `an array size must be greater than zero, not ${v.value}`);
      else if (v.value !== null && v.value > MAX_ARRAY_SIZE) diags.error(startOf(d), `the array size ${v.value} is too large (at most ${MAX_ARRAY_SIZE})`);
    }
    ref.generics.forEach(type);
  };

  const writeIndices = (target: Expr) => {
    for (let t = target; ; ) {
      if (t.kind === 'index') {
        if (!ctc(t.index)) diags.error(startOf(t.index), 'an array index that is written must be a compile-time constant');
        t = t.object;
      } else if (t.kind === 'member' && t.object.kind !== 'this') t = t.object;
      else break;
    }
  };

  const expr = (root: Expr) =>
    eachExpr(root, (e) => {
      if ((e.kind === 'unary' || e.kind === 'postfix') && (e.op === '++' || e.op === '--')) writeIndices(e.operand);
      if (e.kind !== 'call') return;
      const target = facts.calls.get(e);
      const builtin = e.callee.kind === 'ident' && !target ? BUILTINS[e.callee.name] : undefined;
      e.args.forEach((a, i) => {
        const needsCtc = target ? target.fn.params[i]?.isStaticConst : builtin?.params[i] === 'ctc';
        if (needsCtc && !ctc(a)) {
          const pname = target ? target.fn.params[i].name : 'size';
          diags.error(startOf(a), `argument ${i + 1} of ${calleeName(e.callee)}() (static const ${pname}) must be a compile-time constant`);
        }
      });
    });

  const stmt = (root: Stmt) =>
    eachStmt(root, (s) => {
      if (s.kind === 'var' && s.type !== 'auto') type(s.type);
      if (s.kind === 'new') type(s.type);
      if (s.kind === 'assign') writeIndices(s.target);
      if (s.kind === 'loop') {
        const v = ctc(s.count);
        if (!v) diags.error(startOf(s.count), 'the loop count must be a compile-time constant (a literal, a static const initialised with a literal, a static const parameter or a loop variable)');
        else if (v.value !== null && v.value < 0n) diags.error(startOf(s.count), `the loop count must not be negative, not ${v.value}`);
      }
      stmtExprs(s).forEach(expr);
    });

  for (const item of facts.env.program.items) {
    owner = null;
    switch (item.kind) {
      case 'struct':
        item.fields.forEach((f) => type(f.type));
        break;
      case 'alias':
        type(item.type);
        break;
      case 'const':
        type(item.type);
        expr(item.value);
        break;
      default: {
        owner = item;
        for (const p of item.properties) {
          type(p.type);
          if (p.init) expr(p.init);
        }
        for (const params of [item.ctor?.params ?? [], ...item.functions.map((f) => f.params)]) params.forEach((p) => type(p.type));
        for (const f of item.functions) if (f.returnType) type(f.returnType);
        for (const { body } of bodiesOf(item)) body.forEach(stmt);
      }
    }
  }
}
