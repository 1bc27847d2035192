import type { Stmt } from '../../ast.js';
import type { Position } from '../../diagnostics.js';
import { BOOL, INT, genericsOf, show, type Type } from '../../semantics/model.js';
import type { ContractIR, IExpr, IStmt, Slot } from '../ir.js';
import type { ElabContext, ObjectType } from './context.js';

/**
 * Library (and contract) values built by their constructors: `new T(…)` in code, a property's own
 * constructor run on the property, and the default value of a property a contract constructor leaves alone.
 * An explicit constructor runs in T's scope with the new value as its `this`.
 */

/** `T x = new T(args)`: the properties from the arguments, or the explicit constructor run on the new value. */
export function constructValue(cx: ElabContext, s: Extract<Stmt, { kind: 'new' }>, type: Type): IStmt {
  if (type.k !== 'object') return cx.internal(s.at, `new of ${show(type)}`);
  const slot = cx.slot(s.name, type);
  const decl = type.decl;
  let result: IStmt;
  if (!decl.ctor) {
    // The implicit constructor: the arguments are the value; the official compiler marks the (empty)
    // constructor body with two OP_NOPs.
    const parts = s.args.map((a) => cx.expr(a));
    result = { kind: 'construct', slot, params: [], body: [], values: parts, at: s.at };
  } else {
    const ctor = decl.ctor;
    const inner = cx.newScope(decl, genericsOf(decl, type.args), null, { kind: 'value', slot, offset: 0, type }, false);
    const params = ctor.params.map((p, i) => {
      const arg = cx.expr(s.args[i]);
      const ps = cx.within(inner, () => cx.bindParam(p));
      return { slot: ps, arg };
    });
    const body = cx.within(inner, () => ctor.body.map((x) => cx.stmt(x)));
    result = { kind: 'construct', slot, params, body, at: s.at };
  }
  cx.scope.slots.set(cx.declared(s), slot);
  return result;
}

/** A library-valued property's explicit constructor, run on the property with placeholder arguments. */
export function builtProperty(cx: ElabContext, slot: Slot, type: ObjectType): ContractIR['built'][number] {
  const decl = type.decl;
  const inner = cx.newScope(decl, genericsOf(decl, type.args), null, { kind: 'value', slot, offset: 0, type }, false);
  return cx.within(inner, () => {
    const params = decl.ctor!.params.map((p) => {
      const ps = cx.bindParam(p);
      ps.name = `${slot.name}.ctor.${p.name}`; // scryptlib's name for the argument
      return ps;
    });
    return { slot, params, body: decl.ctor!.body.map((x) => cx.stmt(x)) };
  });
}

/** `this.p = new T(defaults…)` for a library-valued property the constructor does not set. */
export function defaultBuilt(cx: ElabContext, property: Slot, type: ObjectType): IStmt {
  const at = type.decl.at;
  const tmp = cx.slot(`__default_${property.name}`, type);
  const inner = cx.newScope(type.decl, genericsOf(type.decl, type.args), null, { kind: 'value', slot: tmp, offset: 0, type }, false);
  return cx.within(inner, (): IStmt => {
    const params = type.decl.ctor!.params.map((p) => {
      const slot = cx.bindParam(p);
      return { slot, arg: defaultValue(cx, slot.type, at) };
    });
    const body = type.decl.ctor!.body.map((x) => cx.stmt(x));
    const construct: IStmt = { kind: 'construct', slot: tmp, params, body, at };
    const place = { slot: property, type, offset: 0, dynamic: [] };
    const move: IStmt = { kind: 'assign', place, value: { kind: 'take', slot: tmp, type, at }, compound: false, at };
    return { kind: 'block', body: [construct, move], at };
  });
}

/** A type's default value: 0, false, b'', and those leaf by leaf for structs and arrays. */
function defaultValue(cx: ElabContext, type: Type, at: Position): IExpr {
  if (type.k === 'int') return { kind: 'const', value: 0n, type, at };
  if (type.k === 'bool') return { kind: 'const', value: false, type, at };
  if (type.k === 'bytes') return { kind: 'const', value: '', type, at };
  const parts = cx.layout.leaves(type).map((l): IExpr => {
    if (l.family === 'int') return { kind: 'const', value: 0n, type: INT, at };
    if (l.family === 'bool') return { kind: 'const', value: false, type: BOOL, at };
    return { kind: 'const', value: '', type: { k: 'bytes', name: 'bytes' }, at };
  });
  return { kind: 'composite', parts, type, at };
}
