import type { Expr, Stmt } from '../../ast.js';
import type { Position } from '../../diagnostics.js';
import { BOOL, INT, genericsOf, show, type Type } from '../../semantics/model.js';
import type { BuiltValue, IExpr, IStmt, Slot } from '../ir.js';
import type { ElabContext, ObjectType } from './context.js';

/**
 * Library (and contract) values built by their constructors: `new T(…)` in code, a property's own
 * constructor run on the property, and the default value of a property a contract constructor leaves alone.
 * An explicit constructor runs in T's scope with the new value as its `this`.
 */

/** `T x = new T(args)`: the new value in x's slot. */
export function constructValue(cx: ElabContext, s: Extract<Stmt, { kind: 'new' }>, type: Type): IStmt {
  const { stmt, slot } = newValue(cx, s, s.name, type);
  cx.scope.slots.set(cx.declared(s), slot);
  return stmt;
}

/** `new T(args)` as a value: built in a temporary, whose leaves are then taken as the value, in place. */
export function constructedValue(cx: ElabContext, e: Extract<Expr, { kind: 'new' }>, type: Type): IExpr {
  const { stmt, slot } = newValue(cx, e, `new ${show(type)}`, type);
  return { kind: 'sequence', body: [stmt], result: { kind: 'take', slot, type, at: e.at }, type, at: e.at };
}

/** A new value in a new slot: the properties from the arguments, or the explicit constructor run on it. */
function newValue(cx: ElabContext, s: { at: Position; args: Expr[] }, name: string, type: Type): { stmt: IStmt; slot: Slot } {
  if (type.k !== 'object') return cx.internal(s.at, `new of ${show(type)}`);
  const slot = cx.slot(name, type);
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
  return { stmt: result, slot };
}

/**
 * The library values with an explicit constructor within a value that comes from constructor arguments
 * (`slot`, named as scryptlib names the argument), at any depth of implicit-constructor libraries, structs
 * and arrays, in leaf order; each is run on its own placeholder arguments (`name.ctor.param`), which may
 * hold such values in turn (those are added to `out` too).
 */
export function builtWithin(cx: ElabContext, slot: Slot, out: BuiltValue[], type = slot.type, offset = 0, name = slot.name): void {
  if (!holdsBuilt(cx, type)) return; // most values: nothing to visit leaf by leaf
  if (type.k === 'object' && type.decl.ctor) return void out.push(builtAt(cx, slot, type, offset, name, out));
  if (type.k === 'array' && type.size !== null) {
    const stride = cx.layout.size(type.elem);
    for (let i = 0; i < Number(type.size); i++) builtWithin(cx, slot, out, type.elem, offset + i * stride, `${name}[${i}]`);
    return;
  }
  for (const f of cx.layout.fields(type) ?? []) {
    const at = cx.layout.field(type, f.name)!;
    builtWithin(cx, slot, out, f.type, offset + at.offset, `${name}.${f.name}`);
  }
}

/** Whether a value of the type is, or holds, a library value with an explicit constructor. */
function holdsBuilt(cx: ElabContext, type: Type): boolean {
  if (type.k === 'object' && type.decl.ctor) return true;
  if (type.k === 'array') return holdsBuilt(cx, type.elem);
  return (cx.layout.fields(type) ?? []).some((f) => holdsBuilt(cx, f.type));
}

/** One such value: its constructor, run on it where it stands, with placeholder arguments. */
function builtAt(cx: ElabContext, slot: Slot, type: ObjectType, offset: number, name: string, out: BuiltValue[]): BuiltValue {
  const decl = type.decl;
  const inner = cx.newScope(decl, genericsOf(decl, type.args), null, { kind: 'value', slot, offset, type }, false);
  return cx.within(inner, () => {
    const params = decl.ctor!.params.map((p) => {
      const ps = cx.bindParam(p);
      ps.name = `${name}.ctor.${p.name}`; // scryptlib's name for the argument
      builtWithin(cx, ps, out);
      return ps;
    });
    return { slot, offset, type, params, body: decl.ctor!.body.map((x) => cx.stmt(x)) };
  });
}

/**
 * `this.p = new T(defaults…)` for a library-valued property the constructor does not set; `offset` and
 * `name` place it inside a property (an element of an array of such values, a field of a struct).
 */
export function defaultBuilt(cx: ElabContext, property: Slot, type: ObjectType, offset = 0, name = property.name): IStmt {
  const at = type.decl.at;
  const tmp = cx.slot(`__default_${name}`, type);
  const inner = cx.newScope(type.decl, genericsOf(type.decl, type.args), null, { kind: 'value', slot: tmp, offset: 0, type }, false);
  return cx.within(inner, (): IStmt => {
    const params = type.decl.ctor!.params.map((p) => {
      const slot = cx.bindParam(p);
      return { slot, arg: defaultValue(cx, slot.type, at) };
    });
    const body = type.decl.ctor!.body.map((x) => cx.stmt(x));
    const construct: IStmt = { kind: 'construct', slot: tmp, params, body, at };
    const place = { slot: property, type, offset, dynamic: [] };
    const move: IStmt = { kind: 'assign', place, value: { kind: 'take', slot: tmp, type, at }, compound: false, at };
    return { kind: 'block', body: [construct, move], at };
  });
}

/**
 * The default values of the library values with an explicit constructor inside a property the contract
 * constructor does not set as a whole (an array of them, a struct or implicit-constructor library holding
 * them), leaf by leaf like builtWithin: each is built by its own constructor from default arguments, as a
 * single such property is (defaultBuilt), where it stands.
 */
export function defaultBuiltWithin(
  cx: ElabContext,
  property: Slot,
  out: IStmt[],
  type = property.type,
  offset = 0,
  name = property.name,
): void {
  if (!holdsBuilt(cx, type)) return;
  if (type.k === 'object' && type.decl.ctor) return void out.push(defaultBuilt(cx, property, type, offset, name));
  if (type.k === 'array' && type.size !== null) {
    const stride = cx.layout.size(type.elem);
    for (let i = 0; i < Number(type.size); i++) defaultBuiltWithin(cx, property, out, type.elem, offset + i * stride, `${name}[${i}]`);
    return;
  }
  for (const f of cx.layout.fields(type) ?? []) {
    const at = cx.layout.field(type, f.name)!;
    defaultBuiltWithin(cx, property, out, f.type, offset + at.offset, `${name}.${f.name}`);
  }
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
