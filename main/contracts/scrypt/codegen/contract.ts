import type { ContractIR, PublicFunction, Slot, StackConstant } from '../lower/ir.js';
import { pushBytes, pushInt, type Token } from '../script.js';
import type { Layout } from '../semantics/layout.js';
import { emitExpr } from './expressions.js';
import { tokenBytes } from './script-size.js';
import { ScriptBudget, StackMachine, type Entry, type Gen } from './stack.js';
import { emitStmt } from './statements.js';

/**
 * The locking script of a lowered contract, in the official compiler's non-optimised shape: the stack
 * constants (non-int static consts the code reads), the stored properties as constructor placeholders (or
 * an explicit constructor's code), then the public functions; several are dispatched on a selector; each
 * ends with its final require's value and NIPs everything else, constants included.
 */
export function generate(ir: ContractIR, layout: Layout, budget = new ScriptBudget(Infinity)): Token[] {
  const propEntries = [...ir.constants.flatMap((c) => entries(c.slot, layout)), ...ir.properties.flatMap((slot) => entries(slot, layout))];
  const constants = ir.constants.flatMap(constantPushes);
  constants.forEach((t) => budget.add(tokenBytes(t)));
  const head = [...constants, ...(ir.ctor ? constructorCode(ir, layout, propEntries, budget) : propertyCode(ir, layout, budget))];
  const g = gen(new StackMachine(budget), layout);
  const many = ir.publics.length > 1;
  ir.publics.forEach((f, i) => {
    g.m.stack = f.params.flatMap((slot) => entries(slot, layout));
    if (many) g.m.stack.push(null); // the selector
    g.m.stack.push(...propEntries);
    if (many) {
      g.m.pick(propEntries.length);
      g.m.pushNumber(i);
      g.m.emit('OP_EQUAL', 'OP_IF');
    }
    publicBody(g, f);
    if (many) g.m.emit('OP_ELSE');
  });
  if (many) {
    g.m.emit('OP_0');
    for (let i = 0; i < ir.publics.length; i++) g.m.emit('OP_ENDIF');
  }
  // The body can be millions of tokens: the head goes in front of it in place rather than into a copy (a head
  // too long to pass as arguments, a constructor's own unrolled loops, is concatenated instead).
  const out = g.m.out;
  if (head.length > 10_000) return head.concat(out);
  out.unshift(...head);
  return out;
}

function gen(m: StackMachine, layout: Layout): Gen {
  const g: Gen = { m, layout, expr: (e) => emitExpr(g, e), stmt: (s) => emitStmt(g, s) };
  return g;
}

function entries(slot: Slot, layout: Layout): Entry[] {
  return layout.leaves(slot.type).map((_, leaf) => ({ slot, leaf }));
}

function constantPushes(c: StackConstant): Token[] {
  return c.leaves.map((v) => (typeof v === 'bigint' ? pushInt(v) : typeof v === 'boolean' ? { op: v ? 'OP_1' : 'OP_0' } : pushBytes(v)));
}

function publicBody(g: Gen, f: PublicFunction): void {
  if (f.asm) {
    // Written in Script: it runs on its parameters, so the selector, constants and properties go first.
    const params = f.params.reduce((n, slot) => n + g.layout.size(slot.type), 0);
    g.m.dropTop(g.m.stack.length - params);
    f.asm.forEach((t) => g.m.token(t));
    return;
  }
  f.body.forEach((s) => g.stmt(s));
  g.expr(f.final);
  for (let i = 0; i < g.m.stack.length - 1; i++) g.m.emit('OP_NIP');
}

/** The properties as constructor placeholders, in order, with the library values inside them built (argumentValue). */
function propertyCode(ir: ContractIR, layout: Layout, budget: ScriptBudget): Token[] {
  const g = gen(new StackMachine(budget), layout);
  g.m.stack = ir.constants.flatMap((c) => entries(c.slot, layout));
  for (const slot of ir.properties) argumentValue(g, ir, slot);
  return g.m.out;
}

/**
 * A value that comes from constructor arguments, pushed as scryptlib fills it in: its leaves' placeholders
 * in order (`n`, `a[0]`, `p.x`), except that each library value with an explicit constructor inside it is built where it
 * stands, in the official shape: its arguments (each such a value in turn), an OP_0 slot per leaf of the
 * value, a copy of each argument, OP_NOP, the body, an OP_DROP per argument leaf, OP_NOP; then the
 * arguments under the value are removed (`OP_n OP_ROLL OP_DROP` each, n the value's leaves).
 */
function argumentValue(g: Gen, ir: ContractIR, slot: Slot): void {
  const { m, layout } = g;
  const leaves = layout.leaves(slot.type);
  const builts = ir.built.filter((b) => b.slot === slot).sort((a, b) => a.offset - b.offset);
  let leaf = 0;
  const placeholdersTo = (end: number) => {
    for (; leaf < end; leaf++) {
      m.token({ placeholder: slot.name + leaves[leaf].suffix });
      m.stack.push({ slot, leaf });
    }
  };
  for (const built of builts) {
    placeholdersTo(built.offset);
    const argBase = m.stack.length;
    built.params.forEach((p) => argumentValue(g, ir, p));
    const args = m.stack.length - argBase;
    m.stack.splice(argBase, args, ...Array<Entry>(args).fill(null)); // copies of them become the parameters
    const size = layout.size(built.type);
    for (let i = 0; i < size; i++) {
      m.token({ op: 'OP_0' });
      m.stack.push({ slot, leaf: built.offset + i });
    }
    const base = m.stack.length;
    for (const p of built.params) {
      for (let j = 0; j < layout.size(p.type); j++) {
        m.pick(args + size - 1);
        m.temps(1);
      }
      m.bind(p, layout.size(p.type));
    }
    m.emit('OP_NOP');
    built.body.forEach((s) => g.stmt(s));
    m.dropTop(m.stack.length - base);
    m.emit('OP_NOP');
    for (let j = 0; j < args; j++) {
      m.pushNumber(size);
      m.emit('OP_ROLL', 'OP_DROP');
    }
    m.stack.splice(m.stack.length - size - args, args);
    leaf = built.offset + size;
  }
  placeholdersTo(leaves.length);
}

/**
 * An explicit constructor, in the official shape: an OP_0 slot per property leaf, the constructor
 * parameters' placeholders (argumentValue), OP_NOP, the body (assignments move values into the slots), an
 * OP_DROP per parameter leaf, OP_NOP.
 */
function constructorCode(ir: ContractIR, layout: Layout, propEntries: Entry[], budget: ScriptBudget): Token[] {
  const ctor = ir.ctor!;
  const g = gen(new StackMachine(budget), layout);
  g.m.stack = [...propEntries];
  ir.properties.forEach((slot) => entries(slot, layout).forEach(() => g.m.token({ op: 'OP_0' })));
  ctor.params.forEach((slot) => argumentValue(g, ir, slot));
  g.m.token({ op: 'OP_NOP' });
  ctor.body.forEach((s) => g.stmt(s));
  g.m.dropTop(g.m.stack.length - propEntries.length);
  g.m.emit('OP_NOP');
  return g.m.out;
}
