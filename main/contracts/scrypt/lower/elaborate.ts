import type { ContractLike, Expr, Func, Param, Stmt } from '../ast.js';
import type { Diagnostics, Position } from '../diagnostics.js';
import { readAsm } from '../semantics/asm.js';
import { BUILTINS, MAX_UNROLL } from '../semantics/builtins.js';
import { constLeaves, constRef, evaluate, intValue, isStackConstant, type ConstRef, type ConstScope } from '../semantics/constants.js';
import { LayoutTooLarge, familyOf, type Layout } from '../semantics/layout.js';
import { BOOL, INT, eachStmt, genericsOf, resolveType, show, type ConstVal, type Facts, type Type, type VarSymbol } from '../semantics/model.js';
import { Typer } from '../semantics/typer.js';
import type { ContractIR, Frame, IExpr, IStmt, Place, PublicFunction, Slot, StackConstant } from './ir.js';
import type { StatefulLowering } from './stateful.js';

/** The most IR nodes one contract may elaborate to: unrolled loops and inlined calls multiply fast. */
export const MAX_ELABORATED = 1_000_000;

/** The most positions one write at run-time indices may test (each is a branch in the script). */
export const MAX_WRITE_POSITIONS = 1024;

/** Elaboration stopped: what stopped it is already reported. */
class Abort extends Error {}

/** What `this` is where code is elaborated: the contract's properties, or one library (or contract) value. */
type Self = { kind: 'contract' } | { kind: 'value'; slot: Slot; offset: number; type: Extract<Type, { k: 'object' }> };

/** One function body being elaborated: its owner, type arguments, `this`, variables and constant bindings. */
interface Scope {
  owner: ContractLike;
  generics: Map<string, Type>;
  fn: Func | null;
  self: Self | null;
  slots: Map<VarSymbol, Slot>;
  /** Loop variables and static const parameters → their values here. */
  bound: Map<VarSymbol, ConstVal>;
  typer: Typer;
  /** A public function compiled as an entry point (not inlined): its prelude's code part is the contract's. */
  entry: boolean;
}

type Call = Extract<Expr, { kind: 'call' }>;

/**
 * The lowering from the checked syntax tree to the IR (ir.ts). Every function is instantiated where it
 * is called: the type checker's rules run again over its body with the call's type arguments, static
 * const arguments and loop values bound, so each expression gets a concrete type; errors that only show
 * in an instantiation (a generic library used with a type its code does not fit, a size out of range)
 * are reported at their source position. Calls are inlined, loops unrolled, named constants replaced by
 * their values, names resolved to slots. The result is checked by verify.ts before code generation.
 */
export function elaborate(lowering: StatefulLowering, facts: Facts, layout: Layout, diags: Diagnostics): ContractIR | null {
  return new Elaborator(lowering, facts, layout, diags).run();
}

class Elaborator {
  private slotCount = 0;
  private nodes = 0;
  private failed = false;
  private at: Position;
  /** The type of each expression, recorded by the typer as it checks each statement. */
  private readonly types = new Map<Expr, Type>();
  /** The contract's properties by name (`this.x`), and the code part once a prelude has read it. */
  private readonly props = new Map<string, Slot>();
  /** The non-int static constants code reads, each pushed once at the bottom of the script. */
  private readonly constants = new Map<ConstRef['decl'], StackConstant & { ordinal: number }>();
  private scope!: Scope;

  constructor(
    private readonly lowering: StatefulLowering,
    private readonly facts: Facts,
    private readonly layout: Layout,
    private readonly diags: Diagnostics,
  ) {
    this.at = lowering.main.at;
  }

