import { ANY, BOOL, BYTES, INT, basicType, type Type } from './model.js';

/**
 * The built-in functions of sCrypt (functions.rst, syntax.rst, and the names the scrypt-ts transpiler
 * emits), with their parameter kinds and result.
 *
 * A parameter kind is a type the argument must be assignable to, or:
 * - `ctc`: an int that must be a compile-time constant (`static const int size`);
 * - `any`: anything (`repeat`'s element);
 * - `Sig[]` / `PubKey[]`: an array of any size of that element type.
 */
export interface Builtin {
  params: (Type | 'ctc' | 'Sig[]' | 'PubKey[]')[];
  /** The result type, from the argument types. */
  result: (args: Type[], ctcArgs: (bigint | null)[]) => Type;
}

const t = (name: string): Type => basicType(name)!;
const fixed = (type: Type) => () => type;

export const BUILTINS: Record<string, Builtin> = {
  // Math
  abs: { params: [INT], result: fixed(INT) },
  min: { params: [INT, INT], result: fixed(INT) },
  max: { params: [INT, INT], result: fixed(INT) },
  within: { params: [INT, INT, INT], result: fixed(BOOL) },
  // Hashing
  ripemd160: { params: [BYTES], result: fixed(t('Ripemd160')) },
  sha1: { params: [BYTES], result: fixed(t('Sha1')) },
  sha256: { params: [BYTES], result: fixed(t('Sha256')) },
  hash160: { params: [BYTES], result: fixed(t('Ripemd160')) },
  hash256: { params: [BYTES], result: fixed(t('Sha256')) },
  // Signatures
  checkSig: { params: [t('Sig'), t('PubKey')], result: fixed(BOOL) },
  checkMultiSig: { params: ['Sig[]', 'PubKey[]'], result: fixed(BOOL) },
  // bytes ↔ int
  len: { params: [BYTES], result: fixed(INT) },
  num2bin: { params: [INT, INT], result: fixed(BYTES) },
  unpack: { params: [BYTES], result: fixed(INT) },
  pack: { params: [INT], result: fixed(BYTES) },
  bin2num: { params: [BYTES], result: fixed(INT) },
  reverseBytes: { params: [BYTES, 'ctc'], result: fixed(BYTES) },
  // Arrays: T[size] repeat(T e, static const int size)
  repeat: { params: [ANY, 'ctc'], result: (args, ctc) => ({ k: 'array', elem: args[0] ?? ANY, size: ctc[1] ?? null }) },
};

/** Built-in members of every contract (`this.x`), state.rst and the scrypt-ts transpiler's output. */
export const CONTRACT_BUILTINS: Record<string, { params: Type[] | null; result: Type } | { value: Type }> = {
  /** The locking script with the current values of the `@state` properties. */
  getStateScript: { params: [], result: BYTES },
  /** `this.updateState(preimage, amount)`: checks the next output carries the new state. */
  updateState: { params: [t('SigHashPreimage'), INT], result: BOOL },
  updateStateSigHashType: { params: null, result: BOOL },
  /** scrypt-ts's script context; the transpiler rewrites it, but accept it in hand-written code. */
  ctx: { value: ANY },
  /** The serialized state of a stateful contract. Not documented for sCrypt sources; accepted, typed as bytes. */
  dataPart: { value: BYTES },
};

/**
 * Names usable as conversion functions, `T(x)`: the bytes subtypes convert from any bytes value (`PubKey(b)`,
 * also from another subtype), `PrivKey` from an int. `int`, `bool` and `bytes` are accepted as well (the
 * specification does not list them; we do not reject what it does not forbid): `int(x)`/`bool(x)` from int,
 * bool or bytes, `bytes(x)` from bytes.
 */
export function castFamilies(name: string): Type['k'][] | null {
  const b = basicType(name);
  if (!b) return null;
  if (name === 'int' || name === 'bool') return ['int', 'bool', 'bytes'];
  return [b.k];
}
