import type { ContractLike, Expr, Func, Stmt, TypeRef } from '../ast.js';
import type { Position } from '../diagnostics.js';
import { BUILTINS, CONTRACT_BUILTINS, aliasCastTarget, castFamilies } from './builtins.js';
import { intValue } from './constants.js';
import { writtenTypeArgs } from './symbols.js';
import {
  ANY,
  BOOL,
  BYTES,
  INT,
  assignable,
  basicType,
  calleeName,
  castHint,
  functionFor,
  genericsOf,
  resolveType,
  sameType,
  show,
  startOf,
  type Bindings,
  type Facts,
  type Type,
  type TypeContext,
  type VarSymbol,
} from './model.js';

/**
 * The one set of typing rules: the type of every expression, and the checks of operators, calls,
 * conversions, literals and members (see typecheck.ts for the list). The type checker runs it over the
 * source once, reporting errors; the lowering runs it again over every instantiation it produces (a
 * library function with its type arguments, a function with its static const arguments), with concrete
 * types, recording each expression's type for code generation, where any error would be a compiler bug.
 */
export interface TyperContext {
  facts: Facts;
  /** The library or contract whose code is typed (for `this`, static consts and generic parameters). */
  owner: ContractLike | null;
  /** Generic parameters in scope → their types (`any` inside an uninstantiated generic declaration). */
  generics: Map<string, Type>;
  /** The function being typed (for the call graph and return types). */
  fn: Func | null;
  /** Values of induction variables and static const parameters, where known (array sizes). */
  bound?: Bindings;
  /** The type of a variable here. */
  varType(sym: VarSymbol): Type;
  report(at: Position, message: string): void;
  /** Told the type of every expression typed. */
  record?(e: Expr, t: Type): void;
}

type Call = Extract<Expr, { kind: 'call' }>;

export class Typer {
  constructor(readonly ctx: TyperContext) {}

  private get facts(): Facts {
    return this.ctx.facts;
  }
  private get owner(): ContractLike | null {
    return this.ctx.owner;
  }
  private get generics(): Map<string, Type> {
    return this.ctx.generics;
  }
  private get fn(): Func | null {
    return this.ctx.fn;
  }

  typeContext(owner = this.owner, generics = this.generics): TypeContext {
    return { facts: this.facts, owner, generics, bound: this.ctx.bound };
  }

  resolve(ref: TypeRef, ctx = this.typeContext()): Type {
    return resolveType(ref, ctx);
  }

  private error(at: Position, message: string): void {
    this.ctx.report(at, message);
  }

  /**
   * `L x = new L(args)` or `new L(args)` as a value: the arguments against the constructor's parameters
   * (or, without one, the properties). Type arguments not written (`new Box(1)`) are those of the type
   * expected where the value goes, or else inferred from the arguments passed where the parameter's type
   * is a bare type parameter. Returns the type with its arguments.
   */
  construct(s: { at: Position; type: TypeRef; args: Expr[] }, t: Type, expected?: Type): Type {
    if (t.k === 'object' && t.decl.generics.length && !t.args.size && expected?.k === 'object' && expected.decl === t.decl) t = expected;
    if (t.k !== 'object') {
      if (t.k !== 'any') this.error(s.type.at, `new needs a library type, not ${show(t)}`);
      s.args.forEach((a) => this.expr(a));
      return t;
    }
    const decl = t.decl;
    const instance = decl.properties.filter((p) => !p.isStatic);
    const params = decl.ctor ? decl.ctor.params.map((p) => p.type) : instance.map((p) => p.type);
    if (s.args.length !== params.length) {
      this.error(s.at, `new ${decl.name}(…) takes ${params.length} argument(s), got ${s.args.length}`);
      s.args.forEach((a) => this.expr(a));
      return t;
    }
    if (!decl.generics.length || t.args.size) {
      const ctx = this.typeContext(decl, genericsOf(decl, t.args));
      s.args.forEach((a, i) => this.argument(a, this.resolve(params[i], ctx), i, `new ${decl.name}`));
      return t;
    }
    const inferred = new Map<string, Type>();
    const argTypes = s.args.map((a, i) => {
      const p = params[i];
      const bare = decl.generics.includes(p.name) && !p.dims.length;
      const got = this.expr(a, bare ? inferred.get(p.name) : undefined);
      if (bare && !inferred.has(p.name)) inferred.set(p.name, got);
      return got;
    });
    const missing = decl.generics.filter((g) => !inferred.has(g));
    if (missing.length) {
      this.error(
        s.at,
        `cannot infer the type parameter ${missing.join(', ')} of ${decl.name} from the arguments; write new ${decl.name}<…>(…)`,
      );
      return t;
    }
    const ctx = this.typeContext(decl, inferred);
    argTypes.forEach((got, i) => {
      const want = this.resolve(params[i], ctx);
      if (!assignable(got, want))
        this.error(
          startOf(s.args[i]),
          `argument ${i + 1} of new ${decl.name}() must be ${show(want)}, not ${show(got)}${castHint(got, want)}`,
        );
    });
    return { k: 'object', decl, args: inferred };
  }