  run(): ContractIR | null {
    const main = this.lowering.main;
    try {
      this.scope = this.newScope(main, new Map(), null, { kind: 'contract' }, false);
      for (const p of main.properties) {
        if (p.isStatic) continue;
        this.props.set(p.name, this.slot(p.name, this.resolve(p.type, p.at)));
      }
      const properties = [...this.props.values()];
      // Without an explicit constructor, a library-valued property is built from its own arguments; with
      // one, it starts as OP_0 slots like every property and code assigns it.
      const built = main.ctor ? [] : properties.flatMap((slot) => (slot.type.k === 'object' && slot.type.decl.ctor ? [this.builtProperty(slot, slot.type)] : []));
      const ctor = main.ctor ? this.constructorOf(main, main.ctor) : null;
      const publics = main.functions.filter((f) => f.visibility === 'public').map((f) => this.publicFunction(main, f));
      // The standard library's first, then the user's, each in declaration order.
      const constants = [...this.constants.values()].sort((a, b) => a.ordinal - b.ordinal).map(({ slot, leaves }) => ({ slot, leaves }));
      return { name: main.name, at: main.at, constants, properties, built, ctor, publics };
    } catch (err) {
      if (err instanceof Abort) return null;
      if (err instanceof LayoutTooLarge) {
        this.diags.error(this.at, `${err.message}; use smaller arrays`);
        return null;
      }
      if (err instanceof RangeError) throw err; // too deeply nested: compile.ts reports it
      this.diags.error(this.at, `internal compiler error: ${(err as Error).message}`);
      return null;
    }
  }

  // ---------------------------------------------------------------- scopes and slots

  private newScope(owner: ContractLike, generics: Map<string, Type>, fn: Func | null, self: Self | null, entry: boolean): Scope {
    const scope = { owner, generics, fn, self, slots: new Map(), bound: new Map(), entry } as unknown as Scope;
    scope.typer = new Typer({
      facts: this.facts,
      owner,
      generics,
      fn,
      bound: scope.bound,
      varType: (sym) => scope.slots.get(sym)?.type ?? sym.type ?? BOOL,
      report: (at, message) => this.report(at, message),
      record: (e, t) => this.types.set(e, t),
    });
    return scope;
  }

  private within<T>(scope: Scope, f: () => T): T {
    const outer = this.scope;
    this.scope = scope;
    try {
      return f();
    } finally {
      this.scope = outer;
    }
  }

  private slot(name: string, type: Type): Slot {
    return { id: this.slotCount++, name, type };
  }

  private declared(node: Stmt | Param): VarSymbol {
    const sym = this.facts.decls.get(node);
    if (!sym) this.internal(node.at, 'a declaration without a symbol');
    return sym;
  }

  private constScope(): ConstScope {
    return { facts: this.facts, owner: this.scope.owner, bound: this.scope.bound };
  }

  // ---------------------------------------------------------------- errors

  private report(at: Position, message: string): void {
    this.diags.error(at, message);
    this.failed = true;
  }

  /** After the typer has checked a statement: stop if the instantiation had an error. */
  private checkpoint(): void {
    if (this.failed) throw new Abort();
  }

  private internal(at: Position, what: string): never {
    this.diags.error(at, `internal compiler error: ${what}`);
    throw new Abort();
  }

  private tick(): void {
    this.nodes++;
  }

  // ---------------------------------------------------------------- types

  private resolve(ref: Parameters<typeof resolveType>[0], at: Position): Type {
    return this.concrete(this.scope.typer.resolve(ref), at);
  }

  /** A type code can be generated for: nothing unknown, every array size known. */
  private concrete(t: Type, at: Position): Type {
    if (!isConcrete(t)) this.internal(at, `the type ${show(t)} is not fully known here`);
    return t;
  }

  /** The type the typer gave an expression; where it could not know a size (a static const argument's), the IR's. */
  private typeOf(e: Expr, elaborated?: IExpr): Type {
    const t = this.types.get(e);
    if (t && isConcrete(t)) return t;
    if (elaborated) return this.concrete(elaborated.type, e.at);
    return this.internal(e.at, 'an expression without a type');
  }

  // ---------------------------------------------------------------- functions

  private publicFunction(main: ContractLike, f: Func): PublicFunction {
    const scope = this.newScope(main, new Map(), f, { kind: 'contract' }, true);
    return this.within(scope, () => {
      this.at = f.at;
      const params = f.params.map((p) => this.bindParam(p));
      const last = f.body[f.body.length - 1];
      if (f.body.length === 1 && last.kind === 'asm') {
        const read = readAsm(last.text, `${main.name}.${f.name}`);
        if ('error' in read) return this.internal(last.at, read.error);
        return { name: f.name, at: f.at, params, body: [], final: { kind: 'const', value: true, type: BOOL, at: f.at }, asm: read.tokens };
      }
      if (!last || last.kind !== 'require') this.internal(f.at, `public function ${f.name} does not end with require`);
      const body = f.body.slice(0, -1).map((s) => this.stmt(s));
      this.at = last.at;
      scope.typer.statement(last);
      this.checkpoint();
      return { name: f.name, at: f.at, params, body, final: this.expr(last.cond) };
    });
  }

