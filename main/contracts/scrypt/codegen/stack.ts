import type { IExpr, IStmt, Slot } from '../lower/ir.js';
import { pushInt, type Token } from '../script.js';
import type { Layout } from '../semantics/layout.js';
import { tokenBytes } from './script-size.js';

/** The script outgrew its budget: reported at the contract, with how far generation got. */
export class ScriptTooLarge extends Error {
  constructor(readonly bytes: number) {
    super(`the script is more than ${bytes} bytes`);
  }
}

/**
 * The bytes of script generated so far, shared by every stack machine of one contract, and how many it may
 * reach: generation stops as soon as a script could no longer be used (script-size.ts), before it fills memory.
 */
export class ScriptBudget {
  bytes = 0;
  constructor(readonly limit: number) {}

  add(n: number): void {
    this.bytes += n;
    if (this.bytes > this.limit) throw new ScriptTooLarge(this.bytes);
  }
}

/**
 * One shared token per opcode and per small number: a large unrolled program is millions of tokens, and a
 * pointer to a shared token is a fraction of a new object's memory. Tokens are never modified.
 */
const OPS = new Map<string, Token>();
const NUMBERS = new Map<number, Token>();

function opToken(op: string): Token {
  let t = OPS.get(op);
  if (!t) OPS.set(op, (t = Object.freeze({ op })));
  return t;
}

function numberToken(n: number | bigint): Token {
  if (typeof n === 'bigint' || n < -1 || n > 0xffff) return pushInt(BigInt(n));
  let t = NUMBERS.get(n);
  if (!t) NUMBERS.set(n, (t = Object.freeze(pushInt(BigInt(n)))));
  return t;
}

/** What the code generator knows about one stack item: which leaf of which slot it holds, or nothing (a temporary). */
export type Entry = { slot: Slot; leaf: number } | null;

/**
 * Stack scheduling: the emitted tokens and a symbolic model of the stack they leave, bottom first. Reads
 * PICK a slot by its depth, writes ROLL the new value into place; everything is by slot identity, so no
 * name can shadow another.
 */
export class StackMachine {
  readonly out: Token[] = [];
  stack: Entry[] = [];

  constructor(readonly budget = new ScriptBudget(Infinity)) {}

  emit(...ops: string[]): void {
    for (const op of ops) this.out.push(opToken(op));
    this.budget.add(ops.length);
  }

  /** A data push or placeholder; the stack model is the caller's to update. */
  token(t: Token): void {
    this.out.push('op' in t ? opToken(t.op) : t);
    this.budget.add(tokenBytes(t));
  }

  pushNumber(n: number | bigint): void {
    const t = numberToken(n);
    this.out.push(t);
    this.budget.add(tokenBytes(t));
  }

  /** Copies the item at `depth` (0 = top) to the top. */
  pick(depth: number): void {
    this.pushNumber(depth);
    this.emit('OP_PICK');
  }

  temps(n: number): void {
    for (let i = 0; i < n; i++) this.stack.push(null);
  }

  depthOf(slot: Slot, leaf: number): number {
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const e = this.stack[i];
      if (e && e.slot === slot && e.leaf === leaf) return this.stack.length - 1 - i;
    }
    throw new Error(`internal: ${slot.name}#${slot.id} leaf ${leaf} is not on the stack`);
  }

  /** Gives the top `count` temporaries the leaves of a slot. */
  bind(slot: Slot, count: number): void {
    for (let i = 0; i < count; i++) this.stack[this.stack.length - count + i] = { slot, leaf: i };
  }

  dropTop(n: number): void {
    for (let i = 0; i < n; i++) {
      this.emit('OP_DROP');
      this.stack.pop();
    }
  }

  /** Of `total` temporaries on top, keeps [start, start + count) and removes the rest. */
  narrow(total: number, start: number, count: number): void {
    if (count === 1 && total > 1) {
      // One leaf, in the official shape: rolled to the top, then each other leaf rolled up and dropped.
      this.pushNumber(total - 1 - start);
      this.emit('OP_ROLL');
      for (let i = 0; i < total - 1; i++) {
        this.pushNumber(1);
        this.emit('OP_ROLL', 'OP_DROP');
      }
      this.stack.splice(-total, total, null);
      return;
    }
    this.dropTop(total - start - count);
    for (let i = 0; i < start; i++) {
      this.pushNumber(count);
      this.emit('OP_ROLL', 'OP_DROP');
      this.stack.splice(this.stack.length - count - 1, 1);
    }
  }

  /** Moves the value on top into a slot's leaf: OP_d OP_ROLL OP_DROP, then (d−1)× OP_(d−1) OP_ROLL. */
  replace(slot: Slot, leaf: number): void {
    const d = this.depthOf(slot, leaf);
    this.pushNumber(d);
    this.emit('OP_ROLL', 'OP_DROP');
    for (let k = 0; k < d - 1; k++) {
      this.pushNumber(d - 1);
      this.emit('OP_ROLL');
    }
    this.stack.pop(); // the new value now sits in the slot
  }
}

/** What every part of code generation shares: the stack, the layout of types, and the two recursive emitters. */
export interface Gen {
  readonly m: StackMachine;
  readonly layout: Layout;
  expr(e: IExpr): void;
  stmt(s: IStmt): void;
}
