import type { Expr } from '../../ast.js';
import type { Position } from '../../diagnostics.js';
import { evaluate, intValue } from '../../semantics/constants.js';
import { familyOf } from '../../semantics/layout.js';
import { BOOL, show, type Type } from '../../semantics/model.js';
import type { IExpr, Place } from '../ir.js';
import { elaborateCall } from './calls.js';
import { constructedValue } from './library-values.js';
import type { ElabContext } from './context.js';
import { checkInBounds, readOf, writable } from './places.js';

/**
 * An expression as an IR value with a concrete type: storage is read, named constants become their
 * values, calls are inlined (calls.ts), a field or element of a computed value is narrowed out of it.
 */
export function elaborateExpr(cx: ElabContext, e: Expr): IExpr {
  cx.tick();
  const at = e.at;
  switch (e.kind) {
    case 'int':
    case 'bool':
      return { kind: 'const', value: e.value, type: cx.typeOf(e), at };
    case 'bytes':
      return { kind: 'const', value: e.hex, type: cx.typeOf(e), at };
    case 'string':
      return { kind: 'const', value: Buffer.from(e.value, 'utf8').toString('hex'), type: cx.typeOf(e), at };
    case 'ident':
    case 'member': {
      const place = cx.place(e);
      if (place) return readOf(place, at);
      const v = evaluate(e, cx.constScope());
      if (v) return { kind: 'const', value: v.value, type: cx.typeOf(e), at };
      if (e.kind === 'ident') return cx.internal(at, `unknown name ${e.name}`);
      // A field of a computed value (a struct a function returned): computed whole, the field kept.
      const object = cx.expr(e.object);
      const f = cx.layout.field(object.type, e.name) ?? cx.internal(at, `${show(object.type)} has no field ${e.name}`);
      return { kind: 'narrow', object, start: f.offset, count: cx.layout.size(f.type), type: f.type, at };
    }
    case 'this': {
      // A library's own value (a contract's `this` is refused as a value by the symbols pass).
      const self = cx.scope.self;
      if (self?.kind !== 'value') return cx.internal(at, "'this' as a value");
      return readOf({ slot: self.slot, type: self.type, offset: self.offset, dynamic: [] }, at);
    }
    case 'call':
      return elaborateCall(cx, e);
    case 'unary':
    case 'postfix': {
      if (e.op === '++' || e.op === '--') {
        const place = writable(cx, e.operand);
        return { kind: 'step', place, op: e.op, prefix: e.kind === 'unary', type: place.type, at };
      }
      // A negative literal is one minimal push (-1 is OP_1NEGATE), as the official compiler writes it.
      if (e.op === '-' && e.operand.kind === 'int') return { kind: 'const', value: -e.operand.value, type: cx.typeOf(e), at };
      return { kind: 'unary', op: e.op, operand: cx.expr(e.operand), type: cx.typeOf(e), at };
    }
    case 'binary': {
      if (e.op === '&&' || e.op === '||')
        return { kind: 'logic', op: e.op, left: cx.expr(e.left), right: cx.expr(e.right), type: BOOL, at };
      const left = cx.expr(e.left);
      if ((e.op === '==' || e.op === '!=') && !familyOf(left.type))
        return { kind: 'compare', op: e.op, left, right: cx.expr(e.right), type: BOOL, at };
      return operation(cx, e.op, left, e.right, cx.typeOf(e), at);
    }
    case 'ternary': {
      const cond = cx.expr(e.cond);
      const then = cx.expr(e.then);
      const other = cx.expr(e.else);
      return { kind: 'ternary', cond, then, else: other, type: cx.typeOf(e, then), at };
    }
    case 'index':
      return elementOf(cx, e);
    case 'slice':
      return {
        kind: 'slice',
        object: cx.expr(e.object),
        start: e.start ? cx.expr(e.start) : null,
        end: e.end ? cx.expr(e.end) : null,
        type: cx.typeOf(e),
        at,
      };
    case 'array': {
      const parts = e.items.map((x) => cx.expr(x));
      const type: Type = cx.knownType(e) ?? { k: 'array', elem: parts[0].type, size: BigInt(parts.length) };
      return { kind: 'composite', parts, type, at };
    }
    case 'structLit':
      return { kind: 'composite', parts: e.fields.map((x) => cx.expr(x)), type: cx.typeOf(e), at };
    case 'new':
      return constructedValue(cx, e, cx.typeOf(e));
  }
}

/**
 * `a[i]`: read from storage; a computed array (a function's result, a literal) narrowed to the element at a
 * constant index, or kept in a temporary and read there at a run-time index (checked in bounds as any).
 */
function elementOf(cx: ElabContext, e: Extract<Expr, { kind: 'index' }>): IExpr {
  const at = e.at;
  const place = cx.place(e);
  if (place) return readOf(place, at);
  const object = cx.expr(e.object);
  const t = object.type;
  if (t.k !== 'array' || t.size === null) return cx.internal(at, `indexing ${show(t)}`);
  const known = intValue(e.index, cx.constScope());
  if (known === null) {
    const slot = cx.slot('a computed array', t);
    const stride = cx.layout.size(t.elem);
    const element: Place = { slot, type: t.elem, offset: 0, dynamic: [{ index: cx.expr(e.index), size: Number(t.size), stride }] };
    return { kind: 'sequence', body: [{ kind: 'declare', slot, init: object, at }], result: readOf(element, at), type: t.elem, at };
  }
  const k = known;
  checkInBounds(cx, k, t, e.index.at);
  const stride = cx.layout.size(t.elem);
  return { kind: 'narrow', object, start: Number(k) * stride, count: stride, type: t.elem, at };
}

/**
 * `left op right` on scalars. An int shift is a multiplication or division by 2ⁿ: by a constant when the
 * count is known here, else by 2ⁿ computed when the script runs (the typing rules refused negative constants).
 */
export function operation(cx: ElabContext, op: string, left: IExpr, right: Expr, type: Type, at: Position): IExpr {
  if ((op === '<<' || op === '>>') && familyOf(left.type) === 'int') {
    const n = intValue(right, cx.constScope());
    if (n !== null && n < 0n) return cx.internal(right.at, 'a negative int shift count');
    return { kind: 'shift', op, left, count: n ?? cx.expr(right), type, at };
  }
  return { kind: 'binary', op, left, right: cx.expr(right), type, at };
}