  private constructorOf(main: ContractLike, ctor: NonNullable<ContractLike['ctor']>): ContractIR['ctor'] {
    const scope = this.newScope(main, new Map(), null, { kind: 'contract' }, false);
    return this.within(scope, () => {
      const params = ctor.params.map((p) => this.bindParam(p));
      const body = ctor.body.map((s) => this.stmt(s));
      // A library-valued property the constructor leaves alone is built by its own constructor from default
      // arguments (0, b'', false), as the official compiler does, then moved into place.
      const assigned = new Set<string>();
      for (const s of ctor.body) eachStmt(s, (x) => x.kind === 'assign' && x.target.kind === 'member' && x.target.object.kind === 'this' && assigned.add(x.target.name));
      for (const [name, slot] of this.props) {
        if (slot.type.k === 'object' && slot.type.decl.ctor && !assigned.has(name)) body.push(this.defaultBuilt(slot, slot.type));
      }
      return { params, body };
    });
  }

  /** `this.p = new T(defaults…)` for a library-valued property the constructor does not set. */
  private defaultBuilt(property: Slot, type: Extract<Type, { k: 'object' }>): IStmt {
    const at = type.decl.at;
    const tmp = this.slot(`__default_${property.name}`, type);
    const inner = this.newScope(type.decl, genericsOf(type.decl, type.args), null, { kind: 'value', slot: tmp, offset: 0, type }, false);
    return this.within(inner, (): IStmt => {
      const params = type.decl.ctor!.params.map((p) => {
        const slot = this.bindParam(p);
        return { slot, arg: this.defaultValue(slot.type, at) };
      });
      const body = type.decl.ctor!.body.map((x) => this.stmt(x));
      const construct: IStmt = { kind: 'construct', slot: tmp, params, body, at };
      const move: IStmt = { kind: 'assign', place: { slot: property, type, offset: 0, dynamic: [] }, value: { kind: 'take', slot: tmp, type, at }, compound: false, at };
      return { kind: 'block', body: [construct, move], at };
    });
  }

  /** A type's default value: 0, false, b'', and those leaf by leaf for structs and arrays. */
  private defaultValue(type: Type, at: Position): IExpr {
    if (type.k === 'int') return { kind: 'const', value: 0n, type, at };
    if (type.k === 'bool') return { kind: 'const', value: false, type, at };
    if (type.k === 'bytes') return { kind: 'const', value: '', type, at };
    const leaves = this.layout.leaves(type);
    const parts = leaves.map((l): IExpr => (l.family === 'int' ? { kind: 'const', value: 0n, type: INT, at } : l.family === 'bool' ? { kind: 'const', value: false, type: BOOL, at } : { kind: 'const', value: '', type: { k: 'bytes', name: 'bytes' }, at }));
    return { kind: 'composite', parts, type, at };
  }

  /** A library-valued property's explicit constructor, run on the property with placeholder arguments. */
  private builtProperty(slot: Slot, type: Extract<Type, { k: 'object' }>): ContractIR['built'][number] {
    const decl = type.decl;
    const inner = this.newScope(decl, genericsOf(decl, type.args), null, { kind: 'value', slot, offset: 0, type }, false);
    return this.within(inner, () => {
      const params = decl.ctor!.params.map((p) => {
        const ps = this.bindParam(p);
        ps.name = `${slot.name}.ctor.${p.name}`; // scryptlib's name for the argument
        return ps;
      });
      return { slot, params, body: decl.ctor!.body.map((x) => this.stmt(x)) };
    });
  }

  private bindParam(p: Param): Slot {
    const slot = this.slot(p.name, this.resolve(p.type, p.at));
    this.scope.slots.set(this.declared(p), slot);
    return slot;
  }

  // ---------------------------------------------------------------- statements

