import type { Stmt } from '../../ast.js';
import { MAX_UNROLL } from '../../semantics/builtins.js';
import { intValue } from '../../semantics/constants.js';
import type { IStmt } from '../ir.js';
import type { ElabContext } from './context.js';

/** The most IR nodes one contract may elaborate to: unrolled loops and inlined calls multiply fast. */
export const MAX_ELABORATED = 1_000_000;

/**
 * `loop (n) [: i] { … }`, unrolled: the count is a constant; each iteration is the body elaborated again
 * with the induction variable bound to its value, so indices and sizes computed from it are known.
 */
export function unrollLoop(cx: ElabContext, s: Extract<Stmt, { kind: 'loop' }>): IStmt {
  const n = intValue(s.count, cx.constScope());
  if (n === null) return cx.internal(s.count.at, 'a loop count that is not known');
  if (n < 0n || n > MAX_UNROLL) cx.fail(s.count.at, `the loop count must be from 0 to ${MAX_UNROLL}, not ${n}`);
  const induction = s.induction ? cx.declared(s) : null;
  const iterations: IStmt[][] = [];
  for (let k = 0n; k < n; k++) {
    if (induction) cx.scope.bound.set(induction, { type: 'int', value: k });
    iterations.push(cx.branch(s.body));
    if (cx.nodes > MAX_ELABORATED) {
      cx.fail(
        s.at,
        `the program unrolls to more than ${MAX_ELABORATED} operations here (this loop has ${n} iterations); use fewer iterations`,
      );
    }
  }
  if (induction) cx.scope.bound.delete(induction);
  return { kind: 'unrolled', iterations, at: s.at };
}