  /**
   * Types and checks the expressions written directly in a statement (not those of the statements nested
   * in it) and returns the type of the variable it declares, if it declares one:
   * - `var`: the initialiser against the declared type; `auto` (and a generic library type written
   *   without its arguments) takes the initialiser's type;
   * - `new`: the constructor's arguments; `=` and `op=`: the value against the target;
   * - `require`/`exit` need a bool; `if` also takes an int or bytes (syntax.rst); a loop count is an int;
   * - `return`: the function's return type.
   */
  statement(s: Stmt): Type | null {
    switch (s.kind) {
      case 'var': {
        const declared = s.type === 'auto' ? null : this.resolve(s.type);
        if (!s.init) return declared ?? ANY;
        const got = this.expr(s.init, declared ?? undefined);
        if (!declared) return got;
        if (!assignable(got, declared))
          this.error(startOf(s.init), `cannot assign ${show(got)} to ${show(declared)} ${s.name}${castHint(got, declared)}`);
        const open = declared.k === 'object' && declared.decl.generics.length > 0 && declared.args.size === 0;
        return open && got.k === 'object' && got.decl === declared.decl ? got : declared;
      }
      case 'new':
        return this.construct(s, this.resolve(s.type));
      case 'assign': {
        const target = this.expr(s.target);
        const value = this.expr(s.value, target);
        if (s.op === '=') {
          if (!assignable(value, target))
            this.error(
              startOf(s.value),
              `cannot assign ${show(value)} to ${describe(s.target)} (${show(target)})${castHint(value, target)}`,
            );
        } else {
          const op = s.op.slice(0, -1);
          const result = this.binaryResult(op, target, value, s.at);
          this.shiftCount(op, target, s.value);
          if (!assignable(result, target)) this.error(s.at, `${s.op} leaves ${show(result)} in ${describe(s.target)} (${show(target)})`);
        }
        return null;
      }
      case 'expr':
        this.expr(s.expr);
        return null;
      case 'require':
      case 'exit': {
        const t = this.expr(s.cond);
        if (t.k !== 'bool' && t.k !== 'any') this.error(startOf(s.cond), `${s.kind} needs a bool, not ${show(t)}`);
        return null;
      }
      case 'if': {
        const t = this.expr(s.cond);
        if (!['bool', 'int', 'bytes', 'any'].includes(t.k))
          this.error(startOf(s.cond), `an if condition must be a bool (or an int or bytes), not ${show(t)}`);
        return null;
      }
      case 'loop': {
        const t = this.expr(s.count);
        if (t.k !== 'int' && t.k !== 'any') this.error(startOf(s.count), `the loop count must be an int, not ${show(t)}`);
        return INT;
      }
      case 'return': {
        const fn = this.fn;
        const want = fn?.returnType && fn.visibility !== 'public' ? this.resolve(fn.returnType) : null;
        const got = this.expr(s.value, want ?? undefined);
        if (want && !assignable(got, want))
          this.error(startOf(s.value), `${fn!.name} returns ${show(want)}, not ${show(got)}${castHint(got, want)}`);
        return null;
      }
      default:
        return null;
    }
  }