  private stmt(s: Stmt): IStmt {
    this.tick();
    this.at = s.at;
    const declared = this.scope.typer.statement(s);
    this.checkpoint();
    const at = s.at;
    switch (s.kind) {
      case 'var': {
        if (!s.init) return this.internal(at, `variable ${s.name} has no initial value`);
        const init = this.expr(s.init);
        const slot = this.slot(s.name, declared && isConcrete(declared) ? declared : this.concrete(init.type, at));
        this.scope.slots.set(this.declared(s), slot);
        return { kind: 'declare', slot, init, at };
      }
      case 'new':
        return this.construct(s, declared ? this.concrete(declared, at) : this.internal(at, 'new without a type'));
      case 'assign': {
        const target = this.place(s.target) ?? this.internal(s.target.at, 'an assignment to something that is not storage');
        const flat = this.flatten(target)!;
        const moved = s.move && s.value.kind === 'ident' ? this.place(s.value) : null;
        const compute = (current: IExpr): IExpr => {
          if (moved) return { kind: 'take', slot: moved.slot, type: moved.type, at };
          return s.op === '=' ? this.expr(s.value) : this.operation(s.op.slice(0, -1), current, s.value, flat.type, at);
        };
        if (flat.dynamic.length) return this.dynamicWrite(flat, compute, at);
        return { kind: 'assign', place: target, value: compute(this.read(target, s.target.at)), compound: s.op !== '=', at };
      }
      case 'expr': {
        const e = s.expr;
        if ((e.kind === 'postfix' || e.kind === 'unary') && (e.op === '++' || e.op === '--')) {
          const target = this.place(e.operand) ?? this.internal(e.operand.at, 'a write to something that is not storage');
          const flat = this.flatten(target)!;
          if (flat.dynamic.length) {
            const one: IExpr = { kind: 'const', value: 1n, type: INT, at };
            return this.dynamicWrite(flat, (current) => ({ kind: 'binary', op: e.op === '++' ? '+' : '-', left: current, right: one, type: flat.type, at }), at);
          }
          return { kind: 'step', place: target, op: e.op, at };
        }
        return { kind: 'eval', expr: this.expr(e), at };
      }
      case 'require':
      case 'exit':
        return { kind: s.kind, cond: this.expr(s.cond), at };
      case 'if':
        return { kind: 'if', cond: this.expr(s.cond), then: this.branch(s.then), else: s.else ? this.branch(s.else) : null, at };
      case 'block':
        return { kind: 'block', body: s.body.map((x) => this.stmt(x)), at };
      case 'loop':
        return this.loop(s);
      case 'codesep':
        return { kind: 'codesep', at };
      case 'asm':
      case 'return':
        return this.internal(at, `${s.kind} where the front end does not allow it`);
    }
  }

  /** The statements of an if branch: a block's own, or the one statement. */
  private branch(s: Stmt): IStmt[] {
    return (s.kind === 'block' ? s.body : [s]).map((x) => this.stmt(x));
  }

  private loop(s: Extract<Stmt, { kind: 'loop' }>): IStmt {
    const n = intValue(s.count, this.constScope());
    if (n === null) return this.internal(s.count.at, 'a loop count that is not known');
    if (n < 0n || n > MAX_UNROLL) {
      this.report(s.count.at, `the loop count must be from 0 to ${MAX_UNROLL}, not ${n}`);
      throw new Abort();
    }
    const induction = s.induction ? this.declared(s) : null;
    const iterations: IStmt[][] = [];
    for (let k = 0n; k < n; k++) {
      if (induction) this.scope.bound.set(induction, { type: 'int', value: k });
      iterations.push(this.branch(s.body));
      if (this.nodes > MAX_ELABORATED) {
        this.report(s.at, `the program unrolls to more than ${MAX_ELABORATED} operations here (this loop has ${n} iterations); use fewer iterations`);
        throw new Abort();
      }
    }
    if (induction) this.scope.bound.delete(induction);
    return { kind: 'unrolled', iterations, at: s.at };
  }

  /** `T x = new T(args)`: the properties from the arguments, or the explicit constructor run on the new value. */
  private construct(s: Extract<Stmt, { kind: 'new' }>, type: Type): IStmt {
    if (type.k !== 'object') return this.internal(s.at, `new of ${show(type)}`);
    const slot = this.slot(s.name, type);
    const decl = type.decl;
    let result: IStmt;
    if (!decl.ctor) {
      // The implicit constructor: the arguments are the value; the official compiler marks the (empty)
      // constructor body with two OP_NOPs.
      const parts = s.args.map((a) => this.expr(a));
      result = { kind: 'construct', slot, params: [], body: [], values: parts, at: s.at };
    } else {
      const ctor = decl.ctor;
      const inner = this.newScope(decl, genericsOf(decl, type.args), null, { kind: 'value', slot, offset: 0, type }, false);
      const params = ctor.params.map((p, i) => {
        const arg = this.expr(s.args[i]);
        const ps = this.within(inner, () => this.bindParam(p));
        return { slot: ps, arg };
      });
      const body = this.within(inner, () => ctor.body.map((x) => this.stmt(x)));
      result = { kind: 'construct', slot, params, body, at: s.at };
    }
    this.scope.slots.set(this.declared(s), slot);
    return result;
  }

