import type { Frame, IExpr } from '../lower/ir.js';
import { pushBytes, pushInt } from '../script.js';
import { familyOf, type Family } from '../semantics/layout.js';
import { emitBuiltin, emitConversion, emitTruthy } from './builtins.js';
import { readPlace, writePlace } from './places.js';
import type { Gen } from './stack.js';

const ARITH: Record<string, string> = { '+': 'OP_ADD', '-': 'OP_SUB', '*': 'OP_MUL', '/': 'OP_DIV', '%': 'OP_MOD' };
const COMPARE: Record<string, string> = {
  '<': 'OP_LESSTHAN',
  '<=': 'OP_LESSTHANOREQUAL',
  '>': 'OP_GREATERTHAN',
  '>=': 'OP_GREATERTHANOREQUAL',
};
const BITWISE: Record<string, string> = { '&': 'OP_AND', '|': 'OP_OR', '^': 'OP_XOR' };

/**
 * Expressions, in the official compiler's non-optimised shape: every value ends on top of the stack as its
 * leaves; operands are computed left to right, then the operator's opcodes run.
 */
export function emitExpr(g: Gen, e: IExpr): void {
  const { m } = g;
  switch (e.kind) {
    case 'const':
      if (typeof e.value === 'bigint') m.token(pushInt(e.value));
      else if (typeof e.value === 'boolean') m.emit(e.value ? 'OP_1' : 'OP_0');
      else m.token(pushBytes(e.value));
      m.temps(1);
      return;
    case 'read':
      return readPlace(g, e.place);
    case 'take': {
      // The temporary was just built on top: its leaves become the value, with no code.
      const n = g.layout.size(e.slot.type);
      for (let i = 0; i < n; i++) {
        const entry = m.stack[m.stack.length - n + i];
        if (!entry || entry.slot !== e.slot || entry.leaf !== i) throw new Error(`internal: ${e.slot.name} is not on top to be taken`);
        m.stack[m.stack.length - n + i] = null;
      }
      return;
    }
    case 'step': {
      // The value stays on the stack, a copy is written back: x++ is OP_DUP OP_1ADD (the old value stays
      // below), ++x is OP_1ADD OP_DUP (the new one does).
      const op = e.op === '++' ? 'OP_1ADD' : 'OP_1SUB';
      readPlace(g, e.place);
      if (e.prefix) m.emit(op, 'OP_DUP');
      else m.emit('OP_DUP', op);
      m.temps(1);
      writePlace(g, e.place);
      return;
    }
    case 'narrow':
      g.expr(e.object);
      m.narrow(g.layout.size(e.object.type), e.start, e.count);
      return;
    case 'unary':
      g.expr(e.operand);
      if (e.op === '!') m.emit('OP_NOT');
      else if (e.op === '-') m.emit('OP_NEGATE');
      // ~: bytes are inverted as they are; an int is inverted in its own byte length, as the reference says.
      else if (familyOf(e.operand.type) === 'bytes') m.emit('OP_INVERT');
      else m.emit('OP_SIZE', 'OP_NUM2BIN', 'OP_INVERT', 'OP_BIN2NUM');
      return;
    case 'binary':
      g.expr(e.left);
      g.expr(e.right);
      m.stack.splice(-2, 2, null);
      return binaryOps(g, e.op, familyOf(e.left.type)!, familyOf(e.right.type)!);
    case 'shift':
      // An int shift is a multiplication or division by 2ⁿ.
      g.expr(e.left);
      if (typeof e.count === 'bigint') m.pushNumber(1n << e.count);
      else {
        g.expr(e.count);
        emitPow2(g);
        m.stack.pop(); // 2ⁿ is consumed with the shifted value, which stays as the result
      }
      m.emit(e.op === '<<' ? 'OP_MUL' : 'OP_DIV');
      return;
    case 'compare':
      return compareLeaves(g, e);
    case 'logic':
      g.expr(e.left);
      m.emit(e.op === '&&' ? 'OP_IF' : 'OP_NOTIF');
      m.stack.pop();
      g.expr(e.right);
      m.emit('OP_ELSE', e.op === '&&' ? 'OP_0' : 'OP_1', 'OP_ENDIF');
      return;
    case 'ternary': {
      g.expr(e.cond);
      emitTruthy(g, e.cond.type);
      m.emit('OP_IF');
      m.stack.pop();
      g.expr(e.then);
      m.stack.splice(m.stack.length - g.layout.size(e.then.type)); // the other branch pushes the same leaves
      m.emit('OP_ELSE');
      g.expr(e.else);
      m.emit('OP_ENDIF');
      return;
    }
    case 'slice':
      g.expr(e.object);
      if (e.end) {
        g.expr(e.end);
        m.emit('OP_SPLIT', 'OP_DROP');
        m.stack.pop();
      }
      if (e.start) {
        g.expr(e.start);
        m.emit('OP_SPLIT', 'OP_NIP');
        m.stack.pop();
      }
      return;
    case 'composite':
      e.parts.forEach((p) => g.expr(p));
      return;
    case 'builtin':
      return emitBuiltin(g, e);
    case 'convert':
      return emitConversion(g, e);
    case 'inline':
      return inline(g, e.frame, g.layout.size(e.type));
    case 'sequence': {
      // No OP_NOP markers: this is not a call. A value built by its statements and taken leaves nothing to remove.
      const base = m.stack.length;
      e.body.forEach((s) => g.stmt(s));
      g.expr(e.result);
      removeBelow(g, base, g.layout.size(e.type));
      return;
    }
    case 'asm': {
      // A function written in Script: its arguments on the stack (the last on top); its code consumes them and leaves the result.
      const base = m.stack.length;
      e.args.forEach((a) => g.expr(a));
      for (const t of e.tokens) {
        if ('op' in t) m.emit(t.op);
        else m.token(t);
      }
      m.stack.splice(base);
      m.temps(g.layout.size(e.type));
      return;
    }
  }
}

