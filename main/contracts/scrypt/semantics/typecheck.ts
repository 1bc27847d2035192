import type { ContractLike, Expr, Func, Param, Stmt, TypeRef } from '../ast.js';
import type { Diagnostics, Position } from '../diagnostics.js';
import { BUILTINS, CONTRACT_BUILTINS, castFamilies } from './builtins.js';
import {
  ANY, BOOL, BYTES, INT, assignable, basicType, calleeName, constValue, eachStmt, genericsOf, resolveType, sameType, show, startOf,
  type Facts, type Type, type TypeContext,
} from './model.js';

/**
 * Pass 2, types (CashScript's TypeCheckTraversal). Gives every expression a type and checks:
 * - operators: arithmetic on ints; `+` on ints or on bytes (concatenation); `==`/`!=` on two values of one
 *   family (int and PrivKey; bytes and its subtypes; bool; the same array or struct type); `< <= > >=` on
 *   ints; `&& || !` on bools; `& | ^ ~` on ints or bytes; `<< >>` on an int or bytes by an int;
 * - conditions: `require`, `exit`, `?:` need a bool; `if` also takes an int or bytes (syntax.rst);
 * - built-in calls and conversions (`PubKey(b)`), user calls, `new`, against their parameter types;
 * - assignments and initialisers, array literals (size and element type) and struct literals (field count
 *   and types) against the declared type; `auto` takes its initialiser's type;
 * - returns: a public function returns nothing; a function with a return type ends with exactly one
 *   `return` of that type, as its last statement;
 * - members: struct fields, library instance members; constant array indices within bounds.
 * Unknown things have type `any`, which fits everywhere, so one error does not cascade.
 */
export function checkTypes(facts: Facts, diags: Diagnostics): void {
  new TypePass(facts, diags).run();
}

type Call = Extract<Expr, { kind: 'call' }>;

class TypePass {
  private owner: ContractLike | null = null;
  private fn: Func | null = null;
  private generics = new Map<string, Type>();

  constructor(
    private readonly facts: Facts,
    private readonly diags: Diagnostics,
  ) {}

  private ctx(owner = this.owner, generics = this.generics): TypeContext {
    return { facts: this.facts, owner, generics };
  }

  private resolve(ref: TypeRef, ctx = this.ctx()): Type {
    return resolveType(ref, ctx);
  }

  private error(at: Position, message: string): void {
    this.diags.error(at, message);
  }

  run(): void {
    for (const item of this.facts.env.program.items) {
      this.owner = null;
      this.fn = null;
      this.generics = new Map();
      if (item.kind === 'const') this.initialiser(item.value, this.resolve(item.type), item.name);
      else if (item.kind === 'contract' || item.kind === 'library') {
        this.owner = item;
        this.generics = genericsOf(item);
        this.contract(item);
      }
    }
  }

  private contract(c: ContractLike): void {
    for (const p of c.properties) if (p.init) this.initialiser(p.init, this.resolve(p.type), p.name);
    if (c.ctor) {
      this.params(c.ctor.params);
      for (const s of c.ctor.body) this.stmt(s);
      for (const s of c.ctor.body) eachStmt(s, (x) => x.kind === 'return' && this.error(x.at, 'a constructor cannot return a value'));
    }
    for (const f of c.functions) {
      this.fn = f;
      this.params(f.params);
      for (const s of f.body) this.stmt(s);
      this.returns(f);
      this.fn = null;
    }
  }

  private params(params: Param[]): void {
    for (const p of params) {
      const sym = this.facts.decls.get(p);
      if (sym) sym.type = this.resolve(p.type);
    }
  }

  /** Public functions return nothing; a function with a return type ends with its only `return`. */
  private returns(f: Func): void {
    // A function written in Script (asm.rst: its whole body in `asm { … }`) leaves its result on the stack.
    if (f.body.some((s) => s.kind === 'asm')) return;
    const last = f.body[f.body.length - 1];
    const all: Extract<Stmt, { kind: 'return' }>[] = [];
    for (const s of f.body) eachStmt(s, (x) => x.kind === 'return' && all.push(x));
    if (f.visibility === 'public') {
      for (const r of all) this.error(r.at, `public function ${f.name} cannot return a value (it returns true when it runs to its end)`);
      return;
    }
    if (!f.returnType) {
      for (const r of all) this.error(r.at, `function ${f.name} has no return type, so it cannot return a value`);
      return;
    }
    if (!last || last.kind !== 'return') this.error(f.at, `function ${f.name} must end with a return statement (of ${show(this.resolve(f.returnType))})`);
    for (const r of all) if (r !== last) this.error(r.at, `only one return is allowed in ${f.name}, as its last statement`);
  }