  // ---------------------------------------------------------------- places

  /** The storage an expression names, or null when it is a value (a constant, a computed result). */
  private place(e: Expr): Place | null {
    const whole = (slot: Slot): Place => ({ slot, type: slot.type, offset: 0, dynamic: [] });
    const ref = constRef(e, this.constScope());
    if (ref) return isStackConstant(ref.decl) ? whole(this.stackConstant(ref)) : null;
    if (e.kind === 'ident') {
      const sym = this.facts.idents.get(e);
      if (!sym || sym.kind === 'const' || sym.kind === 'induction' || sym.kind === 'staticParam') return null;
      const slot = this.scope.slots.get(sym);
      return slot ? whole(slot) : this.internal(e.at, `no slot for ${e.name}`);
    }
    if (e.kind === 'member') {
      if (e.object.kind === 'this') {
        const self = this.scope.self;
        if (!self) return null;
        if (self.kind === 'contract') {
          const slot = this.props.get(e.name);
          return slot ? whole(slot) : null;
        }
        const f = this.layout.field(self.type, e.name);
        return f ? { slot: self.slot, type: f.type, offset: self.offset + f.offset, dynamic: [] } : null;
      }
      if (e.object.kind === 'ident' && !this.facts.idents.has(e.object)) return null; // Owner.CONSTANT
      const base = this.place(e.object);
      if (!base) return null;
      const f = this.layout.field(base.type, e.name) ?? this.internal(e.at, `${show(base.type)} has no field ${e.name}`);
      const element = base.element && { ...base.element, within: base.element.within + f.offset };
      return { ...base, type: f.type, offset: base.offset + f.offset, element };
    }
    if (e.kind === 'index') {
      const base = this.flatten(this.place(e.object));
      if (!base) return null;
      const t = base.type;
      if (t.k !== 'array' || t.size === null) return this.internal(e.at, `indexing ${show(t)}`);
      const stride = this.layout.size(t.elem);
      const size = Number(t.size);
      let k = intValue(e.index, this.constScope());
      // The index as written, not folded (i * 10 + 1 stays arithmetic on the loop's value), as the official
      // compiler emits it; its value, where known, places constant-index writes.
      let index: IExpr = this.expr(e.index);
      if (k !== null && (k < 0n || k >= t.size)) {
        // An index out of bounds is an error when it is known without loop variables; one computed from a
        // loop variable (headers[i - 1] in the first iteration) may sit in a branch that never runs there: it
        // is checked at run time instead.
        if (intValue(e.index, { facts: this.facts, owner: this.scope.owner }) !== null) this.inBounds(k, t, e.index.at);
        k = null;
        index = { ...index };
      }
      if (base.dynamic.length) {
        if (k !== null) return { ...base, type: t.elem, offset: base.offset + Number(k) * stride };
        return { ...base, type: t.elem, dynamic: [...base.dynamic, { index, size, stride }] };
      }
      const offset = base.offset + (k !== null ? Number(k) * stride : 0);
      const property = [...this.props.values()].includes(base.slot);
      return { ...base, type: t.elem, offset, element: { index, size, stride, start: base.offset, within: 0, constant: k !== null, property } };
    }
    return null;
  }

  /** A place as plain storage: its element index folded into the offset (constant) or the run-time indices. */
  private flatten(p: Place | null): Place | null {
    if (!p?.element) return p;
    const { element, ...rest } = p;
    if (element.constant) return rest;
    return { ...rest, dynamic: [{ index: element.index, size: element.size, stride: element.stride }] };
  }

  /** The slot of a constant kept on the stack, registered the first time code reads it. */
  private stackConstant(ref: ConstRef): Slot {
    const known = this.constants.get(ref.decl);
    if (known) return known.slot;
    const init = 'value' in ref.decl ? ref.decl.value : ref.decl.init;
    const type = this.within(this.newScope(ref.owner ?? this.lowering.main, new Map(), null, null, false), () => this.resolve(ref.decl.type, ref.decl.at));
    const leaves = init && constLeaves(init, { facts: this.facts, owner: ref.owner });
    if (!leaves || leaves.length !== this.layout.size(type)) return this.internal(ref.decl.at, `the value of ${ref.decl.name} is not a constant of its type`);
    const slot = this.slot(ref.decl.name, type);
    this.constants.set(ref.decl, { slot, leaves: leaves.map((l) => l.value), ordinal: this.declarationOrder().indexOf(ref.decl) });
    return slot;
  }

