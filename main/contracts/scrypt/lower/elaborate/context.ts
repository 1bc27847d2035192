import type { ContractLike, Expr, Func, Param, Stmt } from '../../ast.js';
import type { Diagnostics, Position } from '../../diagnostics.js';
import type { ConstScope } from '../../semantics/constants.js';
import type { Layout } from '../../semantics/layout.js';
import { BOOL, resolveType, show, type ConstVal, type Facts, type Type, type VarSymbol } from '../../semantics/model.js';
import { Typer } from '../../semantics/typer.js';
import type { IExpr, IStmt, Place, Slot } from '../ir.js';
import type { StatefulLowering } from '../stateful.js';
import { StackConstants } from './stack-constants.js';
import { isConcrete } from './types.js';

/** Elaboration stopped: what stopped it is already reported. */
export class Abort extends Error {}

/** What `this` is where code is elaborated: the contract's properties, or one library (or contract) value. */
export type Self = { kind: 'contract' } | { kind: 'value'; slot: Slot; offset: number; type: ObjectType };

export type ObjectType = Extract<Type, { k: 'object' }>;

/** One function body being elaborated: its owner, type arguments, `this`, variables and constant bindings. */
export interface Scope {
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

/**
 * What every part of the elaboration shares: the scope code is elaborated in, the slots handed out, the
 * types the typer recorded, the contract's properties and stack constants, and error reporting. The three
 * recursive elaborators (expressions, statements, places) are implemented in their own modules and wired
 * together by elaborate.ts, so those modules never import each other in a circle.
 */
export abstract class ElabContext {
  /** Where elaboration is: an error with no better position (an internal one) is reported here. */
  at: Position;
  /** IR nodes elaborated so far: unrolled loops and inlined calls multiply fast. */
  nodes = 0;
  scope!: Scope;
  /** The contract's properties by name (`this.x`), and the code part once a prelude has read it. */
  readonly props = new Map<string, Slot>();
  readonly constants: StackConstants;
  private slotCount = 0;
  private failed = false;
  /** The type of each expression, recorded by the typer as it checks each statement. */
  private readonly types = new Map<Expr, Type>();

  constructor(
    readonly lowering: StatefulLowering,
    readonly facts: Facts,
    readonly layout: Layout,
    readonly diags: Diagnostics,
  ) {
    this.at = lowering.main.at;
    this.constants = new StackConstants(facts.env.program);
  }

  abstract expr(e: Expr): IExpr;
  abstract stmt(s: Stmt): IStmt;
  /** The storage an expression names, or null when it is a value (a constant, a computed result). */
  abstract place(e: Expr): Place | null;

  /** The statements of an if branch or loop body: a block's own, or the one statement. */
  branch(s: Stmt): IStmt[] {
    return (s.kind === 'block' ? s.body : [s]).map((x) => this.stmt(x));
  }

  // ---------------------------------------------------------------- scopes and slots

  newScope(owner: ContractLike, generics: Map<string, Type>, fn: Func | null, self: Self | null, entry: boolean): Scope {
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

  within<T>(scope: Scope, f: () => T): T {
    const outer = this.scope;
    this.scope = scope;
    try {
      return f();
    } finally {
      this.scope = outer;
    }
  }

  slot(name: string, type: Type): Slot {
    return { id: this.slotCount++, name, type };
  }

  declared(node: Stmt | Param): VarSymbol {
    const sym = this.facts.decls.get(node);
    if (!sym) this.internal(node.at, 'a declaration without a symbol');
    return sym;
  }

  /** A parameter of the function being elaborated, given a new slot in the current scope. */
  bindParam(p: Param): Slot {
    const slot = this.slot(p.name, this.resolve(p.type, p.at));
    this.scope.slots.set(this.declared(p), slot);
    return slot;
  }

  constScope(): ConstScope {
    return { facts: this.facts, owner: this.scope.owner, bound: this.scope.bound };
  }

  // ---------------------------------------------------------------- errors

  report(at: Position, message: string): void {
    this.diags.error(at, message);
    this.failed = true;
  }

  /** Reports an error the program has (a limit, a bound) and stops. */
  fail(at: Position, message: string): never {
    this.report(at, message);
    throw new Abort();
  }

  /** After the typer has checked a statement: stop if the instantiation had an error. */
  checkpoint(): void {
    if (this.failed) throw new Abort();
  }

  internal(at: Position, what: string): never {
    this.diags.error(at, `internal compiler error: ${what}`);
    throw new Abort();
  }

  tick(): void {
    this.nodes++;
  }

  // ---------------------------------------------------------------- types

  resolve(ref: Parameters<typeof resolveType>[0], at: Position): Type {
    return this.concrete(this.scope.typer.resolve(ref), at);
  }

  /** A type code can be generated for: nothing unknown, every array size known. */
  concrete(t: Type, at: Position): Type {
    if (!isConcrete(t)) this.internal(at, `the type ${show(t)} is not fully known here`);
    return t;
  }

  /** The type the typer recorded for an expression, when it is fully known. */
  knownType(e: Expr): Type | null {
    const t = this.types.get(e);
    return t && isConcrete(t) ? t : null;
  }

  /** The type the typer gave an expression; where it could not know a size (a static const argument's), the IR's. */
  typeOf(e: Expr, elaborated?: IExpr): Type {
    const t = this.knownType(e);
    if (t) return t;
    if (elaborated) return this.concrete(elaborated.type, e.at);
    return this.internal(e.at, 'an expression without a type');
  }
}