  argument(arg: Expr, want: Type, i: number, name: string): Type {
    const got = this.expr(arg, want);
    if (!assignable(got, want))
      this.error(startOf(arg), `argument ${i + 1} of ${name}() must be ${show(want)}, not ${show(got)}${castHint(got, want)}`);
    return got;
  }

  // ---- expressions ----

  /** The type of `e` (and of everything inside it), checked; `expected` guides literals. */
  expr(e: Expr, expected?: Type): Type {
    const t = this.typeOf(e, expected);
    this.ctx.record?.(e, t);
    return t;
  }

  private typeOf(e: Expr, expected?: Type): Type {
    switch (e.kind) {
      case 'int':
        return INT;
      case 'bool':
        return BOOL;
      case 'bytes':
      case 'string':
        return BYTES;
      case 'ident': {
        const sym = this.facts.idents.get(e);
        if (!sym) return ANY;
        if (sym.kind !== 'const') return this.ctx.varType(sym);
        return this.resolve(sym.decl.type, this.typeContext(sym.owner, sym.owner ? genericsOf(sym.owner) : new Map()));
      }
      case 'this':
        return this.owner ? { k: 'object', decl: this.owner, args: this.generics } : ANY;
      case 'member':
        return this.member(e);
      case 'call':
        return this.call(e, expected);
      case 'index':
        return this.index(e);
      case 'slice': {
        const t = this.expr(e.object);
        if (t.k !== 'bytes' && t.k !== 'any') this.error(startOf(e.object), `only bytes can be sliced, not ${show(t)}`);
        for (const bound of [e.start, e.end]) {
          if (!bound) continue;
          const b = this.expr(bound);
          if (b.k !== 'int' && b.k !== 'any') this.error(startOf(bound), `a slice bound must be an int, not ${show(b)}`);
        }
        return BYTES;
      }
      case 'unary':
      case 'postfix': {
        const t = this.expr(e.operand);
        if (t.k === 'any') return e.op === '!' ? BOOL : ANY;
        if (e.op === '!') {
          if (t.k !== 'bool') this.error(e.at, `! needs a bool, not ${show(t)}`);
          return BOOL;
        }
        if (e.op === '~') {
          if (t.k !== 'int' && t.k !== 'bytes') this.error(e.at, `~ needs an int or bytes, not ${show(t)}`);
          return t.k === 'bytes' ? t : INT;
        }
        if (t.k !== 'int') this.error(e.at, `${e.kind === 'unary' && e.op === '-' ? 'unary -' : e.op} needs an int, not ${show(t)}`);
        return INT;
      }
      case 'binary':
        return this.binary(e);
      case 'ternary': {
        const c = this.expr(e.cond);
        // Like an if condition, an int or bytes is true when it is not zero (`x % 2 ? a : b`).
        if (!['bool', 'int', 'bytes', 'any'].includes(c.k))
          this.error(startOf(e.cond), `the condition of ?: must be a bool (or an int or bytes), not ${show(c)}`);
        const a = this.expr(e.then, expected);
        const b = this.expr(e.else, expected ?? a);
        if (a.k === 'any') return b;
        if (assignable(b, a)) return a;
        if (assignable(a, b)) return b;
        this.error(e.at, `both branches of ?: need the same type (${show(a)}, ${show(b)})`);
        return a;
      }
      case 'array':
        return this.arrayLiteral(e, expected);
      case 'structLit':
        return this.structLiteral(e, expected);
      case 'new':
        return this.construct(e, this.resolve(e.type), expected);
    }
  }