  private order: ConstRef['decl'][] | null = null;

  /** Every static constant of the program (standard library first), in declaration order. */
  private declarationOrder(): ConstRef['decl'][] {
    this.order ??= this.facts.env.program.items.flatMap((item): ConstRef['decl'][] => (item.kind === 'const' ? [item] : 'properties' in item ? item.properties.filter((p) => p.isStatic) : []));
    return this.order;
  }

  /**
   * A write at run-time indices: each index is evaluated once and checked against its array's size, the
   * new value is computed once (from the current one, for x += e and x++), then written at the one
   * position the indices name, by a test per position (the positions are known: the sizes are constants).
   */
  private dynamicWrite(target: Place, compute: (current: IExpr) => IExpr, at: Position): IStmt {
    const positions = target.dynamic.reduce((n, d) => n * d.size, 1);
    if (positions > MAX_WRITE_POSITIONS) {
      this.report(at, `a write at run-time indices into ${positions} positions (at most ${MAX_WRITE_POSITIONS}); use smaller arrays or a constant index`);
      throw new Abort();
    }
    const body: IStmt[] = [];
    const int = (value: bigint): IExpr => ({ kind: 'const', value, type: INT, at });
    const cmp = (op: string, left: IExpr, right: IExpr): IExpr => ({ kind: 'binary', op, left, right, type: BOOL, at });
    const whole = (slot: Slot): Place => ({ slot, type: slot.type, offset: 0, dynamic: [] });
    const indices = target.dynamic.map((d, j) => {
      const slot = this.slot(`__index${j}`, INT);
      body.push({ kind: 'declare', slot, init: d.index, at });
      const i = this.read(whole(slot), at);
      body.push({ kind: 'require', cond: { kind: 'logic', op: '&&', left: cmp('>=', i, int(0n)), right: cmp('<', i, int(BigInt(d.size))), type: BOOL, at }, at });
      return slot;
    });
    const current: Place = { ...target, dynamic: target.dynamic.map((d, j) => ({ ...d, index: this.read(whole(indices[j]), at) })) };
    const value = this.slot('__value', target.type);
    body.push({ kind: 'declare', slot: value, init: compute(this.read(current, at)), at });
    for (let p = 0; p < positions; p++) {
      let rest = p;
      let offset = target.offset;
      let cond: IExpr | null = null;
      for (let j = target.dynamic.length - 1; j >= 0; j--) {
        const d = target.dynamic[j];
        const k = rest % d.size;
        rest = Math.floor(rest / d.size);
        offset += k * d.stride;
        const test = cmp('==', this.read(whole(indices[j]), at), int(BigInt(k)));
        cond = cond ? { kind: 'logic', op: '&&', left: test, right: cond, type: BOOL, at } : test;
      }
      const write: IStmt = { kind: 'assign', place: { slot: target.slot, type: target.type, offset, dynamic: [] }, value: this.read(whole(value), at), compound: false, at };
      body.push({ kind: 'if', cond: cond!, then: [write], else: null, at });
    }
    return { kind: 'block', body, at };
  }

  /** Storage written (and read first, for x++ and x += e): a run-time index is not supported here. */
  private writable(e: Expr): Place {
    const place = this.place(e) ?? this.internal(e.at, 'a write to something that is not storage');
    if (this.flatten(place)!.dynamic.length) this.internal(e.at, 'a write at a run-time index');
    return place;
  }

  private inBounds(k: bigint, t: Extract<Type, { k: 'array' }>, at: Position): void {
    if (k < 0n || k >= t.size!) {
      this.report(at, `index ${k} is out of bounds for ${show(t)}`);
      throw new Abort();
    }
  }

  private read(place: Place, at: Position): IExpr {
    return { kind: 'read', place, type: place.type, at };
  }

  // ---------------------------------------------------------------- expressions

