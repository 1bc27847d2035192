import type { ContractLike, Expr, Func, Item, Param, Stmt, TypeRef } from '../ast.js';
import type { Diagnostics, Position } from '../diagnostics.js';
import { STDLIB_NAMES } from '../stdlib.js';
import { BUILTINS, CONTRACT_BUILTINS, DEPRECATED_BUILTINS, UNAVAILABLE_MEMBERS, castFamilies } from './builtins.js';
import { STD_NAMES, basicType, calleeName, functionFor, startOf, type Facts, type Scope, type VarSymbol } from './model.js';

/**
 * Pass 2, names and scopes (CashScript's SymbolTableTraversal). Resolves every bare name to its
 * declaration and records it in `facts.idents`; records the user function each statically resolvable
 * call reaches (`f()`, `this.f()`, `Lib.f()`) in `facts.calls`. Reports:
 * - undefined names, functions, types, `this.x` members and `Lib.x` static members;
 * - a name declared twice in one scope (top-level items; a contract's properties and functions; struct
 *   fields; parameters; locals — parameters and the function's top-level locals share one scope, as in C);
 * - writes to constants: `const` locals and properties (outside the constructor), `static const`
 *   properties and parameters, loop induction variables;
 * - in a static function, `this.member` where the member is not static (there `this` names the contract or
 *   library itself, so `this.f(…)` and `this.N` reach its static functions and properties); `this` in a
 *   static property's initial value or a top-level declaration, and `this` other than as `this.member`;
 * - `struct T` where T is not a struct;
 * - calls with the wrong number of arguments (user functions, built-ins, conversions); a function that is
 *   not static called as `Lib.f()` or from a static function; the type parameters of a generic library in
 *   its static functions (they belong to a value);
 * - the stateful-contract members (`this.getStateScript()`, `this.updateState(…)`) in a contract without
 *   `@state` properties; scrypt-ts members sCrypt source does not have (`this.ctx`, `this.dataPart`);
 * - a local variable without an initial value.
 *
 * Scoping follows C99 (syntax.rst): an inner block may shadow an outer name.
 */
export function checkSymbols(facts: Facts, diags: Diagnostics): void {
  new SymbolPass(facts, diags).run();
}

class SymbolPass {
  private scopes: Scope[] = [];
  private owner: ContractLike | null = null;
  private fn: Func | null = null;
  private generics = new Set<string>();
  /** Where `this` is not available, and why (for the message). */
  private staticContext: string | null = null;
  /**
   * In a static function `this` names its contract or library itself, not a value of it (as `this` in a
   * static method of a TypeScript class, which scrypt-ts contracts are): `this.f(…)` calls its static
   * function f and `this.N` reads its static property N, as `Owner.f(…)` and `Owner.N` do. A member that
   * is not static belongs to a value, which a static function does not have.
   */
  private inStaticFn = false;
  private inCtor = false;
  /** Static functions that name a type parameter of their library → the first one they name. */
  private readonly open = new Map<Func, string>();

  constructor(
    private readonly facts: Facts,
    private readonly diags: Diagnostics,
  ) {}

  run(): void {
    const seen = new Map<string, Item>();
    for (const item of this.facts.env.program.items) {
      const prev = seen.get(item.name);
      if (prev) this.diags.error(item.at, `'${item.name}' is already declared (line ${prev.at.line})`);
      else seen.set(item.name, item);
    }
    for (const item of this.facts.env.program.items) {
      this.owner = null;
      this.fn = null;
      this.scopes = [];
      this.staticContext = 'a top-level declaration';
      this.generics = new Set(item.kind === 'struct' || item.kind === 'contract' || item.kind === 'library' ? item.generics : []);
      switch (item.kind) {
        case 'struct': {
          const fields = new Map<string, Position>();
          for (const f of item.fields) {
            const prev = fields.get(f.name);
            if (prev) this.diags.error(f.at, `struct ${item.name} already has a field '${f.name}' (line ${prev.line})`);
            else fields.set(f.name, f.at);
            this.type(f.type);
          }
          break;
        }
        case 'alias':
          this.type(item.type);
          break;
        case 'const':
          this.type(item.type);
          this.expr(item.value);
          break;
        default:
          this.owner = item;
          this.contract(item);
      }
    }
    this.unboundCalls();
  }

