import type { Expr, Stmt } from '../ast.js';
import type { Diagnostics } from '../diagnostics.js';
import { LayoutTooLarge, type Layout } from '../semantics/layout.js';
import type { Facts } from '../semantics/model.js';
import { Abort, ElabContext } from './elaborate/context.js';
import { elaborateExpr } from './elaborate/expressions.js';
import { contractConstructor, publicFunction } from './elaborate/functions.js';
import { builtWithin } from './elaborate/library-values.js';
import { placeOf } from './elaborate/places.js';
import { elaborateStmt } from './elaborate/statements.js';
import type { BuiltValue, ContractIR, IExpr, IStmt, Place } from './ir.js';
import type { StatefulLowering } from './stateful.js';

/**
 * The lowering from the checked syntax tree to the IR (ir.ts). Every function is instantiated where it
 * is called: the type checker's rules run again over its body with the call's type arguments, static
 * const arguments and loop values bound, so each expression gets a concrete type; errors that only show
 * in an instantiation (a generic library used with a type its code does not fit, a size out of range)
 * are reported at their source position. Calls are inlined, loops unrolled, named constants replaced by
 * their values, names resolved to slots. The result is checked by verify.ts before code generation.
 *
 * One concern per module under elaborate/: the shared context (scopes, slots, errors, types), the
 * contract's entry points, statements, loops, expressions, calls, places (storage), writes at run-time
 * indices, library values and their constructors, and the stack constants.
 */
export function elaborate(lowering: StatefulLowering, facts: Facts, layout: Layout, diags: Diagnostics): ContractIR | null {
  return new Elaborator(lowering, facts, layout, diags).run();
}

class Elaborator extends ElabContext {
  expr(e: Expr): IExpr {
    return elaborateExpr(this, e);
  }

  stmt(s: Stmt): IStmt {
    return elaborateStmt(this, s);
  }

  place(e: Expr): Place | null {
    return placeOf(this, e);
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
      // Without an explicit constructor, a library value with one inside a property is built from its own
      // arguments; with one, properties start as OP_0 slots and code assigns them, and such values inside
      // the constructor's parameters are built from theirs.
      const built: BuiltValue[] = [];
      if (!main.ctor) properties.forEach((slot) => builtWithin(this, slot, built));
      const ctor = main.ctor ? contractConstructor(this, main, main.ctor, built) : null;
      const publics = main.functions.filter((f) => f.visibility === 'public').map((f) => publicFunction(this, main, f));
      return { name: main.name, at: main.at, constants: this.constants.inOrder(), properties, built, ctor, publics };
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
}
