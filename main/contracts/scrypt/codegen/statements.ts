import type { IStmt } from '../lower/ir.js';
import { emitTruthy } from './builtins.js';
import { readPlace, writePlace } from './places.js';
import type { Gen } from './stack.js';

/**
 * Statements: a non-final require is `e OP_VERIFY`; blocks drop their locals at their end, so both branches of an if leave the stack as
 * found.
 */
export function emitStmt(g: Gen, s: IStmt): void {
  const { m } = g;
  switch (s.kind) {
    case 'declare':
      g.expr(s.init);
      m.bind(s.slot, g.layout.size(s.slot.type));
      return;
    case 'construct': {
      const size = g.layout.size(s.slot.type);
      if (s.values) {
        // The implicit constructor: the arguments are the value, then the empty body's two OP_NOPs.
        s.values.forEach((v) => g.expr(v));
        m.bind(s.slot, size);
        m.emit('OP_NOP', 'OP_NOP');
        return;
      }
      // An explicit constructor, on a value whose leaves start as OP_0: the arguments bind its parameters, the body fills the value.
      for (let i = 0; i < size; i++) {
        m.emit('OP_0');
        m.stack.push({ slot: s.slot, leaf: i });
      }
      const base = m.stack.length;
      for (const p of s.params) {
        g.expr(p.arg);
        m.bind(p.slot, g.layout.size(p.slot.type));
      }
      m.emit('OP_NOP');
      s.body.forEach((x) => emitStmt(g, x));
      m.dropTop(m.stack.length - base);
      m.emit('OP_NOP');
      return;
    }
    case 'assign':
      g.expr(s.value);
      writePlace(g, s.place);
      if (s.compound) {
        // The official compiler keeps x += e's value (the new x) and drops it as unused.
        readPlace(g, s.place);
        m.dropTop(g.layout.size(s.place.type));
      }
      return;
    case 'step':
      // As the expression x++ whose value is not used: it is dropped.
      g.expr({ kind: 'step', place: s.place, op: s.op, prefix: false, type: s.place.type, at: s.at });
      m.dropTop(1);
      return;
    case 'eval':
      g.expr(s.expr);
      m.dropTop(g.layout.size(s.expr.type));
      return;
    case 'require':
      g.expr(s.cond);
      m.emit('OP_VERIFY');
      m.stack.pop();
      return;
    case 'exit':
      // exit(true) ends the script successfully right here (clean stack, OP_RETURN after Genesis); exit(false) fails it.
      g.expr(s.cond);
      m.emit('OP_IF');
      for (let i = 1; i < m.stack.length; i++) m.emit('OP_DROP');
      m.emit('OP_1', 'OP_RETURN', 'OP_ELSE', 'OP_0', 'OP_VERIFY', 'OP_ENDIF');
      m.stack.pop();
      return;
    case 'if':
      g.expr(s.cond);
      emitTruthy(g, s.cond.type);
      m.emit('OP_IF');
      m.stack.pop();
      emitBranch(g, s.then);
      if (s.else) {
        m.emit('OP_ELSE');
        emitBranch(g, s.else);
      }
      m.emit('OP_ENDIF');
      return;
    case 'block':
      return emitBranch(g, s.body);
    case 'unrolled':
      // Each copy of the body starts with OP_NOP. A copy's IR is let go once its code is out (the IR is
      // generated once, and nothing else refers to an iteration): a large unrolled loop then never holds all of
      // its IR and all of its code at the same time.
      for (let k = 0; k < s.iterations.length; k++) {
        m.emit('OP_NOP');
        emitBranch(g, s.iterations[k]);
        s.iterations[k] = [];
      }
      return;
    case 'codesep':
      m.emit('OP_CODESEPARATOR');
      return;
  }
}

/** A nested block: its locals are dropped at its end. */
export function emitBranch(g: Gen, body: IStmt[]): void {
  const height = g.m.stack.length;
  body.forEach((s) => emitStmt(g, s));
  g.m.dropTop(g.m.stack.length - height);
}