  private arrayLiteral(e: Extract<Expr, { kind: 'array' }>, expected?: Type): Type {
    const n = e.items.length;
    if (n === 0) {
      this.error(e.at, 'an array literal needs at least one item (array sizes are greater than zero)');
      return expected ?? ANY;
    }
    if (expected?.k === 'array') {
      if (expected.size !== null && expected.size !== BigInt(n)) {
        this.error(e.at, `the array literal has ${n} item(s), but ${show(expected)} needs ${expected.size}`);
      }
      e.items.forEach((item, i) => {
        const t = this.expr(item, expected.elem);
        if (!assignable(t, expected.elem))
          this.error(startOf(item), `item ${i} must be ${show(expected.elem)}, not ${show(t)}${castHint(t, expected.elem)}`);
      });
      return expected.size === null ? { ...expected, size: BigInt(n) } : expected;
    }
    if (expected && expected.k !== 'any') {
      e.items.forEach((item) => this.expr(item));
      return { k: 'array', elem: ANY, size: BigInt(n) }; // the caller reports the mismatch
    }
    let elem = this.expr(e.items[0]);
    e.items.slice(1).forEach((item, i) => {
      const t = this.expr(item, elem);
      if (elem.k === 'any') elem = t;
      else if (!assignable(t, elem) && !assignable(elem, t))
        this.error(startOf(item), `item ${i + 1} must be ${show(elem)} like item 0, not ${show(t)}`);
    });
    return { k: 'array', elem, size: BigInt(n) };
  }

  private structLiteral(e: Extract<Expr, { kind: 'structLit' }>, expected?: Type): Type {
    if (!expected || expected.k !== 'struct') {
      e.fields.forEach((f) => this.expr(f));
      if (!expected)
        this.error(e.at, 'a struct literal {…} needs a declared struct type where it is written (a typed variable, parameter or field)');
      else if (expected.k !== 'any') this.error(e.at, `a struct literal {…} cannot be ${show(expected)}`);
      return expected ?? ANY;
    }
    const decl = expected.decl;
    const ctx = this.typeContext(null, genericsOf(decl, expected.args));
    if (e.fields.length !== decl.fields.length) {
      this.error(e.at, `struct ${decl.name} has ${decl.fields.length} fields, not ${e.fields.length} (in the literal)`);
    }
    e.fields.forEach((f, i) => {
      const field = decl.fields[i];
      if (!field) return void this.expr(f);
      const want = this.resolve(field.type, ctx);
      const got = this.expr(f, want);
      if (!assignable(got, want))
        this.error(startOf(f), `field ${field.name} of ${decl.name} must be ${show(want)}, not ${show(got)}${castHint(got, want)}`);
    });
    return expected;
  }

  private index(e: Extract<Expr, { kind: 'index' }>): Type {
    const t = this.expr(e.object);
    const i = this.expr(e.index);
    if (i.k !== 'int' && i.k !== 'any') this.error(startOf(e.index), `an array index must be an int, not ${show(i)}`);
    if (t.k === 'any') return ANY;
    if (t.k === 'bytes') {
      this.error(e.at, 'bytes cannot be indexed; take a slice, b[i : i + 1]');
      return BYTES;
    }
    if (t.k !== 'array') {
      this.error(e.at, `only arrays can be indexed, not ${show(t)}`);
      return ANY;
    }
    // Known without loop variables or static const arguments: an index out of bounds is an error. One that
    // depends on them (headers[i - 1] in the first iteration) may sit in a branch that never runs there,
    // so it is checked at run time.
    const k = intValue(e.index, { ...this.constScope(), bound: undefined });
    if (k !== null && t.size !== null && (k < 0n || k >= t.size))
      this.error(startOf(e.index), `index ${k} is out of bounds for ${show(t)}`);
    return t.elem;
  }