  private initialiser(init: Expr, declared: Type, name: string): void {
    const t = this.expr(init, declared);
    if (!assignable(t, declared)) this.error(startOf(init), `cannot assign ${show(t)} to ${show(declared)} ${name}`);
  }

  // ---- statements ----

  private stmt(s: Stmt): void {
    switch (s.kind) {
      case 'var': {
        const declared = s.type === 'auto' ? null : this.resolve(s.type);
        let t = declared ?? ANY;
        if (s.init) {
          const got = this.expr(s.init, declared ?? undefined);
          if (declared && !assignable(got, declared)) this.error(startOf(s.init), `cannot assign ${show(got)} to ${show(declared)} ${s.name}`);
          if (!declared) t = got;
        }
        const sym = this.facts.decls.get(s);
        if (sym) sym.type = t;
        return;
      }
      case 'new': {
        const t = this.resolve(s.type);
        this.construct(s, t);
        const sym = this.facts.decls.get(s);
        if (sym) sym.type = t;
        return;
      }
      case 'assign': {
        const target = this.expr(s.target);
        const value = this.expr(s.value, target);
        if (s.op === '=') {
          if (!assignable(value, target)) this.error(startOf(s.value), `cannot assign ${show(value)} to ${describe(s.target)} (${show(target)})`);
        } else {
          const result = this.binaryResult(s.op.slice(0, -1), target, value, s.at);
          if (!assignable(result, target)) this.error(s.at, `${s.op} leaves ${show(result)} in ${describe(s.target)} (${show(target)})`);
        }
        return;
      }
      case 'expr':
        this.expr(s.expr);
        return;
      case 'require':
      case 'exit': {
        const t = this.expr(s.cond);
        if (t.k !== 'bool' && t.k !== 'any') this.error(startOf(s.cond), `${s.kind} needs a bool, not ${show(t)}`);
        return;
      }
      case 'if': {
        const t = this.expr(s.cond);
        if (!['bool', 'int', 'bytes', 'any'].includes(t.k)) this.error(startOf(s.cond), `an if condition must be a bool (or an int or bytes), not ${show(t)}`);
        this.stmt(s.then);
        if (s.else) this.stmt(s.else);
        return;
      }
      case 'loop': {
        const t = this.expr(s.count);
        if (t.k !== 'int' && t.k !== 'any') this.error(startOf(s.count), `the loop count must be an int, not ${show(t)}`);
        const sym = this.facts.decls.get(s);
        if (sym) sym.type = INT;
        this.stmt(s.body);
        return;
      }
      case 'block':
        for (const x of s.body) this.stmt(x);
        return;
      case 'return': {
        const want = this.fn?.returnType && this.fn.visibility !== 'public' ? this.resolve(this.fn.returnType) : null;
        const got = this.expr(s.value, want ?? undefined);
        if (want && !assignable(got, want)) this.error(startOf(s.value), `${this.fn!.name} returns ${show(want)}, not ${show(got)}`);
        return;
      }
      case 'codesep':
      case 'asm':
        return;
    }
  }

  /** `L x = new L(args)`: the arguments against the constructor's parameters (or, without one, the properties). */
  private construct(s: Extract<Stmt, { kind: 'new' }>, t: Type): void {
    if (t.k !== 'object') {
      if (t.k !== 'any') this.error(s.type.at, `new needs a library or contract type, not ${show(t)}`);
      s.args.forEach((a) => this.expr(a));
      return;
    }
    const decl = t.decl;
    const ctx = this.ctx(decl, genericsOf(decl, t.args));
    const instance = decl.properties.filter((p) => !p.isStatic);
    const uninitialised = instance.filter((p) => !p.init);
    const params = decl.ctor ? decl.ctor.params.map((p) => p.type) : (s.args.length === uninitialised.length ? uninitialised : instance).map((p) => p.type);
    if (s.args.length !== params.length) {
      this.error(s.at, `new ${decl.name}(…) takes ${params.length} argument(s), got ${s.args.length}`);
      s.args.forEach((a) => this.expr(a));
      return;
    }
    s.args.forEach((a, i) => this.argument(a, this.resolve(params[i], ctx), i, `new ${decl.name}`));
  }

  private argument(arg: Expr, want: Type, i: number, name: string): Type {
    const got = this.expr(arg, want);
    if (!assignable(got, want)) this.error(startOf(arg), `argument ${i + 1} of ${name}() must be ${show(want)}, not ${show(got)}`);
    return got;
  }

