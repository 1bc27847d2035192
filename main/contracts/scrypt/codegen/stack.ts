import type { IExpr, IStmt, Slot } from '../lower/ir.js';
import { pushInt, type Token } from '../script.js';
import type { Layout } from '../semantics/layout.js';

/** The most script elements one contract may compile to (about 2 MB of script). */
export const MAX_SCRIPT_OPS = 2_000_000;

/** The script outgrew MAX_SCRIPT_OPS: a resource limit, reported at the contract. */
export class ScriptTooLarge extends Error {}

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

  emit(...ops: string[]): void {
    for (const op of ops) this.out.push({ op });
    if (this.out.length > MAX_SCRIPT_OPS) throw new ScriptTooLarge();
  }

  /** A data push or placeholder; the stack model is the caller's to update. */
  token(t: Token): void {
    this.out.push(t);
  }

  pushNumber(n: number | bigint): void {
    this.out.push(pushInt(BigInt(n)));
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