  private member(e: Extract<Expr, { kind: 'member' }>): Type {
    const obj = e.object;
    if (obj.kind === 'this') {
      const c = this.owner;
      const p = c?.properties.find((x) => x.name === e.name);
      return p ? this.resolve(p.type) : ANY;
    }
    if (obj.kind === 'ident' && !this.facts.idents.has(obj) && this.facts.env.isOwnerName(obj.name)) {
      const c = this.facts.env.owner(obj.name);
      const p = c?.properties.find((x) => x.name === e.name && x.isStatic);
      return p ? this.resolve(p.type, this.typeContext(c, genericsOf(c!))) : ANY;
    }
    const t = this.expr(obj);
    switch (t.k) {
      case 'any':
        return ANY;
      case 'struct': {
        const field = t.decl.fields.find((f) => f.name === e.name);
        if (field) return this.resolve(field.type, this.typeContext(null, genericsOf(t.decl, t.args)));
        this.error(e.at, `struct ${t.decl.name} has no field '${e.name}'`);
        return ANY;
      }
      case 'object': {
        const p = t.decl.properties.find((x) => x.name === e.name);
        if (p) {
          this.refusePrivate(t.decl, p.visibility, `property ${e.name}`, e.at);
          return this.resolve(p.type, this.typeContext(t.decl, genericsOf(t.decl, t.args)));
        }
        if (t.decl.functions.some((f) => f.name === e.name)) this.error(e.at, `${e.name} is a function of ${t.decl.name}; call it`);
        else this.error(e.at, `${t.decl.kind} ${t.decl.name} has no member '${e.name}'`);
        return ANY;
      }
      default:
        this.error(e.at, `${show(t)} has no members ('${e.name}')`);
        return ANY;
    }
  }

  private call(e: Call, expected?: Type): Type {
    const callee = e.callee;
    const target = this.facts.calls.get(e);
    // obj.f(…) takes its type arguments from obj (typed again each time: a generic library's instance).
    const onValue =
      callee.kind === 'member' &&
      callee.object.kind !== 'this' &&
      !(callee.object.kind === 'ident' && !this.facts.idents.has(callee.object));
    if (target && !onValue) {
      const written = writtenTypeArgs(callee);
      if (written && written.length !== target.owner.generics.length)
        this.error(callee.at, `${target.owner.name} takes ${target.owner.generics.length} type argument(s), got ${written.length}`);
      const generics = written
        ? new Map(target.owner.generics.map((g, i) => [g, written[i] ? this.resolve(written[i]) : ANY]))
        : target.owner === this.owner
          ? this.generics
          : genericsOf(target.owner);
      return this.userCall(e, target.owner, target.fn, generics);
    }
    if (callee.kind === 'ident') {
      if (callee.name in BUILTINS) return this.builtin(e, callee.name, expected);
      const castTo = castFamilies(callee.name) ? callee.name : aliasCastTarget(this.facts.env, callee.name);
      if (castTo) return this.cast(e, castTo);
      // An unknown function (reported where it is resolved): its parameter types are unknown too.
      e.args.forEach((a) => this.expr(a, ANY));
      return ANY;
    }
    if (callee.kind === 'member' && callee.object.kind === 'this') {
      const b = this.owner?.kind === 'contract' ? CONTRACT_BUILTINS[callee.name] : undefined;
      if (b) {
        if (b.params.length === e.args.length) e.args.forEach((a, i) => this.argument(a, b.params[i], i, `this.${callee.name}`));
        else e.args.forEach((a) => this.expr(a));
        return b.result;
      }
      e.args.forEach((a) => this.expr(a));
      return ANY;
    }
    if (
      callee.kind === 'member' &&
      callee.object.kind === 'ident' &&
      !this.facts.idents.has(callee.object) &&
      this.facts.env.isOwnerName(callee.object.name)
    ) {
      e.args.forEach((a) => this.expr(a, ANY)); // a standard-library function we do not model, or an error already reported
      return ANY;
    }
    if (callee.kind === 'member') {
      const t = this.expr(callee.object);
      if (t.k === 'object') {
        const fn = functionFor(t.decl, callee.name, e.args.length);
        if (fn) {
          this.refusePrivate(t.decl, fn.visibility, `function ${callee.name}`, callee.at);
          this.facts.calls.set(e, { owner: t.decl, fn });
          this.facts.callers.set(e, this.fn && this.owner ? { owner: this.owner, fn: this.fn } : null);
          if (e.args.length !== fn.params.length)
            this.error(startOf(e), `${calleeName(callee)}() takes ${fn.params.length} argument(s), got ${e.args.length}`);
          return this.userCall(e, t.decl, fn, genericsOf(t.decl, t.args));
        }
        this.error(callee.at, `${t.decl.kind} ${t.decl.name} has no function '${callee.name}'`);
      } else if (t.k !== 'any') this.error(callee.at, `${show(t)} has no functions ('${callee.name}')`);
      e.args.forEach((a) => this.expr(a, t.k === 'any' ? ANY : undefined));
      return ANY;
    }
    this.expr(callee);
    this.error(startOf(e), 'this expression cannot be called');
    e.args.forEach((a) => this.expr(a));
    return ANY;
  }

