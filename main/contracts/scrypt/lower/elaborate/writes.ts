import type { Position } from '../../diagnostics.js';
import { BOOL, INT } from '../../semantics/model.js';
import type { IExpr, IStmt, Place } from '../ir.js';
import type { ElabContext } from './context.js';
import { readOf, wholeOf } from './places.js';

/** The most positions one write at run-time indices may test (each is a branch in the script). */
export const MAX_WRITE_POSITIONS = 1024;

/**
 * A write at run-time indices: each index is evaluated once and checked against its array's size, the
 * new value is computed once (from the current one, for x += e and x++), then written at the one
 * position the indices name, by a test per position (the positions are known: the sizes are constants).
 */
export function dynamicWrite(cx: ElabContext, target: Place, compute: (current: IExpr) => IExpr, at: Position): IStmt {
  const positions = target.dynamic.reduce((n, d) => n * d.size, 1);
  if (positions > MAX_WRITE_POSITIONS) {
    cx.fail(
      at,
      `a write at run-time indices into ${positions} positions (at most ${MAX_WRITE_POSITIONS}); use smaller arrays or a constant index`,
    );
  }
  const body: IStmt[] = [];
  const int = (value: bigint): IExpr => ({ kind: 'const', value, type: INT, at });
  const cmp = (op: string, left: IExpr, right: IExpr): IExpr => ({ kind: 'binary', op, left, right, type: BOOL, at });
  const indices = target.dynamic.map((d, j) => {
    const slot = cx.slot(`__index${j}`, INT);
    body.push({ kind: 'declare', slot, init: d.index, at });
    const i = readOf(wholeOf(slot), at);
    body.push({
      kind: 'require',
      cond: { kind: 'logic', op: '&&', left: cmp('>=', i, int(0n)), right: cmp('<', i, int(BigInt(d.size))), type: BOOL, at },
      at,
    });
    return slot;
  });
  const current: Place = { ...target, dynamic: target.dynamic.map((d, j) => ({ ...d, index: readOf(wholeOf(indices[j]), at) })) };
  const value = cx.slot('__value', target.type);
  body.push({ kind: 'declare', slot: value, init: compute(readOf(current, at)), at });
  for (let p = 0; p < positions; p++) {
    let rest = p;
    let offset = target.offset;
    let cond: IExpr | null = null;
    for (let j = target.dynamic.length - 1; j >= 0; j--) {
      const d = target.dynamic[j];
      const k = rest % d.size;
      rest = Math.floor(rest / d.size);
      offset += k * d.stride;
      const test = cmp('==', readOf(wholeOf(indices[j]), at), int(BigInt(k)));
      cond = cond ? { kind: 'logic', op: '&&', left: test, right: cond, type: BOOL, at } : test;
    }
    const write: IStmt = {
      kind: 'assign',
      place: { slot: target.slot, type: target.type, offset, dynamic: [] },
      value: readOf(wholeOf(value), at),
      compound: false,
      at,
    };
    body.push({ kind: 'if', cond: cond!, then: [write], else: null, at });
  }
  return { kind: 'block', body, at };
}