/** `a op b` for two scalars on top of the stack (already one temporary in the model). */
function binaryOps(g: Gen, op: string, fa: Family, fb: Family): void {
  const { m } = g;
  if (op === '==' || op === '!=') {
    if (fa === 'int') m.emit(op === '==' ? 'OP_NUMEQUAL' : 'OP_NUMNOTEQUAL');
    else m.emit(...(op === '==' ? ['OP_EQUAL'] : ['OP_EQUAL', 'OP_NOT']));
  } else if (COMPARE[op]) m.emit(COMPARE[op]);
  else if (op === '+' && fa === 'bytes') m.emit('OP_CAT');
  else if (ARITH[op]) m.emit(ARITH[op]);
  else if (BITWISE[op]) {
    if (fa === 'bytes') m.emit(BITWISE[op]);
    else if (fa === 'bool') m.emit(op === '&' ? 'OP_BOOLAND' : op === '|' ? 'OP_BOOLOR' : 'OP_NUMNOTEQUAL');
    // Ints: both padded to the longer one's byte length (num2bin), combined, and normalised back.
    else
      m.emit(
        'OP_2DUP',
        'OP_SIZE',
        'OP_NIP',
        'OP_SWAP',
        'OP_SIZE',
        'OP_NIP',
        'OP_MAX',
        'OP_TUCK',
        'OP_NUM2BIN',
        'OP_ROT',
        'OP_ROT',
        'OP_NUM2BIN',
        BITWISE[op],
        'OP_BIN2NUM',
      );
  } else if ((op === '<<' || op === '>>') && fa === 'bytes' && fb === 'int') m.emit(op === '<<' ? 'OP_LSHIFT' : 'OP_RSHIFT');
  else throw new Error(`internal: no code for ${fa} ${op} ${fb}`);
}

/** `==` / `!=` of composite values: every leaf equal (pairs compared from the top, AND-ed on the altstack). */
function compareLeaves(g: Gen, e: Extract<IExpr, { kind: 'compare' }>): void {
  const { m } = g;
  g.expr(e.left);
  g.expr(e.right);
  const leaves = g.layout.leaves(e.left.type);
  const n = leaves.length;
  for (let j = n - 1; j >= 0; j--) {
    // Stack top: a0…aj b0…bj; a_j is at depth j + 1.
    m.pushNumber(j + 1);
    m.emit('OP_ROLL', leaves[j].family === 'int' ? 'OP_NUMEQUAL' : 'OP_EQUAL');
    if (j < n - 1) m.emit('OP_FROMALTSTACK', 'OP_BOOLAND');
    if (j > 0) m.emit('OP_TOALTSTACK');
  }
  m.stack.splice(m.stack.length - 2 * n, 2 * n, null);
  if (e.op === '!=') m.emit('OP_NOT');
}

/**
 * A function inlined at its call: the arguments become its parameters' slots, OP_NOP marks the start and
 * the end, and everything between the call's base and the result is removed (OP_k OP_ROLL OP_DROP per
 * slot, k = the result's size). A public function called this way leaves true when it runs to its end.
 */
function inline(g: Gen, frame: Frame, size: number): void {
  const { m } = g;
  const base = m.stack.length;
  for (const p of frame.params) {
    g.expr(p.arg);
    m.bind(p.slot, g.layout.size(p.slot.type));
  }
  m.emit('OP_NOP');
  frame.body.forEach((s) => g.stmt(s));
  if (frame.result) g.expr(frame.result);
  else {
    m.emit('OP_1');
    m.temps(1);
  }
  removeBelow(g, base, size);
  m.emit('OP_NOP');
}

/** Removes everything between `base` and the `size` items of a result on top: OP_size OP_ROLL OP_DROP each. */
function removeBelow(g: Gen, base: number, size: number): void {
  const { m } = g;
  while (m.stack.length - size > base) {
    m.pushNumber(size);
    m.emit('OP_ROLL', 'OP_DROP');
    m.stack.splice(m.stack.length - size - 1, 1);
  }
}

/**
 * Replaces the count n on top with 2ⁿ, for a shift by a count known only when the script runs. A negative
 * count fails, as the reference says. 2ⁿ is built as its little-endian bytes: n / 8 zero bytes, then the
 * two bytes `0100` shifted left by n % 8 bits (OP_LSHIFT shifts the bytes as one big-endian bit string, so
 * the 1 moves within the first byte and the `00` after it keeps the number positive), made minimal.
 */
function emitPow2(g: Gen): void {
  g.m.emit('OP_DUP', 'OP_0', 'OP_GREATERTHANOREQUAL', 'OP_VERIFY');
  g.m.emit('OP_DUP', 'OP_8', 'OP_DIV', 'OP_0', 'OP_SWAP', 'OP_NUM2BIN');
  g.m.emit('OP_SWAP', 'OP_8', 'OP_MOD', 'OP_1', 'OP_2', 'OP_NUM2BIN', 'OP_SWAP', 'OP_LSHIFT');
  g.m.emit('OP_CAT', 'OP_BIN2NUM');
}
