import type { Position } from '../diagnostics.js';
import type { Token } from '../script.js';
import type { ConstVal, Type } from '../semantics/model.js';

/**
 * The lowered program that code generation consumes: one contract, its public functions and constructor,
 * with every fact the front end established made explicit. Types are concrete (no generic parameter is
 * left, every array size is known); every name is resolved to a storage slot or a constant value; every
 * call is either a built-in from the built-ins table, a conversion, or a function inlined with its
 * arguments (a library method with its `this`); loops are unrolled; static const parameters, loop
 * variables and named constants are values. Nothing here needs the syntax tree or the semantic passes.
 */

/**
 * A variable, parameter or property instance. A value occupies one stack slot per scalar leaf of its
 * type; a slot is identified by (Slot, leaf index). Each declaration gets a new Slot each time it is
 * elaborated (each inlined call, each loop iteration), so lookups never depend on names.
 */
export interface Slot {
  id: number;
  /** The name written in the source: placeholders of properties and constructor parameters use it. */
  name: string;
  type: Type;
}

/**
 * Storage: leaves [offset, offset + size(type)) of a slot's value, plus run-time array indices (each
 * index × stride, in leaves, checked against the array's size).
 */
export interface Place {
  slot: Slot;
  type: Type;
  offset: number;
  dynamic: { index: IExpr; size: number; stride: number }[];
  /**
   * One index into an array at a fixed place, kept for the official read shape (a PICK computed through
   * the alt stack, which the official compiler emits for a constant index too): element `index` of
   * `size`, each `stride` leaves, the array's first leaf at `start`, the place `within` leaves into the
   * element; `property` when the array is a contract property (read from a copy, as wider elements are).
   * `offset` is then start + within, plus index × stride when the index is `constant`; writes
   * and every other use see only `offset` (a run-time index is in `dynamic` there instead).
   */
  element?: { index: IExpr; size: number; stride: number; start: number; within: number; constant: boolean; property: boolean };
}

/** A function inlined at its call: the arguments bind the parameters, the body runs, the result stays. */
export interface Frame {
  /** `Owner.function`, for messages. */
  name: string;
  params: { slot: Slot; arg: IExpr }[];
  body: IStmt[];
  /** The returned value; null for a public function, which leaves `true` when it runs to its end. */
  result: IExpr | null;
}

type E<K extends string, T> = { kind: K; type: Type; at: Position } & T;

export type IExpr =
  | E<'const', { value: ConstVal['value'] }>
  | E<'read', { place: Place }>
  /** The value of a temporary that sits on top of the stack, taken as it is (moved, not copied). */
  | E<'take', { slot: Slot }>
  /** `++x` / `x++` as a value: the place is updated, the new (prefix) or old (postfix) value stays. */
  | E<'step', { place: Place; op: '++' | '--'; prefix: boolean }>
  /** Leaves [start, start + count) of a computed value: a field of a returned struct, an element of a returned array. */
  | E<'narrow', { object: IExpr; start: number; count: number }>
  | E<'unary', { op: '!' | '-' | '~'; operand: IExpr }>
  /** A binary operator on two scalars. */
  | E<'binary', { op: string; left: IExpr; right: IExpr }>
  /** An int shifted by a count: a multiplication or division by 2ⁿ, with 2ⁿ a constant or computed when the script runs. */
  | E<'shift', { op: '<<' | '>>'; left: IExpr; count: bigint | IExpr }>
  /** `==` / `!=` of arrays, structs or library values: every leaf compared. */
  | E<'compare', { op: '==' | '!='; left: IExpr; right: IExpr }>
  | E<'logic', { op: '&&' | '||'; left: IExpr; right: IExpr }>
  | E<'ternary', { cond: IExpr; then: IExpr; else: IExpr }>
  | E<'slice', { object: IExpr; start: IExpr | null; end: IExpr | null }>
  /** Values laid side by side: an array literal, a struct literal, a library value from its properties. */
  | E<'composite', { parts: IExpr[] }>
  /** A built-in function of the built-ins table; `sizes` are its compile-time constant arguments. */
  | E<'builtin', { name: string; args: IExpr[]; sizes: bigint[] }>
  | E<'convert', { operand: IExpr }>
  | E<'inline', { frame: Frame }>
  /**
   * Statements, then a value: the statements' slots are removed from under the value afterwards. A value
   * built where it is used (`new L(x)` inside an expression: a construct, then its slot taken), and a
   * computed value kept in a temporary to be a method's `this` (`L.mk(x).get()`).
   */
  | E<'sequence', { body: IStmt[]; result: IExpr }>
  /** A function written in Script: its arguments pushed, then the tokens, which leave the result. */
  | E<'asm', { args: IExpr[]; tokens: Token[] }>;

type S<K extends string, T> = { kind: K; at: Position } & T;

export type IStmt =
  | S<'declare', { slot: Slot; init: IExpr }>
  /** A library (or contract) value built by its explicit constructor, whose `this` is the new slot. */
  /** With `values` (the implicit constructor), the value is those values in order, and there are no parameters or body. */
  | S<'construct', { slot: Slot; params: { slot: Slot; arg: IExpr }[]; body: IStmt[]; values?: IExpr[] }>
  /** `compound`: `x += e` and the like, an expression whose value (the new x) is dropped when unused. */
  | S<'assign', { place: Place; value: IExpr; compound: boolean }>
  /** `x++;` as a statement. */
  | S<'step', { place: Place; op: '++' | '--' }>
  /** An expression whose value is dropped. */
  | S<'eval', { expr: IExpr }>
  | S<'require', { cond: IExpr }>
  | S<'exit', { cond: IExpr }>
  | S<'if', { cond: IExpr; then: IStmt[]; else: IStmt[] | null }>
  | S<'block', { body: IStmt[] }>
  /** A loop, unrolled: each iteration is a block of its own. */
  | S<'unrolled', { iterations: IStmt[][] }>
  | S<'codesep', object>;

export interface PublicFunction {
  name: string;
  at: Position;
  params: Slot[];
  body: IStmt[];
  /** The final `require`'s condition, left on the stack as the script's result. */
  final: IExpr;
  /** A function written in asm: its Script, run on the parameters alone, leaves the result (body and final unused). */
  asm?: Token[];
}

/**
 * A library value with an explicit constructor inside a value that comes from constructor arguments (a
 * property, a parameter of the contract's or of another such value's constructor): scryptlib writes its
 * arguments, not its properties (`l3.l1.ctor.a`, recursively), so it is built where it stands, leaves
 * [offset, offset + its size) of `slot`, by its constructor run on `params` (whose own parts may be built
 * the same way).
 */
export interface BuiltValue {
  slot: Slot;
  offset: number;
  type: Type;
  params: Slot[];
  body: IStmt[];
}

/** A non-int static constant: pushed once at the bottom of the script, read like a variable. */
export interface StackConstant {
  slot: Slot;
  /** Its leaves' values, in layout order. */
  leaves: ConstVal['value'][];
}

export interface ContractIR {
  name: string;
  at: Position;
  /** The stack constants code reads, in the order they are pushed (deepest first). */
  constants: StackConstant[];
  /** Stored properties, in order (each leaf is a constructor argument). */
  properties: Slot[];
  /**
   * Library values with an explicit constructor within the properties (without an explicit constructor of
   * the contract), within its constructor's parameters, and within their own parameters: built at the start
   * of the script from constructor placeholders (`prop.ctor.param`).
   */
  built: BuiltValue[];
  /** An explicit constructor: its body moves the parameters into the properties. */
  ctor: { params: Slot[]; body: IStmt[] } | null;
  publics: PublicFunction[];
}
