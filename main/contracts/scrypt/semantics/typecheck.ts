import type { ContractLike, Expr, Func, Param, Stmt, TypeRef } from '../ast.js';
import type { Diagnostics, Position } from '../diagnostics.js';
import { ANY, assignable, castHint, eachStmt, genericsOf, show, startOf, type Facts, type Type } from './model.js';
import { Typer } from './typer.js';

/**
 * Pass 3, types (CashScript's TypeCheckTraversal). Gives every expression a type and checks:
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

class TypePass {
  private readonly typer: Typer;

  constructor(
    private readonly facts: Facts,
    private readonly diags: Diagnostics,
  ) {
    this.typer = new Typer({
      facts,
      owner: null,
      generics: new Map(),
      fn: null,
      varType: (sym) => sym.type ?? ANY,
      report: (at, message) => diags.error(at, message),
    });
  }

  private resolve(ref: TypeRef): Type {
    return this.typer.resolve(ref);
  }

  private error(at: Position, message: string): void {
    this.diags.error(at, message);
  }

  run(): void {
    const ctx = this.typer.ctx;
    for (const item of this.facts.env.program.items) {
      ctx.owner = null;
      ctx.fn = null;
      ctx.generics = new Map();
      if (item.kind === 'const') this.initialiser(item.value, this.resolve(item.type), item.name);
      else if (item.kind === 'contract' || item.kind === 'library') {
        ctx.owner = item;
        ctx.generics = genericsOf(item);
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
      this.typer.ctx.fn = f;
      this.params(f.params);
      for (const s of f.body) this.stmt(s);
      this.returns(f);
      this.typer.ctx.fn = null;
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
    if (!last || last.kind !== 'return')
      this.error(f.at, `function ${f.name} must end with a return statement (of ${show(this.resolve(f.returnType))})`);
    for (const r of all) if (r !== last) this.error(r.at, `only one return is allowed in ${f.name}, as its last statement`);
  }

  private initialiser(init: Expr, declared: Type, name: string): void {
    const t = this.typer.expr(init, declared);
    if (!assignable(t, declared))
      this.error(startOf(init), `cannot assign ${show(t)} to ${show(declared)} ${name}${castHint(t, declared)}`);
  }

  /** A statement, then the statements nested in it; declared variables get their types. */
  private stmt(s: Stmt): void {
    const declared = this.typer.statement(s);
    const sym = this.facts.decls.get(s);
    if (sym && declared) sym.type = declared;
    if (s.kind === 'if') {
      this.stmt(s.then);
      if (s.else) this.stmt(s.else);
    } else if (s.kind === 'loop') this.stmt(s.body);
    else if (s.kind === 'block') for (const x of s.body) this.stmt(x);
  }
}
