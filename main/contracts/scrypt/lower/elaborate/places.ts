import type { Expr } from '../../ast.js';
import type { Position } from '../../diagnostics.js';
import { constLeaves, constRef, intValue, isStackConstant, type ConstRef } from '../../semantics/constants.js';
import { show, type Type } from '../../semantics/model.js';
import type { IExpr, Place, Slot } from '../ir.js';
import type { ElabContext } from './context.js';

/** A slot's whole value as storage. */
export function wholeOf(slot: Slot): Place {
  return { slot, type: slot.type, offset: 0, dynamic: [] };
}

export function readOf(place: Place, at: Position): IExpr {
  return { kind: 'read', place, type: place.type, at };
}

/**
 * The storage an expression names, or null when it is a value (a constant, a computed result): a
 * variable's or property's slot, a field of one (leaves into it), an element of an array at a constant
 * index (an offset) or a run-time one (kept as an index to test), a constant kept on the stack.
 */
export function placeOf(cx: ElabContext, e: Expr): Place | null {
  const ref = constRef(e, cx.constScope());
  if (ref) return isStackConstant(ref.decl) ? wholeOf(stackConstant(cx, ref)) : null;
  if (e.kind === 'ident') {
    const sym = cx.facts.idents.get(e);
    if (!sym || sym.kind === 'const' || sym.kind === 'induction' || sym.kind === 'staticParam') return null;
    const slot = cx.scope.slots.get(sym);
    return slot ? wholeOf(slot) : cx.internal(e.at, `no slot for ${e.name}`);
  }
  if (e.kind === 'member') return memberPlace(cx, e);
  if (e.kind === 'index') return elementPlace(cx, e);
  return null;
}

function memberPlace(cx: ElabContext, e: Extract<Expr, { kind: 'member' }>): Place | null {
  if (e.object.kind === 'this') {
    const self = cx.scope.self;
    if (!self) return null;
    if (self.kind === 'contract') {
      const slot = cx.props.get(e.name);
      return slot ? wholeOf(slot) : null;
    }
    const f = cx.layout.field(self.type, e.name);
    return f ? { slot: self.slot, type: f.type, offset: self.offset + f.offset, dynamic: [] } : null;
  }
  if (e.object.kind === 'ident' && !cx.facts.idents.has(e.object)) return null; // Owner.CONSTANT
  const base = cx.place(e.object);
  if (!base) return null;
  const f = cx.layout.field(base.type, e.name) ?? cx.internal(e.at, `${show(base.type)} has no field ${e.name}`);
  const element = base.element && { ...base.element, within: base.element.within + f.offset };
  return { ...base, type: f.type, offset: base.offset + f.offset, element };
}

function elementPlace(cx: ElabContext, e: Extract<Expr, { kind: 'index' }>): Place | null {
  const base = flatten(cx.place(e.object));
  if (!base) return null;
  const t = base.type;
  if (t.k !== 'array' || t.size === null) return cx.internal(e.at, `indexing ${show(t)}`);
  const stride = cx.layout.size(t.elem);
  const size = Number(t.size);
  let k = intValue(e.index, cx.constScope());
  // The index as written, not folded (i * 10 + 1 stays arithmetic on the loop's value), as the official
  // compiler emits it; its value, where known, places constant-index writes.
  let index: IExpr = cx.expr(e.index);
  if (k !== null && (k < 0n || k >= t.size)) {
    // An index out of bounds is an error when it is known without loop variables; one computed from a
    // loop variable (headers[i - 1] in the first iteration) may sit in a branch that never runs there: it
    // is checked at run time instead.
    if (intValue(e.index, { facts: cx.facts, owner: cx.scope.owner }) !== null) checkInBounds(cx, k, t, e.index.at);
    k = null;
    index = { ...index };
  }
  if (base.dynamic.length) {
    if (k !== null) return { ...base, type: t.elem, offset: base.offset + Number(k) * stride };
    return { ...base, type: t.elem, dynamic: [...base.dynamic, { index, size, stride }] };
  }
  const offset = base.offset + (k !== null ? Number(k) * stride : 0);
  const property = [...cx.props.values()].includes(base.slot);
  const element = { index, size, stride, start: base.offset, within: 0, constant: k !== null, property };
  return { ...base, type: t.elem, offset, element };
}

/** A place as plain storage: its element index folded into the offset (constant) or the run-time indices. */
export function flatten(p: Place | null): Place | null {
  if (!p?.element) return p;
  const { element, ...rest } = p;
  if (element.constant) return rest;
  return { ...rest, dynamic: [{ index: element.index, size: element.size, stride: element.stride }] };
}

/** Storage written (and read first, for x++ and x += e): a run-time index is not supported here. */
export function writable(cx: ElabContext, e: Expr): Place {
  const place = cx.place(e) ?? cx.internal(e.at, 'a write to something that is not storage');
  if (flatten(place)!.dynamic.length) cx.internal(e.at, 'a write at a run-time index');
  return place;
}

export function checkInBounds(cx: ElabContext, k: bigint, t: Extract<Type, { k: 'array' }>, at: Position): void {
  if (k < 0n || k >= t.size!) cx.fail(at, `index ${k} is out of bounds for ${show(t)}`);
}

/** The slot of a constant kept on the stack, registered the first time code reads it. */
function stackConstant(cx: ElabContext, ref: ConstRef): Slot {
  const known = cx.constants.slotOf(ref.decl);
  if (known) return known;
  const init = 'value' in ref.decl ? ref.decl.value : ref.decl.init;
  const scope = cx.newScope(ref.owner ?? cx.lowering.main, new Map(), null, null, false);
  const type = cx.within(scope, () => cx.resolve(ref.decl.type, ref.decl.at));
  const leaves = init && constLeaves(init, { facts: cx.facts, owner: ref.owner });
  if (!leaves || leaves.length !== cx.layout.size(type))
    return cx.internal(ref.decl.at, `the value of ${ref.decl.name} is not a constant of its type`);
  const slot = cx.slot(ref.decl.name, type);
  cx.constants.add(
    ref.decl,
    slot,
    leaves.map((l) => l.value),
  );
  return slot;
}