  // ---- expressions ----

  private expr(e: Expr, expected?: Type): Type {
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
        if (sym.kind !== 'const') return sym.type ?? ANY;
        return this.resolve(sym.decl.type, this.ctx(sym.owner, sym.owner ? genericsOf(sym.owner) : new Map()));
      }
      case 'this':
        return this.owner ? { k: 'object', decl: this.owner, args: this.generics } : ANY;
      case 'member':
        return this.member(e);
      case 'call':
        return this.call(e);
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
        if (c.k !== 'bool' && c.k !== 'any') this.error(startOf(e.cond), `the condition of ?: must be a bool, not ${show(c)}`);
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
        if (!assignable(t, expected.elem)) this.error(startOf(item), `item ${i} must be ${show(expected.elem)}, not ${show(t)}`);
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
      else if (!assignable(t, elem) && !assignable(elem, t)) this.error(startOf(item), `item ${i + 1} must be ${show(elem)} like item 0, not ${show(t)}`);
    });
    return { k: 'array', elem, size: BigInt(n) };
  }

  private structLiteral(e: Extract<Expr, { kind: 'structLit' }>, expected?: Type): Type {
    if (!expected || expected.k !== 'struct') {
      e.fields.forEach((f) => this.expr(f));
      if (expected && expected.k !== 'any') this.error(e.at, `a struct literal {…} cannot be ${show(expected)}`);
      return ANY;
    }
    const decl = expected.decl;
    const ctx = this.ctx(null, genericsOf(decl, expected.args));
    if (e.fields.length !== decl.fields.length) {
      this.error(e.at, `struct ${decl.name} has ${decl.fields.length} fields, not ${e.fields.length} (in the literal)`);
    }
    e.fields.forEach((f, i) => {
      const field = decl.fields[i];
      if (!field) return void this.expr(f);
      const want = this.resolve(field.type, ctx);
      const got = this.expr(f, want);
      if (!assignable(got, want)) this.error(startOf(f), `field ${field.name} of ${decl.name} must be ${show(want)}, not ${show(got)}`);
    });
    return expected;
  }

  private index(e: Extract<Expr, { kind: 'index' }>): Type {
    const t = this.expr(e.object);
    const i = this.expr(e.index);
    if (i.k !== 'int' && i.k !== 'any') this.error(startOf(e.index), `an array index must be an int, not ${show(i)}`);
    if (t.k === 'any') return ANY;
    if (t.k === 'bytes') return BYTES; // not in the specification; accepted rather than rejected
    if (t.k !== 'array') {
      this.error(e.at, `only arrays can be indexed, not ${show(t)}`);
      return ANY;
    }
    const k = constValue(e.index, this.facts, this.owner)?.value ?? null;
    if (k !== null && t.size !== null && (k < 0n || k >= t.size)) this.error(startOf(e.index), `index ${k} is out of bounds for ${show(t)}`);
    return t.elem;
  }

  private member(e: Extract<Expr, { kind: 'member' }>): Type {
    const obj = e.object;
    if (obj.kind === 'this') {
      const c = this.owner;
      const p = c?.properties.find((x) => x.name === e.name);
      if (p) return this.resolve(p.type);
      const b = c?.kind === 'contract' ? CONTRACT_BUILTINS[e.name] : undefined;
      return b && 'value' in b ? b.value : ANY;
    }
    if (obj.kind === 'ident' && !this.facts.idents.has(obj) && this.facts.env.isOwnerName(obj.name)) {
      const c = this.facts.env.owner(obj.name);
      const p = c?.properties.find((x) => x.name === e.name && x.isStatic);
      return p ? this.resolve(p.type, this.ctx(c, genericsOf(c!))) : ANY;
    }
    const t = this.expr(obj);
    switch (t.k) {
      case 'any':
        return ANY;
      case 'struct': {
        const field = t.decl.fields.find((f) => f.name === e.name);
        if (field) return this.resolve(field.type, this.ctx(null, genericsOf(t.decl, t.args)));
        this.error(e.at, `struct ${t.decl.name} has no field '${e.name}'`);
        return ANY;
      }
      case 'object': {
        const p = t.decl.properties.find((x) => x.name === e.name);
        if (p) return this.resolve(p.type, this.ctx(t.decl, genericsOf(t.decl, t.args)));
        if (t.decl.functions.some((f) => f.name === e.name)) this.error(e.at, `${e.name} is a function of ${t.decl.name}; call it`);
        else this.error(e.at, `${t.decl.kind} ${t.decl.name} has no member '${e.name}'`);
        return ANY;
      }
      default:
        this.error(e.at, `${show(t)} has no members ('${e.name}')`);
        return ANY;
    }
  }

  private call(e: Call): Type {
    const callee = e.callee;
    const target = this.facts.calls.get(e);
    if (target) return this.userCall(e, target.owner, target.fn, target.owner === this.owner ? this.generics : genericsOf(target.owner));
    if (callee.kind === 'ident') {
      if (callee.name in BUILTINS) return this.builtin(e, callee.name);
      const alias = this.facts.env.items.get(callee.name);
      const castTo = castFamilies(callee.name) ? callee.name : alias?.kind === 'alias' && !alias.type.dims.length && basicType(alias.type.name) ? alias.type.name : null;
      if (castTo) return this.cast(e, castTo);
      e.args.forEach((a) => this.expr(a));
      return ANY;
    }
    if (callee.kind === 'member' && callee.object.kind === 'this') {
      const b = this.owner?.kind === 'contract' ? CONTRACT_BUILTINS[callee.name] : undefined;
      if (b && 'params' in b) {
        if (b.params && b.params.length === e.args.length) e.args.forEach((a, i) => this.argument(a, b.params![i], i, `this.${callee.name}`));
        else e.args.forEach((a) => this.expr(a));
        return b.result;
      }
      e.args.forEach((a) => this.expr(a));
      return ANY;
    }
    if (callee.kind === 'member' && callee.object.kind === 'ident' && !this.facts.idents.has(callee.object) && this.facts.env.isOwnerName(callee.object.name)) {
      e.args.forEach((a) => this.expr(a)); // a standard-library function we do not model, or an error already reported
      return ANY;
    }
    if (callee.kind === 'member') {
      const t = this.expr(callee.object);
      if (t.k === 'object') {
        const fn = t.decl.functions.find((f) => f.name === callee.name);
        if (fn) {
          this.facts.calls.set(e, { owner: t.decl, fn });
          this.facts.callers.set(e, this.fn && this.owner ? { owner: this.owner, fn: this.fn } : null);
          if (e.args.length !== fn.params.length) this.error(startOf(e), `${calleeName(callee)}() takes ${fn.params.length} argument(s), got ${e.args.length}`);
          return this.userCall(e, t.decl, fn, genericsOf(t.decl, t.args));
        }
        this.error(callee.at, `${t.decl.kind} ${t.decl.name} has no function '${callee.name}'`);
      } else if (t.k !== 'any') this.error(callee.at, `${show(t)} has no functions ('${callee.name}')`);
      e.args.forEach((a) => this.expr(a));
      return ANY;
    }
    this.expr(callee);
    this.error(startOf(e), 'this expression cannot be called');
    e.args.forEach((a) => this.expr(a));
    return ANY;
  }

  private userCall(e: Call, owner: ContractLike, fn: Func, generics: Map<string, Type>): Type {
    const ctx = this.ctx(owner, generics);
    const name = calleeName(e.callee);
    e.args.forEach((a, i) => {
      const p = fn.params[i];
      if (!p) return void this.expr(a);
      this.argument(a, this.resolve(p.type, ctx), i, name);
    });
    if (fn.returnType) return this.resolve(fn.returnType, ctx);
    return fn.visibility === 'public' ? BOOL : ANY;
  }

  private builtin(e: Call, name: string): Type {
    const b = BUILTINS[name];
    const types: Type[] = [];
    const ctc: (bigint | null)[] = [];
    e.args.forEach((a, i) => {
      const p = b.params[i];
      ctc.push(null);
      if (p === undefined) return void types.push(this.expr(a));
      if (p === 'ctc') {
        const t = this.expr(a);
        if (t.k !== 'int' && t.k !== 'any') this.error(startOf(a), `argument ${i + 1} of ${name}() must be an int, not ${show(t)}`);
        ctc[i] = constValue(a, this.facts, this.owner)?.value ?? null;
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
      types.push(this.argument(a, p, i, name));
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
    const a = this.expr(e.left);
    const b = this.expr(e.right, e.right.kind === 'array' || e.right.kind === 'structLit' ? a : undefined);
    return this.binaryResult(e.op, a, b, e.at);
  }

  /** The type of `a op b`, reporting operands the operator does not take (also for `op=`). */
  private binaryResult(op: string, a: Type, b: Type, at: Position): Type {
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
        if ((a.k !== 'int' && a.k !== 'bytes') || b.k !== 'int') this.error(at, `${op} shifts an int or bytes by an int, not ${show(a)} by ${show(b)}`);
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