  private expr(e: Expr): IExpr {
    this.tick();
    const at = e.at;
    switch (e.kind) {
      case 'int':
      case 'bool':
        return { kind: 'const', value: e.value, type: this.typeOf(e), at };
      case 'bytes':
        return { kind: 'const', value: e.hex, type: this.typeOf(e), at };
      case 'string':
        return { kind: 'const', value: Buffer.from(e.value, 'utf8').toString('hex'), type: this.typeOf(e), at };
      case 'ident':
      case 'member': {
        const place = this.place(e);
        if (place) return this.read(place, at);
        const v = evaluate(e, this.constScope());
        if (v) return { kind: 'const', value: v.value, type: this.typeOf(e), at };
        if (e.kind === 'ident') return this.internal(at, `unknown name ${e.name}`);
        // A field of a computed value (a struct a function returned): computed whole, the field kept.
        const object = this.expr(e.object);
        const f = this.layout.field(object.type, e.name) ?? this.internal(at, `${show(object.type)} has no field ${e.name}`);
        return { kind: 'narrow', object, start: f.offset, count: this.layout.size(f.type), type: f.type, at };
      }
      case 'this':
        return this.internal(at, "'this' as a value");
      case 'call':
        return this.call(e);
      case 'unary':
      case 'postfix': {
        if (e.op === '++' || e.op === '--') {
          const place = this.writable(e.operand);
          return { kind: 'step', place, op: e.op, prefix: e.kind === 'unary', type: place.type, at };
        }
        // A negative literal is one minimal push (-1 is OP_1NEGATE), as the official compiler writes it.
        if (e.op === '-' && e.operand.kind === 'int') return { kind: 'const', value: -e.operand.value, type: this.typeOf(e), at };
        return { kind: 'unary', op: e.op, operand: this.expr(e.operand), type: this.typeOf(e), at };
      }
      case 'binary': {
        if (e.op === '&&' || e.op === '||') return { kind: 'logic', op: e.op, left: this.expr(e.left), right: this.expr(e.right), type: BOOL, at };
        const left = this.expr(e.left);
        if ((e.op === '==' || e.op === '!=') && !familyOf(left.type)) return { kind: 'compare', op: e.op, left, right: this.expr(e.right), type: BOOL, at };
        return this.operation(e.op, left, e.right, this.typeOf(e), at);
      }
      case 'ternary': {
        const cond = this.expr(e.cond);
        const then = this.expr(e.then);
        const other = this.expr(e.else);
        return { kind: 'ternary', cond, then, else: other, type: this.typeOf(e, then), at };
      }
      case 'index': {
        const place = this.place(e);
        if (place) return this.read(place, at);
        const object = this.expr(e.object);
        const t = object.type;
        if (t.k !== 'array' || t.size === null) return this.internal(at, `indexing ${show(t)}`);
        const k = intValue(e.index, this.constScope()) ?? this.internal(e.index.at, 'a run-time index into a computed array');
        this.inBounds(k, t, e.index.at);
        const stride = this.layout.size(t.elem);
        return { kind: 'narrow', object, start: Number(k) * stride, count: stride, type: t.elem, at };
      }
      case 'slice':
        return { kind: 'slice', object: this.expr(e.object), start: e.start ? this.expr(e.start) : null, end: e.end ? this.expr(e.end) : null, type: this.typeOf(e), at };
      case 'array': {
        const parts = e.items.map((x) => this.expr(x));
        const t = this.types.get(e);
        const type: Type = t && isConcrete(t) ? t : { k: 'array', elem: parts[0].type, size: BigInt(parts.length) };
        return { kind: 'composite', parts, type, at };
      }
      case 'structLit':
        return { kind: 'composite', parts: e.fields.map((x) => this.expr(x)), type: this.typeOf(e), at };
    }
  }

  /** `left op right` on scalars; an int shift by a constant is a multiplication or division by 2ⁿ. */
  private operation(op: string, left: IExpr, right: Expr, type: Type, at: Position): IExpr {
    if ((op === '<<' || op === '>>') && familyOf(left.type) === 'int') {
      const n = intValue(right, this.constScope());
      if (n === null || n < 0n) return this.internal(right.at, 'an int shift count that is not a known non-negative constant');
      return { kind: 'shift', op, left, count: n, type, at };
    }
    return { kind: 'binary', op, left, right: this.expr(right), type, at };
  }