  /**
   * A static function declared with its library's type parameters, called from outside the library: no
   * value of the library binds them there, so the call is refused (inside the library they are the
   * caller's own).
   */
  private unboundCalls(): void {
    for (const [call, target] of this.facts.calls) {
      const param = this.open.get(target.fn);
      const caller = this.facts.callers.get(call);
      if (param === undefined || caller?.owner === target.owner || (call.kind === 'call' && writtenTypeArgs(call.callee))) continue;
      this.diags.error(
        call.at,
        `static function ${target.fn.name} cannot use the type parameter ${param} of ${target.owner.name}: called by the library's name, nothing binds ${param}`,
      );
    }
  }

  // ---- declarations ----

  private contract(c: ContractLike): void {
    const members = new Map<string, Position>();
    const arities = new Map<string, Set<number>>();
    for (const m of [...c.properties, ...c.functions]) {
      const prev = members.get(m.name);
      // The standard library keeps the older HashedMap forms beside the current ones, told apart by their
      // number of parameters (has(key, index) and has({key, index})).
      const overload = 'params' in m && STDLIB_NAMES.includes(c.name) && prev && !arities.get(m.name)?.has(m.params.length);
      if (prev && !overload) this.diags.error(m.at, `'${m.name}' is already declared in ${c.name} (line ${prev.line})`);
      else members.set(m.name, m.at);
      if ('params' in m) arities.set(m.name, new Set([...(arities.get(m.name) ?? []), m.params.length]));
    }
    for (const p of c.properties) {
      this.staticContext = p.isStatic ? `static property ${p.name}` : null;
      this.type(p.type);
      if (p.init) this.expr(p.init);
    }
    if (c.ctor) {
      this.staticContext = null;
      this.inCtor = true;
      this.scopes = [new Map()];
      this.params(c.ctor.params);
      this.body(c.ctor.body);
      this.inCtor = false;
    }
    const generics = this.generics;
    for (const f of c.functions) {
      this.fn = f;
      this.staticContext = f.isStatic ? `static function ${f.name}` : null;
      this.inStaticFn = f.isStatic;
      // A type parameter is bound by a value of the library. A static function has none, but may still be
      // declared with the library's type parameters (the official compiler accepts that, e.g. scryptlib's
      // test/fixture/generic.scrypt); what nothing binds is refused where it is called (see unboundCalls).
      this.generics = generics;
      this.scopes = [new Map()];
      this.params(f.params);
      if (f.returnType) this.type(f.returnType);
      this.body(f.body);
      this.fn = null;
      this.inStaticFn = false;
    }
  }

  /** Parameters, in order: a `static const` one can size the types of those after it. */
  private params(params: Param[]): void {
    for (const p of params) {
      this.type(p.type);
      this.declare(p, {
        kind: p.isStaticConst ? 'staticParam' : 'param',
        name: p.name,
        at: p.at,
        isConst: p.isStaticConst || p.isConst === true,
      });
    }
  }

  /** A function or constructor body: its top-level statements share the parameters' scope. */
  private body(stmts: Stmt[]): void {
    for (const s of stmts) this.stmt(s);
  }

  private declare(node: Stmt | Param, sym: VarSymbol): void {
    const scope = this.scopes[this.scopes.length - 1];
    const prev = scope.get(sym.name);
    if (prev) this.diags.error(sym.at, `'${sym.name}' is already declared in this scope (line ${prev.at.line})`);
    scope.set(sym.name, sym);
    this.facts.decls.set(node, sym);
  }

