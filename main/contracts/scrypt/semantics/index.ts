import type { Program } from '../ast.js';
import type { Diagnostics } from '../diagnostics.js';
import { checkConstants } from './ctc.js';
import { checkFinalRequire } from './final-require.js';
import { newFacts, type Facts } from './model.js';
import { checkRecursion } from './recursion.js';
import { checkStructure } from './structure.js';
import { checkSymbols } from './symbols.js';
import { checkTypes } from './typecheck.js';

/**
 * The semantic checks between parsing and code generation, as separate passes over the tree (modelled
 * on CashScript's SymbolTableTraversal, TypeCheckTraversal and EnsureFinalRequireTraversal):
 * 1. structure: a main contract with a public function, no public functions in libraries, no reserved method names;
 * 2. symbols: scopes, undefined and redeclared names, writes to constants, non-static members reached through
 *    `this` in static functions, `struct T` naming a struct, argument counts;
 * 3. types: operators, conditions, calls, assignments (bytes becomes a subtype only by a cast), literals, returns;
 * 4. compile-time constants: loop counts, array sizes, indices of writes, static const arguments;
 * 5. final require in every public function;
 * 6. no recursion.
 * Returns the facts the passes established (symbols, calls, types of variables), which the lowering uses.
 * Every pass runs, so one run reports many problems, each at its file:line:column. The standard library
 * is expected among the program's items as ordinary `library` declarations.
 */
export function checkProgram(program: Program, diags: Diagnostics): Facts {
  const facts = newFacts(program);
  checkStructure(facts, diags);
  checkSymbols(facts, diags);
  checkTypes(facts, diags);
  checkConstants(facts, diags);
  checkFinalRequire(facts, diags);
  checkRecursion(facts, diags);
  diags.items.sort((a, b) => a.line - b.line || a.column - b.column);
  return facts;
}

export { RESERVED_METHOD_NAMES } from './structure.js';
export { MAX_ARRAY_SIZE } from './ctc.js';
