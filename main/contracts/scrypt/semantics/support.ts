import type { ContractLike, Expr, Stmt, TypeRef } from '../ast.js';
import type { Diagnostics, Position } from '../diagnostics.js';
import { STDLIB_NAMES } from '../stdlib.js';
import { readAsm } from './asm.js';
import { aliasCastTarget, castFamilies } from './builtins.js';
import { namedInt } from './constants.js';
import { STD_NAMES, bodiesOf, eachExpr, eachStmt, startOf, stmtExprs, walkProgram, type Facts } from './model.js';

/**
 * What this compiler can generate code for, checked before any is generated. The semantic passes accept
 * every valid sCrypt program (they are also run on sources that are never compiled); this pass reports,
 * at its source position, each valid construct the code generator does not provide, so that a program it
 * accepts always compiles:
 * - standard-library names this compiler does not ship (Util, P2PKH, P2PK, the HashPuzzle contracts);
 * - a struct, library or contract name called like a function (`Point(1, 2)`);
 * - `asm { … }` anywhere but as the whole body of a function (elsewhere its effect on the stack is unknown
 *   to the code generator), and asm text it cannot read;
 * - `static const` parameters of a public function (its arguments come from the unlocking script).
 */
export function checkSupport(facts: Facts, diags: Diagnostics): void {
  const { env } = facts;
  const unprovided = (name: string) => STD_NAMES.has(name) && !env.items.has(name);
  const report = (at: Position, name: string) =>
    diags.error(
      at,
      `${name} belongs to sCrypt's standard library, but this compiler does not provide it (it provides ${STDLIB_NAMES.join(', ')}); declare it in the file`,
    );

  const type = (ref: TypeRef) => {
    if (unprovided(ref.name)) report(ref.at, ref.name);
    ref.generics.forEach(type);
    ref.dims.forEach(expr);
  };

  function expr(root: Expr): void {
    eachExpr(root, (e) => {
      if (e.kind === 'new') type(e.type);
      if (e.kind === 'member' && e.object.kind === 'ident' && !facts.idents.has(e.object) && unprovided(e.object.name))
        report(e.object.at, e.object.name);
      if (e.kind !== 'call' || e.callee.kind !== 'ident' || facts.calls.has(e)) return;
      const name = e.callee.name;
      if (unprovided(name)) report(e.callee.at, name);
      else if (env.items.has(name) && !castFamilies(name) && !aliasCastTarget(env, name)) {
        const item = env.items.get(name)!;
        const how =
          item.kind === 'struct'
            ? 'write a struct literal {…}'
            : item.kind === 'library' || item.kind === 'contract'
              ? `create one with new ${name}(…)`
              : 'use a value of it';
        diags.error(startOf(e), `${name}(…) is not a function; ${how}`);
      }
    });
  }

  const stmt = (root: Stmt) =>
    eachStmt(root, (s) => {
      if (s.kind === 'new' || (s.kind === 'var' && s.type !== 'auto')) type(s.type as TypeRef);
      stmtExprs(s).forEach(expr);
    });

  const asm = (c: ContractLike) => {
    for (const { fn, body } of bodiesOf(c)) {
      // A public function written in asm runs on its parameters alone (what sits above them is dropped first);
      // called as another contract's method (hl.spend(x)) it cannot be inlined, which the call reports.
      const whole = fn !== null && body.length === 1 && body[0].kind === 'asm';
      for (const s of body) {
        eachStmt(s, (x) => {
          if (x.kind !== 'asm') return;
          if (!whole)
            diags.error(
              x.at,
              'an asm block must be the whole body of a function; the code generator cannot follow the stack through asm anywhere else',
            );
          else {
            const read = readAsm(x.text, `${c.name}.${fn.name}`, (name) => namedInt(name, { facts, owner: c }));
            if ('error' in read) diags.error(x.at, read.error);
          }
        });
      }
    }
  };

  walkProgram(env.program, {
    enter: (item) => item && asm(item),
    type,
    expr,
    stmt,
    fn: (f) => {
      if (f.visibility !== 'public') return;
      for (const p of f.params)
        if (p.isStaticConst)
          diags.error(
            p.at,
            `public function ${f.name} cannot take static const parameters (${p.name}): its arguments come from the unlocking script`,
          );
    },
  });
}