  /** The reference's access modifiers: a contract's `private` members are not visible from another contract. */
  private refusePrivate(decl: ContractLike, visibility: 'public' | 'private' | 'default', what: string, at: Position): void {
    if (visibility === 'private' && decl.kind === 'contract' && decl !== this.owner)
      this.error(at, `${what} of contract ${decl.name} is private: only ${decl.name} itself may use it`);
  }

  private userCall(e: Call, owner: ContractLike, fn: Func, generics: Map<string, Type>): Type {
    const ctx = this.typeContext(owner, generics);
    const name = calleeName(e.callee);
    e.args.forEach((a, i) => {
      const p = fn.params[i];
      if (!p) return void this.expr(a);
      this.argument(a, this.resolve(p.type, ctx), i, name);
    });
    if (fn.returnType) return this.resolve(fn.returnType, ctx);
    return fn.visibility === 'public' ? BOOL : ANY;
  }

  private builtin(e: Call, name: string, expected?: Type): Type {
    const b = BUILTINS[name];
    // repeat's value takes the element type of the array it fills (a struct literal needs it).
    const elementWanted = name === 'repeat' && expected?.k === 'array' ? expected.elem : undefined;
    const types: Type[] = [];
    const ctc: (bigint | null)[] = [];
    e.args.forEach((a, i) => {
      const p = b.params[i];
      ctc.push(null);
      if (p === undefined) return void types.push(this.expr(a));
      if (p === 'ctc') {
        const t = this.expr(a);
        if (t.k !== 'int' && t.k !== 'any') this.error(startOf(a), `argument ${i + 1} of ${name}() must be an int, not ${show(t)}`);
        ctc[i] = intValue(a, this.constScope());
        return void types.push(t);
      }
      if (p === 'Sig[]' || p === 'PubKey[]') {
        const t = this.expr(a);
        const elem = basicType(p.slice(0, -2))!;
        if (t.k !== 'any' && (t.k !== 'array' || !assignable(t.elem, elem) || t.elem.k === 'array')) {
          this.error(startOf(a), `argument ${i + 1} of ${name}() must be an array of ${show(elem)}, not ${show(t)}`);
        }
        return void types.push(t);
      }
      types.push(this.argument(a, p.k === 'any' && elementWanted ? elementWanted : p, i, name));
    });
    return b.result(types, ctc);
  }

  private cast(e: Call, name: string): Type {
    const families = castFamilies(name)!;
    const to = basicType(name)!;
    e.args.forEach((a, i) => {
      const t = this.expr(a, to);
      if (i === 0 && t.k !== 'any' && !families.includes(t.k)) this.error(startOf(e), `cannot convert ${show(t)} to ${name}`);
    });
    return to;
  }

