import type { IExpr } from '../lower/ir.js';
import { BUILTINS, TRUTHY_OPS, conversionOps } from '../semantics/builtins.js';
import { familyOf } from '../semantics/layout.js';
import type { Type } from '../semantics/model.js';
import type { Gen } from './stack.js';

/** A built-in call, from the one built-ins table: its arguments, then its opcodes, or its expansion. */
export function emitBuiltin(g: Gen, e: Extract<IExpr, { kind: 'builtin' }>): void {
  const { m } = g;
  const code = BUILTINS[e.name].code;
  if ('ops' in code) {
    e.args.forEach((a) => g.expr(a));
    m.emit(...code.ops);
    m.stack.splice(m.stack.length - e.args.length, e.args.length, null);
    return;
  }
  switch (code.expand) {
    case 'reverseBytes': {
      g.expr(e.args[0]);
      const n = e.sizes[0];
      for (let i = 1n; i < n; i++) m.emit('OP_1', 'OP_SPLIT');
      for (let i = 1n; i < n; i++) m.emit('OP_SWAP', 'OP_CAT');
      return;
    }
    case 'repeat': {
      // The value once, then each further copy PICKed from the one before.
      g.expr(e.args[0]);
      const k = g.layout.size(e.args[0].type);
      for (let copy = 1n; copy < e.sizes[0]; copy++) {
        for (let j = 0; j < k; j++) {
          m.pick(k - 1);
          m.temps(1);
        }
      }
      return;
    }
    case 'flattenSha256': {
      // Leaves l0…lk-1 on the stack: hash the last, then each one before it, prepending, then hash the join.
      g.expr(e.args[0]);
      const k = g.layout.size(e.args[0].type);
      m.emit('OP_SHA256');
      for (let j = 1; j < k; j++) m.emit('OP_SWAP', 'OP_SHA256', 'OP_SWAP', 'OP_CAT');
      if (k > 1) m.emit('OP_SHA256');
      m.stack.splice(m.stack.length - k, k, null);
      return;
    }
    case 'checkMultiSig': {
      const before = m.stack.length;
      m.emit('OP_0');
      m.temps(1);
      for (const a of e.args) {
        g.expr(a);
        m.pushNumber(arraySize(a.type));
        m.temps(1);
      }
      m.emit('OP_CHECKMULTISIG');
      m.stack.splice(before, m.stack.length - before, null);
      return;
    }
  }
}

function arraySize(t: Type): bigint {
  if (t.k !== 'array' || t.size === null) throw new Error('internal: checkMultiSig of a non-array');
  return t.size;
}

export function emitConversion(g: Gen, e: Extract<IExpr, { kind: 'convert' }>): void {
  g.expr(e.operand);
  g.m.emit(...conversionOps(familyOf(e.operand.type)!, familyOf(e.type)!));
}

/** A condition as a bool: an int is true unless 0 (OP_0NOTEQUAL, as the official output does); bytes unless all zero. */
export function emitTruthy(g: Gen, type: Type): void {
  const f = familyOf(type);
  if (f === 'int' || f === 'bytes') g.m.emit(...TRUTHY_OPS[f]);
}