  private call(e: Call): IExpr {
    const target = this.facts.calls.get(e);
    if (target) return this.userCall(e, target.owner, target.fn);
    const name = e.callee.kind === 'ident' ? e.callee.name : '';
    const builtin = BUILTINS[name];
    if (builtin) {
      const args: IExpr[] = [];
      const sizes: bigint[] = [];
      e.args.forEach((a, i) => {
        if (builtin.params[i] !== 'ctc') return void args.push(this.expr(a));
        const n = intValue(a, this.constScope()) ?? this.internal(a.at, `a size of ${name}() that is not known`);
        const min = name === 'repeat' ? 1n : 0n;
        if (n < min || n > MAX_UNROLL) {
          this.report(a.at, `the size of ${name}() must be from ${min} to ${MAX_UNROLL}, not ${n}`);
          throw new Abort();
        }
        sizes.push(n);
      });
      const type = name === 'repeat' ? { k: 'array' as const, elem: args[0].type, size: sizes[0] } : this.typeOf(e);
      return { kind: 'builtin', name, args, sizes, type, at: e.at };
    }
    if (e.args.length !== 1) return this.internal(e.at, `a call of ${name}`);
    return { kind: 'convert', operand: this.expr(e.args[0]), type: this.typeOf(e), at: e.at };
  }

  /** A user function, inlined: in its owner's scope, with its `this` and its type arguments. */
  private userCall(e: Call, owner: ContractLike, fn: Func): IExpr {
    const callee = e.callee;
    let self: Self | null = null;
    let generics = genericsOf(owner);
    if (!fn.isStatic) {
      if (callee.kind === 'ident' || (callee.kind === 'member' && callee.object.kind === 'this')) {
        self = this.scope.self;
        generics = this.scope.generics;
      } else if (callee.kind === 'member') {
        const place = this.flatten(this.place(callee.object));
        if (!place || place.dynamic.length || place.type.k !== 'object') return this.internal(callee.at, `${fn.name}() on a value that is not fixed storage`);
        self = { kind: 'value', slot: place.slot, offset: place.offset, type: place.type };
        generics = genericsOf(place.type.decl, place.type.args);
      }
    }
    return this.inline(e, owner, fn, generics, self);
  }

  private inline(e: Call, owner: ContractLike, fn: Func, generics: Map<string, Type>, self: Self | null): IExpr {
    const scope = this.newScope(owner, generics, fn, self, false);
    const asm = fn.body.length === 1 && fn.body[0].kind === 'asm' ? fn.body[0] : null;
    const params: Frame['params'] = [];
    const caller = this.constScope();
    fn.params.forEach((p, i) => {
      const arg = e.args[i];
      if (p.isStaticConst) {
        const v = evaluate(arg, caller) ?? this.internal(arg.at, `the static const argument of ${fn.name}() is not known`);
        scope.bound.set(this.declared(p), v);
        return;
      }
      const value = this.expr(arg);
      params.push({ slot: this.within(scope, () => this.bindParam(p)), arg: value });
    });
    const returns = fn.returnType ? this.within(scope, () => this.resolve(fn.returnType!, fn.at)) : BOOL;
    if (asm) {
      const read = readAsm(asm.text, `${owner.name}.${fn.name}`);
      if ('error' in read) return this.internal(asm.at, read.error);
      return { kind: 'asm', args: params.map((p) => p.arg), tokens: read.tokens, type: returns, at: e.at };
    }
    const frame = this.within(scope, (): Frame => {
      const name = `${owner.name}.${fn.name}`;
      if (fn.visibility === 'public') return { name, params, body: fn.body.map((s) => this.stmt(s)), result: null };
      const last = fn.body[fn.body.length - 1];
      if (!last || last.kind !== 'return') return this.internal(fn.at, `${fn.name} does not end with return`);
      const body = fn.body.slice(0, -1).map((s) => this.stmt(s));
      this.at = last.at;
      scope.typer.statement(last);
      this.checkpoint();
      return { name, params, body, result: this.expr(last.value) };
    });
    return { kind: 'inline', frame, type: returns, at: e.at };
  }
}

/** No unknown part, every array size known. */
export function isConcrete(t: Type): boolean {
  switch (t.k) {
    case 'any':
      return false;
    case 'array':
      return t.size !== null && isConcrete(t.elem);
    case 'struct':
    case 'object':
      return t.decl.generics.every((g) => {
        const a = t.args.get(g);
        return a !== undefined && isConcrete(a);
      });
    default:
      return true;
  }
}
