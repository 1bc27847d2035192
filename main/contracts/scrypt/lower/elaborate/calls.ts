import type { ContractLike, Expr, Func } from '../../ast.js';
import { readAsm, type AsmConstant, type AsmRead } from '../../semantics/asm.js';
import { BUILTINS, MAX_UNROLL } from '../../semantics/builtins.js';
import { evaluate, intValue, namedInt } from '../../semantics/constants.js';
import { BOOL, genericsOf, type Type } from '../../semantics/model.js';
import type { Frame, IExpr } from '../ir.js';
import type { ElabContext, Self } from './context.js';
import { flatten } from './places.js';
import { writtenTypeArgs } from '../../semantics/symbols.js';

type Call = Extract<Expr, { kind: 'call' }>;

/** A call: a user function (inlined), a built-in of the built-ins table, or a conversion. */
export function elaborateCall(cx: ElabContext, e: Call): IExpr {
  const target = cx.facts.calls.get(e);
  if (target) return userCall(cx, e, target.owner, target.fn);
  const name = e.callee.kind === 'ident' ? e.callee.name : '';
  if (BUILTINS[name]) return builtinCall(cx, e, name);
  if (e.args.length !== 1) return cx.internal(e.at, `a call of ${name}`);
  return { kind: 'convert', operand: cx.expr(e.args[0]), type: cx.typeOf(e), at: e.at };
}

/** A built-in: its compile-time size arguments (`ctc`) become values in range, the others are elaborated. */
function builtinCall(cx: ElabContext, e: Call, name: string): IExpr {
  const builtin = BUILTINS[name];
  const args: IExpr[] = [];
  const sizes: bigint[] = [];
  e.args.forEach((a, i) => {
    if (builtin.params[i] !== 'ctc') return void args.push(cx.expr(a));
    const n = intValue(a, cx.constScope()) ?? cx.internal(a.at, `a size of ${name}() that is not known`);
    const min = name === 'repeat' ? 1n : 0n;
    if (n < min || n > MAX_UNROLL) cx.fail(a.at, `the size of ${name}() must be from ${min} to ${MAX_UNROLL}, not ${n}`);
    sizes.push(n);
  });
  const type = name === 'repeat' ? { k: 'array' as const, elem: args[0].type, size: sizes[0] } : cx.typeOf(e);
  return { kind: 'builtin', name, args, sizes, type, at: e.at };
}

/** A user function, inlined: in its owner's scope, with its `this` and its type arguments. */
function userCall(cx: ElabContext, e: Call, owner: ContractLike, fn: Func): IExpr {
  const callee = e.callee;
  let self: Self | null = null;
  // A static function of a generic library called inside that library takes the caller's type arguments
  // (as the typer types it); from outside, the symbols pass refuses one that names its type parameters.
  const written = writtenTypeArgs(callee);
  let generics = written
    ? new Map(owner.generics.map((g, i) => [g, cx.resolve(written[i], callee.at)]))
    : owner === cx.scope.owner
      ? cx.scope.generics
      : genericsOf(owner);
  if (!fn.isStatic) {
    if (callee.kind === 'ident' || (callee.kind === 'member' && callee.object.kind === 'this')) {
      self = cx.scope.self;
      generics = cx.scope.generics;
    } else if (callee.kind === 'member') {
      const place = flatten(cx.place(callee.object));
      if (!place) return onComputedValue(cx, e, owner, fn, callee.object);
      if (place.dynamic.length || place.type.k !== 'object')
        return cx.internal(callee.at, `${fn.name}() on a value that is not fixed storage`);
      self = { kind: 'value', slot: place.slot, offset: place.offset, type: place.type };
      generics = genericsOf(place.type.decl, place.type.args);
    }
  }
  return inline(cx, e, owner, fn, generics, self);
}

/**
 * `L.mk(x).get()`, `new L(x).get()`: the value is computed into a temporary, which is the method's `this`
 * (what the method changes in it is dropped with it), and removed from under the result.
 */
function onComputedValue(cx: ElabContext, e: Call, owner: ContractLike, fn: Func, object: Expr): IExpr {
  const value = cx.expr(object);
  const type = cx.typeOf(object, value);
  if (type.k !== 'object') return cx.internal(object.at, `${fn.name}() on a value that is not a library value`);
  const slot = cx.slot(`${fn.name}'s this`, type);
  const call = inline(cx, e, owner, fn, genericsOf(type.decl, type.args), { kind: 'value', slot, offset: 0, type });
  return { kind: 'sequence', body: [{ kind: 'declare', slot, init: value, at: object.at }], result: call, type: call.type, at: e.at };
}

/**
 * A function written in asm, read once however often it is called: an EC library calls its asm modular
 * inverse hundreds of times from unrolled loops, and each call's tokens are the same (code generation only
 * reads them), so they are shared rather than thousands of new tokens per call. A reading is reused while
 * the constants its loop counts named still have the values it was read with.
 */
const asmRead = new WeakMap<Func, { prefix: string; read: AsmRead }>();

function asmOf(fn: Func, text: string, prefix: string, constant: AsmConstant): AsmRead {
  const known = asmRead.get(fn);
  if (known && known.prefix === prefix && ('error' in known.read || known.read.constants.every(([n, v]) => constant(n) === v)))
    return known.read;
  const read = readAsm(text, prefix, constant);
  asmRead.set(fn, { prefix, read });
  return read;
}

/**
 * The function's body elaborated in a scope of its own: the arguments bind the parameters (static const
 * ones bind values), the body's statements run, the returned expression is the call's value. A function
 * written in asm is its Script, run on the arguments.
 */
function inline(cx: ElabContext, e: Call, owner: ContractLike, fn: Func, generics: Map<string, Type>, self: Self | null): IExpr {
  const scope = cx.newScope(owner, generics, fn, self, false);
  const asm = fn.body.length === 1 && fn.body[0].kind === 'asm' ? fn.body[0] : null;
  const params: Frame['params'] = [];
  const caller = cx.constScope();
  fn.params.forEach((p, i) => {
    const arg = e.args[i];
    if (p.isStaticConst) {
      const v = evaluate(arg, caller) ?? cx.internal(arg.at, `the static const argument of ${fn.name}() is not known`);
      scope.bound.set(cx.declared(p), v);
      return;
    }
    const value = cx.expr(arg);
    params.push({ slot: cx.within(scope, () => cx.bindParam(p)), arg: value });
  });
  const returns = fn.returnType ? cx.within(scope, () => cx.resolve(fn.returnType!, fn.at)) : BOOL;
  if (asm) {
    const read = asmOf(fn, asm.text, `${owner.name}.${fn.name}`, (name) => namedInt(name, { facts: cx.facts, owner }));
    if ('error' in read) return cx.internal(asm.at, read.error);
    return { kind: 'asm', args: params.map((p) => p.arg), tokens: read.tokens, type: returns, at: e.at };
  }
  const frame = cx.within(scope, (): Frame => {
    const name = `${owner.name}.${fn.name}`;
    if (fn.visibility === 'public') return { name, params, body: fn.body.map((s) => cx.stmt(s)), result: null };
    const last = fn.body[fn.body.length - 1];
    if (!last || last.kind !== 'return') return cx.internal(fn.at, `${fn.name} does not end with return`);
    const body = fn.body.slice(0, -1).map((s) => cx.stmt(s));
    cx.at = last.at;
    scope.typer.statement(last);
    cx.checkpoint();
    return { name, params, body, result: cx.expr(last.value) };
  });
  return { kind: 'inline', frame, type: returns, at: e.at };
}
