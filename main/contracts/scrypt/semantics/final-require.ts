import type { Diagnostics } from '../diagnostics.js';
import type { Facts } from './model.js';

/**
 * Pass 5, the final `require` (CashScript's EnsureFinalRequireTraversal). A public function succeeds when
 * its last statement, a `require(…)`, leaves true; so every public function of a contract must end with
 * one. (The scrypt-ts transpiler appends `require(true);` when a method ends in a branch or loop that
 * asserts, so its output has this shape too.) A public function written entirely in `asm { … }` is left
 * alone: its Script leaves the result.
 */
export function checkFinalRequire(facts: Facts, diags: Diagnostics): void {
  for (const c of facts.env.contracts) {
    for (const f of c.functions) {
      if (f.visibility !== 'public') continue;
      const last = f.body[f.body.length - 1];
      if (f.body.length && f.body.every((s) => s.kind === 'asm')) continue; // written in Script: its asm leaves the result
      if (!last || last.kind !== 'require') {
        diags.error(
          f.at,
          `public function ${f.name} must end with require(…)${last ? `, not ${describe(last.kind)}` : ' (its body is empty)'}`,
        );
      }
    }
  }
}

function describe(kind: string): string {
  switch (kind) {
    case 'if':
      return 'an if statement (put the final require after it)';
    case 'loop':
      return 'a loop (put the final require after it)';
    case 'block':
      return 'a block';
    case 'var':
    case 'new':
      return 'a declaration';
    case 'assign':
      return 'an assignment';
    case 'expr':
      return 'an expression statement';
    default:
      return `a ${kind} statement`;
  }
}
