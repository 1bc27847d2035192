import type { Stmt } from '../../ast.js';
import { MAX_UNROLL } from '../../semantics/builtins.js';
import { MAX_LOCKING_SCRIPT_BYTES } from '../../codegen/script-size.js';
import { intValue } from '../../semantics/constants.js';
import type { IStmt } from '../ir.js';
import type { ElabContext } from './context.js';

/**
 * The most IR nodes one contract may elaborate to, so that unrolled loops and inlined calls stop before they
 * fill memory. Not a limit of its own: nearly every node is at least one byte of script (a push, an opcode,
 * an iteration's OP_NOP), so a program with more nodes than the largest usable locking script has bytes
 * could not be used anyway (codegen/script-size.ts); code generation then checks the bytes themselves.
 */
export const MAX_ELABORATED = MAX_LOCKING_SCRIPT_BYTES;

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
        `the program unrolls to more than ${MAX_ELABORATED.toLocaleString('en-US')} operations here (this loop has ${n} iterations), ` +
          'more than the largest locking script default Bitcoin SV nodes relay has bytes; use fewer iterations',
      );
    }
  }
  if (induction) cx.scope.bound.delete(induction);
  return { kind: 'unrolled', iterations, at: s.at };
}