  private binary(e: Extract<Expr, { kind: 'binary' }>): Type {
    if (e.op === '&&' || e.op === '||') {
      for (const side of [e.left, e.right]) {
        const t = this.expr(side);
        if (t.k !== 'bool' && t.k !== 'any') this.error(startOf(side), `${e.op} needs bools, not ${show(t)}`);
      }
      return BOOL;
    }
    // A literal ({…}, […]) takes its type from the other operand, on either side: {1, 2} == p as p == {1, 2}.
    const literal = (x: Expr) => x.kind === 'array' || x.kind === 'structLit';
    if (literal(e.left) && !literal(e.right)) {
      const b = this.expr(e.right);
      const a = this.expr(e.left, b);
      this.shiftCount(e.op, a, e.right);
      return this.binaryResult(e.op, a, b, e.at);
    }
    const a = this.expr(e.left);
    const b = this.expr(e.right, literal(e.right) ? a : undefined);
    this.shiftCount(e.op, a, e.right);
    return this.binaryResult(e.op, a, b, e.at);
  }

  /**
   * An int is shifted by multiplying or dividing by 2ⁿ. A count known at compile time must not be negative
   * (the reference: the evaluation fails); one known only when the script runs is checked there.
   */
  private shiftCount(op: string, a: Type, count: Expr): void {
    if ((op !== '<<' && op !== '>>') || a.k !== 'int') return;
    const n = intValue(count, this.constScope());
    if (n !== null && n < 0n) this.error(startOf(count), 'the shift count of an int must not be negative');
  }

  private constScope() {
    return { facts: this.facts, owner: this.owner, bound: this.ctx.bound };
  }

  /** The type of `a op b`, reporting operands the operator does not take (also for `op=`). */
  binaryResult(op: string, a: Type, b: Type, at: Position): Type {
    const comparison = ['==', '!=', '<', '<=', '>', '>='].includes(op);
    if (a.k === 'any' || b.k === 'any') {
      if (comparison) return BOOL;
      const known = a.k === 'any' ? b : a;
      return known.k === 'int' ? INT : known.k === 'bytes' && op !== '<<' && op !== '>>' ? BYTES : a.k === 'any' ? ANY : a;
    }
    const ints = a.k === 'int' && b.k === 'int';
    const bytes = a.k === 'bytes' && b.k === 'bytes';
    const sameBytes = (): Type => (a.k === 'bytes' && b.k === 'bytes' && a.name === b.name ? a : BYTES);
    switch (op) {
      case '==':
      case '!=':
        if (!sameType(a, b)) this.error(at, `cannot compare ${show(a)} with ${show(b)}`);
        return BOOL;
      case '<':
      case '<=':
      case '>':
      case '>=':
        if (!ints) this.error(at, `${op} compares ints, not ${show(a)} and ${show(b)}`);
        return BOOL;
      case '+':
        if (bytes) return sameBytes();
        if (ints) return INT;
        this.error(at, `+ needs ints, not ${show(a)} and ${show(b)} (or two bytes values, to concatenate)`);
        return ANY;
      case '-':
      case '*':
      case '/':
      case '%':
        if (!ints) this.error(at, `${op} needs ints, not ${show(a)} and ${show(b)}`);
        return INT;
      case '<<':
      case '>>':
        if ((a.k !== 'int' && a.k !== 'bytes') || b.k !== 'int')
          this.error(at, `${op} shifts an int or bytes by an int, not ${show(a)} by ${show(b)}`);
        return a.k === 'bytes' ? a : INT;
      case '&':
      case '|':
      case '^':
        if (bytes) return sameBytes();
        if (a.k === 'bool' && b.k === 'bool') return BOOL;
        if (!ints) this.error(at, `${op} needs two ints or two bytes values, not ${show(a)} and ${show(b)}`);
        return INT;
      default:
        return ANY;
    }
  }
}

/** A write target for messages: `x`, `this.p`, or the construct. */
function describe(e: Expr): string {
  if (e.kind === 'ident') return e.name;
  if (e.kind === 'member' && e.object.kind === 'this') return `this.${e.name}`;
  if (e.kind === 'index') return 'the array element';
  if (e.kind === 'member') return `the field ${e.name}`;
  return 'the target';
}
