import type { ContractLike, Program } from '../ast.js';
import { Diagnostics } from '../diagnostics.js';
import { checkProgram } from '../semantics/index.js';
import { Layout } from '../semantics/layout.js';
import type { Facts } from '../semantics/model.js';
import { elaborate } from './elaborate.js';
import type { ContractIR } from './ir.js';
import { lowerStateful } from './stateful.js';
import { IRError, verifyIR } from './verify.js';

/**
 * The lowering between the semantic passes and code generation: stateful contracts are rewritten into
 * ordinary sCrypt, which the semantic passes check again; then the main contract is elaborated into the
 * IR (instantiation, inlining, unrolling, constants), which is verified. Errors are reported at their
 * source positions; null when there were any.
 */
export function lower(program: Program, main: ContractLike, facts: Facts, diags: Diagnostics): { ir: ContractIR; layout: Layout } | null {
  const stateful = lowerStateful(program, main, facts, new Layout(facts), diags);
  if (diags.hasErrors) return null;
  let checked = facts;
  if (stateful.program !== program) {
    const again = new Diagnostics(diags.file);
    checked = checkProgram(stateful.program, again);
    for (const d of again.items) diags.error(d, `internal compiler error in the stateful lowering: ${d.message}`);
    if (diags.hasErrors) return null;
  }
  const layout = new Layout(checked);
  const ir = elaborate(stateful, checked, layout, diags);
  if (!ir) return null;
  try {
    verifyIR(ir, layout);
  } catch (err) {
    if (!(err instanceof IRError)) throw err;
    diags.error(main.at, `internal compiler error: the lowered program is inconsistent (${err.message})`);
    return null;
  }
  return { ir, layout };
}