  private lookup(name: string): VarSymbol | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const s = this.scopes[i].get(name);
      if (s) return s;
    }
    return undefined;
  }

  private type(ref: TypeRef): void {
    const item = this.facts.env.items.get(ref.name);
    if (ref.tagged && item?.kind !== 'struct') {
      // `struct T` names a struct; a T that names nothing is reported below as an unknown type.
      const what = this.generics.has(ref.name)
        ? 'a type parameter'
        : basicType(ref.name)
          ? 'a basic type'
          : item
            ? `a ${item.kind === 'const' ? 'constant' : item.kind === 'alias' ? 'type alias' : item.kind}`
            : null;
      if (what) {
        this.diags.error(ref.at, `struct ${ref.name} names a struct, but ${ref.name} is ${what}`);
        ref.generics.forEach((g) => this.type(g));
        ref.dims.forEach((d) => this.expr(d));
        return;
      }
    }
    if (this.generics.has(ref.name)) {
      if (this.fn?.isStatic && !this.open.has(this.fn)) this.open.set(this.fn, ref.name);
      if (ref.generics.length) this.diags.error(ref.at, `the type parameter ${ref.name} takes no type arguments`);
    } else if (basicType(ref.name)) {
      if (ref.generics.length) this.diags.error(ref.at, `${ref.name} takes no type arguments`);
    } else if (!item) {
      if (!STD_NAMES.has(ref.name)) {
        const generic = this.owner?.generics.includes(ref.name);
        this.diags.error(
          ref.at,
          generic
            ? `static function ${this.fn?.name} cannot use the type parameter ${ref.name} of ${this.owner!.name}`
            : `unknown type ${ref.name}`,
        );
      }
    } else if (item.kind === 'const') {
      this.diags.error(ref.at, `'${ref.name}' is a constant, not a type`);
    } else if (item.kind !== 'alias' && ref.generics.length && ref.generics.length !== item.generics.length) {
      this.diags.error(
        ref.at,
        item.generics.length
          ? `${item.name} takes ${item.generics.length} type argument(s), not ${ref.generics.length}`
          : `${item.name} takes no type arguments`,
      );
    } else if (item.kind === 'alias' && ref.generics.length) {
      this.diags.error(ref.at, `the alias ${ref.name} takes no type arguments`);
    }
    ref.generics.forEach((g) => this.type(g));
    ref.dims.forEach((d) => this.expr(d));
  }

  // ---- statements ----

  private scoped(f: () => void): void {
    this.scopes.push(new Map());
    f();
    this.scopes.pop();
  }

  private stmt(s: Stmt): void {
    switch (s.kind) {
      case 'var':
        if (s.type !== 'auto') this.type(s.type);
        if (s.init) this.expr(s.init);
        else this.diags.error(s.at, `variable ${s.name} needs an initial value`);
        this.declare(s, { kind: 'local', name: s.name, at: s.at, isConst: s.isConst });
        return;
      case 'new':
        this.type(s.type);
        s.args.forEach((a) => this.expr(a));
        this.declare(s, { kind: 'new', name: s.name, at: s.at, isConst: false });
        return;
      case 'assign':
        this.expr(s.target);
        this.write(s.target);
        this.expr(s.value);
        return;
      case 'expr':
      case 'require':
      case 'exit':
        this.expr(s.kind === 'expr' ? s.expr : s.cond);
        return;
      case 'return':
        this.expr(s.value);
        return;
      case 'if':
        this.expr(s.cond);
        this.scoped(() => this.stmt(s.then));
        if (s.else) {
          const other = s.else;
          this.scoped(() => this.stmt(other));
        }
        return;
      case 'loop':
        this.expr(s.count);
        this.scoped(() => {
          if (s.induction) this.declare(s, { kind: 'induction', name: s.induction, at: s.at, isConst: true });
          this.stmt(s.body);
        });
        return;
      case 'block':
        this.scoped(() => s.body.forEach((x) => this.stmt(x)));
        return;
      case 'codesep':
      case 'asm':
        return;
    }
  }

  /** The target of an assignment or of `++`/`--` must be a variable, property, element or field — and not a constant. */
  private write(target: Expr): void {
    let base = target;
    for (;;) {
      if (base.kind === 'index') base = base.object;
      else if (base.kind === 'member' && base.object.kind !== 'this' && !this.isOwnerRef(base.object)) base = base.object;
      else break;
    }
    if (base.kind === 'ident') {
      const sym = this.facts.idents.get(base);
      if (!sym) return; // undefined: reported
      if (sym.kind === 'const') {
        // A bare name reaches a file-level constant or a static property; only a non-const static property is writable.
        if (!('isConst' in sym.decl) || sym.decl.isConst) this.diags.error(startOf(target), `cannot assign to the constant ${sym.name}`);
      } else if (sym.kind === 'induction') this.diags.error(startOf(target), `cannot assign to the loop variable ${sym.name}`);
      else if (sym.kind === 'staticParam') this.diags.error(startOf(target), `cannot assign to the static const parameter ${sym.name}`);
      else if (sym.isConst) this.diags.error(startOf(target), `cannot assign to the constant ${sym.name}`);
      return;
    }
    if (base.kind === 'member') {
      const owner = base.object.kind === 'this' ? this.owner : base.object.kind === 'ident' ? this.facts.env.owner(base.object.name) : null;
      const p = owner?.properties.find((x) => x.name === base.name);
      if (!p) return;
      if (p.isStatic && p.isConst) this.diags.error(startOf(target), `cannot assign to the static const property ${p.name}`);
      else if (p.isConst && !(this.inCtor && base.object.kind === 'this')) {
        // The constructor initialises const properties, element by element or field by field too.
        this.diags.error(startOf(target), `cannot assign to the const property ${p.name}${this.inCtor ? '' : ' outside the constructor'}`);
      }
      return;
    }
    this.diags.error(
      startOf(target),
      'this expression cannot be assigned to; only variables, properties, array elements and struct fields can',
    );
  }

  /** `Lib` in `Lib.x`: a library or contract name not hidden by a variable. */
  private isOwnerRef(e: Expr): boolean {
    return e.kind === 'ident' && !this.lookup(e.name) && this.facts.env.isOwnerName(e.name);
  }

  // ---- expressions ----

  private expr(e: Expr): void {
    switch (e.kind) {
      case 'ident':
        this.ident(e);
        return;
      case 'this':
        this.thisAt(e.at);
        // A library value is a value: a method may return it (`return this;`) or pass it on.
        if (this.owner?.kind === 'library' && !this.inStaticFn) return;
        this.diags.error(e.at, "'this' can only be used as this.member or this.function(…)");
        return;
      case 'member':
        this.member(e);
        return;
      case 'call':
        this.call(e);
        return;
      case 'unary':
      case 'postfix':
        this.expr(e.operand);
        if (e.op === '++' || e.op === '--') this.write(e.operand);
        return;
      case 'index':
        this.expr(e.object);
        this.expr(e.index);
        return;
      case 'slice':
        this.expr(e.object);
        if (e.start) this.expr(e.start);
        if (e.end) this.expr(e.end);
        return;
      case 'binary':
        this.expr(e.left);
        this.expr(e.right);
        return;
      case 'ternary':
        this.expr(e.cond);
        this.expr(e.then);
        this.expr(e.else);
        return;
      case 'array':
        e.items.forEach((x) => this.expr(x));
        return;
      case 'structLit':
        e.fields.forEach((x) => this.expr(x));
        return;
      case 'new':
        this.type(e.type);
        e.args.forEach((x) => this.expr(x));
        return;
      default:
        return;
    }
  }

  /**
   * `this` at `at`, as `this.member` when `member` is given: in a static function only a static member of
   * its own contract or library may follow (see inStaticFn). `isStatic` null: no such member (reported by
   * the caller).
   */
  private thisAt(at: Position, member?: { name: string; isStatic: boolean | null; call: boolean }): void {
    if (!this.owner) this.diags.error(at, "'this' can only be used inside a contract or library");
    else if (this.inStaticFn && member) {
      if (member.isStatic === false)
        this.diags.error(
          at,
          `${member.name} is not static, so ${this.staticContext} cannot use this.${member.name}${member.call ? '(…)' : ''}: in a static function this names ${this.owner.name} itself, not a value of it`,
        );
    } else if (this.staticContext) this.diags.error(at, `'this' cannot be used in ${this.staticContext}`);
  }

  private ident(e: Extract<Expr, { kind: 'ident' }>): void {
    const v = this.lookup(e.name);
    if (v) {
      this.facts.idents.set(e, v);
      return;
    }
    const prop = this.owner?.properties.find((p) => p.name === e.name);
    if (prop?.isStatic) {
      this.facts.idents.set(e, { kind: 'const', name: e.name, decl: prop, owner: this.owner });
      return;
    }
    const item = this.facts.env.items.get(e.name);
    if (item?.kind === 'const') {
      this.facts.idents.set(e, { kind: 'const', name: e.name, decl: item, owner: null });
      return;
    }
    if (prop) this.diags.error(e.at, `unknown name '${e.name}' (the property is read as this.${e.name})`);
    else if (item || STD_NAMES.has(e.name)) this.diags.error(e.at, `'${e.name}' is a type, not a value`);
    else this.diags.error(e.at, `unknown name '${e.name}'`);
  }

  /** Member errors are reported at the `.` (the parser keeps no separate position for the member's name). */
  private member(e: Extract<Expr, { kind: 'member' }>): void {
    if (e.object.kind === 'this') {
      const prop = this.owner?.properties.find((p) => p.name === e.name);
      this.thisAt(e.object.at, { name: e.name, isStatic: prop ? prop.isStatic : null, call: false });
      const c = this.owner;
      if (!c || c.properties.some((p) => p.name === e.name)) return;
      if (c.functions.some((f) => f.name === e.name))
        this.diags.error(e.at, `${e.name} is a function of ${c.name}; call it: this.${e.name}(…)`);
      else if (c.kind === 'contract' && e.name in CONTRACT_BUILTINS)
        this.diags.error(e.at, `${e.name} is a function; call it: this.${e.name}(…)`);
      else if (c.kind === 'contract' && e.name in UNAVAILABLE_MEMBERS) this.diags.error(e.at, UNAVAILABLE_MEMBERS[e.name]);
      else this.diags.error(e.at, `${c.name} has no property '${e.name}'`);
      return;
    }
    if (e.object.kind === 'ident' && this.isOwnerRef(e.object)) {
      for (const t of e.object.typeArgs ?? []) this.type(t);
      const c = this.facts.env.owner(e.object.name);
      if (!c) return; // a standard-library name we do not model
      const p = c.properties.find((x) => x.name === e.name);
      if (p && !p.isStatic) this.diags.error(e.at, `${c.name}.${e.name} is not static; it is read through an instance`);
      else if (!p && c.functions.some((f) => f.name === e.name)) this.diags.error(e.at, `${c.name}.${e.name} is a function; call it`);
      else if (!p) this.diags.error(e.at, `${c.kind} ${c.name} has no static property '${e.name}'`);
      return;
    }
    this.expr(e.object);
  }

  private call(e: Extract<Expr, { kind: 'call' }>): void {
    const callee = e.callee;
    const count = (expected: number, name: string) => {
      if (e.args.length !== expected) this.diags.error(startOf(e), `${name}() takes ${expected} argument(s), got ${e.args.length}`);
    };
    const user = (owner: ContractLike, fn: Func) => {
      this.facts.calls.set(e, { owner, fn });
      this.facts.callers.set(e, this.fn && this.owner ? { owner: this.owner, fn: this.fn } : null);
      count(fn.params.length, calleeName(callee));
    };
    if (callee.kind === 'ident') {
      // A bare call of a built-in's name is the built-in, even where the library declares a function of
      // that name (FixedPoint.abs(FP) calls abs(int) on its field), as the official compiler resolves it.
      const builtin = callee.name in BUILTINS && !DEPRECATED_BUILTINS.has(callee.name);
      const own = builtin ? undefined : this.owner?.functions.find((f) => f.name === callee.name);
      const cast = castFamilies(callee.name) ?? this.aliasCast(callee.name);
      if (own && !own.isStatic && this.staticContext)
        this.diags.error(callee.at, `${own.name} is not static, so ${this.staticContext} cannot call it`);
      if (own) user(this.owner!, own);
      else if (callee.name in BUILTINS) count(BUILTINS[callee.name].params.length, callee.name);
      else if (cast) count(1, callee.name);
      else if (this.facts.env.items.has(callee.name) || STD_NAMES.has(callee.name)) {
        // A struct, library or standard name used as a function: not something these passes model; accepted.
      } else if (this.lookup(callee.name)) this.diags.error(callee.at, `'${callee.name}' is a variable, not a function`);
      else this.diags.error(callee.at, `unknown function '${callee.name}'`);
    } else if (callee.kind === 'member' && callee.object.kind === 'this') {
      const c = this.owner;
      const fn = functionFor(c, callee.name, e.args.length);
      const builtin = c?.kind === 'contract' ? CONTRACT_BUILTINS[callee.name] : undefined;
      this.thisAt(callee.object.at, {
        name: callee.name,
        isStatic: fn ? fn.isStatic : builtin ? false : null,
        call: true,
      });
      if (!c) {
        // reported by thisAt
      } else if (fn) user(c, fn);
      else if (builtin) {
        count(builtin.params.length, `this.${callee.name}`);
        if (!c.properties.some((p) => p.state))
          this.diags.error(callee.at, `this.${callee.name}() is for stateful contracts; ${c.name} has no @state property`);
      } else if (c.properties.some((p) => p.name === callee.name))
        this.diags.error(callee.at, `this.${callee.name} is a property, not a function`);
      else this.diags.error(callee.at, `${c.name} has no function '${callee.name}'`);
    } else if (callee.kind === 'member' && callee.object.kind === 'ident' && this.isOwnerRef(callee.object)) {
      const c = this.facts.env.owner(callee.object.name);
      const fn = functionFor(c, callee.name, e.args.length);
      if (!c) {
        // a standard-library name we do not model: accepted
      } else if (fn && !fn.isStatic) this.diags.error(callee.at, `${c.name}.${fn.name} is not static; call it on a ${c.name} value`);
      else if (fn) user(c, fn);
      else this.diags.error(callee.at, `${c.kind} ${c.name} has no function '${callee.name}'`);
    } else if (callee.kind === 'member') {
      this.expr(callee.object); // obj.f(…): resolved by the type checker, which knows obj's type
    } else {
      this.expr(callee);
    }
    e.args.forEach((a) => this.expr(a));
  }

  /** `Hash(b)` where `type Hash = Sha256`: a conversion through an alias of a basic type. */
  private aliasCast(name: string): boolean {
    const item = this.facts.env.items.get(name);
    return item?.kind === 'alias' && !item.type.dims.length && basicType(item.type.name) !== null;
  }
}

/** The type arguments a static call names its generic library with (`L<int>.clone(a)`), or null. */
export function writtenTypeArgs(callee: Expr): TypeRef[] | null {
  return callee.kind === 'member' && callee.object.kind === 'ident' && callee.object.typeArgs?.length ? callee.object.typeArgs : null;
}
