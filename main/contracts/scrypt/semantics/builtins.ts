import { MAX_LOCKING_SCRIPT_BYTES } from '../codegen/script-size.js';
import { ANY, BOOL, BYTES, INT, basicType, type Env, type Type } from './model.js';

/**
 * The one table of sCrypt's built-in functions (functions.rst, syntax.rst, and the names the scrypt-ts
 * transpiler emits): parameter kinds and result for the type checker, the code for code generation.
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
  /**
   * The code: the arguments (all but the compile-time constant ones) are pushed in order, then these
   * opcodes run; or a construct of its own that code generation expands.
   */
  code: { ops: string[] } | { expand: 'reverseBytes' | 'repeat' | 'checkMultiSig' | 'flattenSha256' };
}

const t = (name: string): Type => basicType(name)!;
const fixed = (type: Type) => () => type;
const ops = (...names: string[]) => ({ ops: names });

export const BUILTINS: Record<string, Builtin> = {
  // Math
  abs: { params: [INT], result: fixed(INT), code: ops('OP_ABS') },
  min: { params: [INT, INT], result: fixed(INT), code: ops('OP_MIN') },
  max: { params: [INT, INT], result: fixed(INT), code: ops('OP_MAX') },
  within: { params: [INT, INT, INT], result: fixed(BOOL), code: ops('OP_WITHIN') },
  // Hashing
  ripemd160: { params: [BYTES], result: fixed(t('Ripemd160')), code: ops('OP_RIPEMD160') },
  sha1: { params: [BYTES], result: fixed(t('Sha1')), code: ops('OP_SHA1') },
  sha256: { params: [BYTES], result: fixed(t('Sha256')), code: ops('OP_SHA256') },
  hash160: { params: [BYTES], result: fixed(t('Ripemd160')), code: ops('OP_HASH160') },
  hash256: { params: [BYTES], result: fixed(t('Sha256')), code: ops('OP_HASH256') },
  // Signatures: checkMultiSig(Sig[M], PubKey[N]) is OP_0 sig0…sigM-1 <M> pk0…pkN-1 <N> OP_CHECKMULTISIG.
  checkSig: { params: [t('Sig'), t('PubKey')], result: fixed(BOOL), code: ops('OP_CHECKSIG') },
  checkMultiSig: { params: ['Sig[]', 'PubKey[]'], result: fixed(BOOL), code: { expand: 'checkMultiSig' } },
  // bytes ↔ int
  len: { params: [BYTES], result: fixed(INT), code: ops('OP_SIZE', 'OP_NIP') },
  // The older name of len, which contracts written for early compilers still call.
  length: { params: [BYTES], result: fixed(INT), code: ops('OP_SIZE', 'OP_NIP') },
  num2bin: { params: [INT, INT], result: fixed(BYTES), code: ops('OP_NUM2BIN') },
  unpack: { params: [BYTES], result: fixed(INT), code: ops('OP_BIN2NUM') },
  pack: { params: [INT], result: fixed(BYTES), code: ops() },
  bin2num: { params: [BYTES], result: fixed(INT), code: ops('OP_BIN2NUM') },
  // reverseBytes(b, size): split into single bytes, then concatenated back in reverse.
  reverseBytes: { params: [BYTES, 'ctc'], result: fixed(BYTES), code: { expand: 'reverseBytes' } },
  // The hash scryptlib's HashedMap and HashedSet store: sha256 of a basic value; of a struct or array, sha256
  // of the sha256 of each leaf, joined.
  flattenSha256: { params: [ANY], result: fixed(t('Sha256')), code: { expand: 'flattenSha256' } },
  // Arrays: T[size] repeat(T e, static const int size): e once, then copied.
  repeat: {
    params: [ANY, 'ctc'],
    result: (args, ctc) => ({ k: 'array', elem: args[0] ?? ANY, size: ctc[1] ?? null }),
    code: { expand: 'repeat' },
  },
};

/**
 * Older names of built-ins: unlike the current ones, a function of the same name that the library or
 * contract declares is called instead (a name a program may well use for its own function).
 */
export const DEPRECATED_BUILTINS = new Set(['length']);

/**
 * The largest size `reverseBytes` and `repeat` take, and the largest loop count. Not a limit of its own:
 * each iteration or copy costs at least one byte of script (a loop's `OP_NOP`), so nothing larger could fit
 * in the largest locking script a relayed transaction carries (codegen/script-size.ts), and the compile
 * stops on that limit anyway, usually much earlier.
 */
export const MAX_UNROLL = BigInt(MAX_LOCKING_SCRIPT_BYTES);

/** Built-in members of a stateful contract (`this.x`, state.rst); the lowering rewrites their calls. */
export const CONTRACT_BUILTINS: Record<string, { params: Type[]; result: Type }> = {
  /** The locking script with the current values of the `@state` properties. */
  getStateScript: { params: [], result: BYTES },
  /** `this.updateState(preimage, amount)`: checks the next output carries the new state. */
  updateState: { params: [t('SigHashPreimage'), INT], result: BOOL },
  /** `this.updateStateSigHashType(preimage, amount, sigHashType)`. */
  updateStateSigHashType: { params: [t('SigHashPreimage'), INT, t('SigHashType')], result: BOOL },
};

/** Members scrypt-ts and scryptlib know that sCrypt source cannot use: reported, with why. */
export const UNAVAILABLE_MEMBERS: Record<string, string> = {
  ctx: "this.ctx is scrypt-ts's script context, which its transpiler rewrites; in sCrypt source, take a SigHashPreimage parameter",
  dataPart: 'this.dataPart is set off-chain by scryptlib; in the contract, read @state properties instead',
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

/** `Hash(b)` where `type Hash = Sha256`: the basic type an alias used as a conversion stands for. */
export function aliasCastTarget(env: Env, name: string): string | null {
  const item = env.items.get(name);
  return item?.kind === 'alias' && !item.type.dims.length && basicType(item.type.name) ? item.type.name : null;
}

/** Whether a value is true: an int unless 0, bytes unless every byte is zero (so b'80', script's negative zero, is true). */
export const TRUTHY_OPS: Record<'int' | 'bytes', string[]> = {
  int: ['OP_0NOTEQUAL'],
  bytes: ['OP_SIZE', 'OP_0', 'OP_SWAP', 'OP_NUM2BIN', 'OP_EQUAL', 'OP_NOT'],
};

/** The code of a conversion between the families of basic types (within a family there is none). */
export function conversionOps(from: 'int' | 'bool' | 'bytes', to: 'int' | 'bool' | 'bytes'): string[] {
  if (from === to) return [];
  if (to === 'int') return from === 'bytes' ? ['OP_BIN2NUM'] : []; // a bool already is the number 0 or 1
  if (to === 'bool') return TRUTHY_OPS[from === 'int' ? 'int' : 'bytes'];
  throw new Error(`no conversion from ${from} to ${to}`);
}
