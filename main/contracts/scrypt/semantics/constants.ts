import type { ConstDecl, ContractLike, Expr, Property } from '../ast.js';
import { numberBytes } from '../script.js';
import { aliasCastTarget, castFamilies } from './builtins.js';
import { basicType, constValue, type Bindings, type ConstVal, type Facts } from './model.js';

/**
 * Where a constant expression is evaluated: the names it may use and, where code is lowered, the values of loop and static const
 * parameters.
 */
export interface ConstScope {
  facts: Facts;
  /** The library or contract whose `this.N` and bare static consts are meant. */
  owner: ContractLike | null;
  bound?: Bindings;
}

/**
 * The value of a constant expression, or null: literals, named constants (a `static const` property or
 * file-level constant, by bare name, `this.N` or `Owner.N`; a loop variable or static const parameter
 * where it is bound), `-` and `!`, `+ - * / %` and `<< >>` on ints, `+` on bytes, `& | ^` on ints, bytes
 * (of one length) and bools, `~` on bytes, `&& ||`, comparisons, `c ? a : b`, and conversions
 * (`PubKey(b'02…')`, which keep the value), each with the value the script computes (so
 * `SigHash.ALL | SigHash.FORKID` is `41`). The one constant folder of the compiler: the semantic passes
 * use it for static consts, shift counts and indices; the lowering for loop counts, sizes and static
 * arguments.
 */
export function evaluate(e: Expr, scope: ConstScope, seen: ReadonlySet<object> = new Set()): ConstVal | null {
  switch (e.kind) {
    case 'int':
      return { type: 'int', value: e.value };
    case 'bool':
      return { type: 'bool', value: e.value };
    case 'bytes':
      return { type: 'bytes', value: e.hex };
    case 'string':
      return { type: 'bytes', value: Buffer.from(e.value, 'utf8').toString('hex') };
    case 'ident': {
      const sym = scope.facts.idents.get(e);
      if (!sym) return null;
      if (sym.kind === 'const') return declValue(sym.decl, sym.owner, scope, seen);
      if (sym.kind === 'induction' || sym.kind === 'staticParam') return scope.bound?.get(sym) ?? null;
      return null;
    }
    case 'member': {
      const target = staticOwner(e, scope);
      const p = target?.properties.find((x) => x.name === e.name && x.isStatic);
      return p ? declValue(p, target, scope, seen) : null;
    }
    case 'unary': {
      const v = evaluate(e.operand, scope, seen);
      if (!v) return null;
      if (e.op === '-' && typeof v.value === 'bigint') return { type: 'int', value: -v.value };
      if (e.op === '!' && typeof v.value === 'boolean') return { type: 'bool', value: !v.value };
      if (e.op === '~' && typeof v.value === 'string') return { type: v.type, value: bytewise(v.value, v.value, (x) => ~x) };
      return null;
    }
    case 'binary': {
      const a = evaluate(e.left, scope, seen);
      const b = a && evaluate(e.right, scope, seen);
      if (!a || !b) return null;
      if (e.op === '+' && typeof a.value === 'string' && typeof b.value === 'string') return { type: 'bytes', value: a.value + b.value };
      if (BITWISE[e.op]) return bitwise(e.op, a, b);
      const logical = logic(e.op, a, b);
      if (logical) return logical;
      if (typeof a.value !== 'bigint' || typeof b.value !== 'bigint') return null;
      return arithmetic(e.op, a.value, b.value);
    }
    case 'ternary': {
      const c = evaluate(e.cond, scope, seen);
      if (!c || typeof c.value !== 'boolean') return null;
      return evaluate(c.value ? e.then : e.else, scope, seen);
    }
    case 'call': {
      if (e.callee.kind !== 'ident' || e.args.length !== 1 || scope.facts.calls.has(e)) return null;
      const target = castFamilies(e.callee.name) ? e.callee.name : aliasCastTarget(scope.facts.env, e.callee.name);
      if (!target) return null;
      const v = evaluate(e.args[0], scope, seen);
      return v && { type: basicTypeName(target), value: v.value };
    }
    default:
      return null;
  }
}

/**
 * `&& ||` on bools, `== !=` on two values of one kind (ints by number, bytes and bools by value), and
 * `< <= > >=` on ints: the bool the script computes.
 */
function logic(op: string, a: ConstVal, b: ConstVal): ConstVal | null {
  const x = a.value;
  const y = b.value;
  if (typeof x !== typeof y) return null;
  const bool = (value: boolean): ConstVal => ({ type: 'bool', value });
  switch (op) {
    case '&&':
      return typeof x === 'boolean' ? bool(x && (y as boolean)) : null;
    case '||':
      return typeof x === 'boolean' ? bool(x || (y as boolean)) : null;
    case '==':
      return bool(x === y);
    case '!=':
      return bool(x !== y);
  }
  if (typeof x !== 'bigint' || typeof y !== 'bigint') return null;
  switch (op) {
    case '<':
      return bool(x < y);
    case '<=':
      return bool(x <= y);
    case '>':
      return bool(x > y);
    case '>=':
      return bool(x >= y);
    default:
      return null;
  }
}

function arithmetic(op: string, x: bigint, y: bigint): ConstVal | null {
  switch (op) {
    case '+':
      return { type: 'int', value: x + y };
    case '-':
      return { type: 'int', value: x - y };
    case '*':
      return { type: 'int', value: x * y };
    case '/':
      return y === 0n ? null : { type: 'int', value: x / y };
    case '%':
      return y === 0n ? null : { type: 'int', value: x % y };
    // A shift multiplies or divides by 2ⁿ (OP_DIV truncates), as the generated code does; a negative count has no value.
    case '<<':
      return y < 0n ? null : { type: 'int', value: x * 2n ** y };
    case '>>':
      return y < 0n ? null : { type: 'int', value: x / 2n ** y };
    default:
      return null;
  }
}

const BITWISE: Record<string, (x: number, y: number) => number> = { '&': (x, y) => x & y, '|': (x, y) => x | y, '^': (x, y) => x ^ y };

/**
 * `& | ^` as the script computes them: bytes of one length byte by byte (OP_AND/OP_OR/OP_XOR refuse
 * different lengths), the subtype kept when both sides have it; ints padded to the longer one's length
 * (num2bin), combined, and made minimal again (bin2num), as the reference says; bools as booleans.
 */
function bitwise(op: string, a: ConstVal, b: ConstVal): ConstVal | null {
  const f = BITWISE[op];
  if (typeof a.value === 'string' && typeof b.value === 'string') {
    if (a.value.length !== b.value.length) return null;
    return { type: a.type === b.type ? a.type : 'bytes', value: bytewise(a.value, b.value, f) };
  }
  if (typeof a.value === 'boolean' && typeof b.value === 'boolean') return { type: 'bool', value: Boolean(f(+a.value, +b.value)) };
  if (typeof a.value !== 'bigint' || typeof b.value !== 'bigint') return null;
  const size = Math.max(numberBytes(a.value).length, numberBytes(b.value).length);
  return { type: 'int', value: bin2num(bytewiseBytes(num2bin(a.value, size), num2bin(b.value, size), f)) };
}

function bytewise(a: string, b: string, f: (x: number, y: number) => number): string {
  const bytes = bytewiseBytes(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'), f);
  return Buffer.from(bytes).toString('hex');
}

function bytewiseBytes(a: ArrayLike<number>, b: ArrayLike<number>, f: (x: number, y: number) => number): number[] {
  return Array.from(a, (x, i) => f(x, b[i]) & 0xff);
}

/** OP_NUM2BIN: the magnitude little-endian in `size` bytes, the sign in the last byte's top bit. */
function num2bin(n: bigint, size: number): number[] {
  if (size === 0) return [];
  const out = numberBytes(n < 0n ? -n : n);
  while (out.length < size) out.push(0);
  if (n < 0n) out[size - 1] |= 0x80;
  return out;
}

/** OP_BIN2NUM: little-endian sign-magnitude bytes as a number. */
function bin2num(bytes: number[]): bigint {
  if (bytes.length === 0) return 0n;
  const last = bytes.length - 1;
  let v = 0n;
  for (let i = last; i >= 0; i--) v = (v << 8n) | BigInt(i === last ? bytes[i] & 0x7f : bytes[i]);
  return bytes[last] & 0x80 ? -v : v;
}

/** `PubKeyHash` → Ripemd160; other basic names as they are. */
function basicTypeName(name: string): string {
  const t = basicType(name);
  return t && (t.k === 'int' || t.k === 'bytes') ? t.name : name;
}

/** The declaration whose static member `this.N` or `Owner.N` names. */
function staticOwner(e: Extract<Expr, { kind: 'member' }>, scope: ConstScope): ContractLike | null {
  if (e.object.kind === 'this') return scope.owner;
  if (e.object.kind === 'ident' && !scope.facts.idents.has(e.object)) return scope.facts.env.owner(e.object.name);
  return null;
}

function declValue(decl: ConstDecl | Property, owner: ContractLike | null, scope: ConstScope, seen: ReadonlySet<object>): ConstVal | null {
  const init = 'value' in decl ? decl.value : decl.init;
  if (!init || seen.has(decl)) return null; // a constant defined through itself has no value
  // A named constant is evaluated where it is declared, with nothing bound.
  return evaluate(init, { facts: scope.facts, owner }, new Set([...seen, decl]));
}

/**
 * Whether an expression is a compile-time constant where it is written: a constant in the narrow sense
 * of ctc.rst (a literal, a named constant, a loop variable, a static const parameter, whose value may only
 * be known once lowered), or anything `evaluate` folds.
 */
export function isConstant(e: Expr, scope: ConstScope): boolean {
  return constValue(e, scope.facts, scope.owner, new Set(), scope.bound) !== null || evaluate(e, scope) !== null;
}

/** The int value of a constant expression where it is known. */
export function intValue(e: Expr, scope: ConstScope): bigint | null {
  const v = evaluate(e, scope);
  if (v && typeof v.value === 'bigint') return v.value;
  const c = constValue(e, scope.facts, scope.owner, new Set(), scope.bound);
  return c?.value ?? null;
}

/**
 * The int value of a constant named in text the parser does not read (an asm loop count): `N`, a static
 * const of the scope's owner or a file-level constant, as a bare name reaches them in code; or `Owner.N`.
 */
export function namedInt(name: string, scope: ConstScope): bigint | null {
  const dot = name.indexOf('.');
  const owner = dot < 0 ? scope.owner : scope.facts.env.owner(name.slice(0, dot));
  const member = name.slice(dot + 1);
  const property = owner?.properties.find((p) => p.name === member && p.isStatic && p.isConst);
  const item = dot < 0 ? scope.facts.env.items.get(name) : undefined;
  const decl = property ?? (item?.kind === 'const' ? item : null);
  const v = decl && declValue(decl, property ? owner : null, scope, new Set());
  return typeof v?.value === 'bigint' ? v.value : null;
}

/** A named static constant an expression refers to: by bare name, `this.N` or `Owner.N`. */
export interface ConstRef {
  decl: ConstDecl | Property;
  owner: ContractLike | null;
}

export function constRef(e: Expr, scope: ConstScope): ConstRef | null {
  if (e.kind === 'ident') {
    const sym = scope.facts.idents.get(e);
    return sym?.kind === 'const' ? { decl: sym.decl, owner: sym.owner } : null;
  }
  if (e.kind !== 'member') return null;
  const owner = staticOwner(e, scope);
  const decl = owner?.properties.find((p) => p.name === e.name && p.isStatic);
  return decl && owner ? { decl, owner } : null;
}

/**
 * Whether a static constant lives on the stack rather than in the code: the official compiler inlines
 * `int` and `bool` constants at each use and pushes every other one (bytes and its subtypes, PrivKey,
 * arrays, structs) once at the bottom of the script, picking it from there.
 */
export function isStackConstant(decl: ConstDecl | Property): boolean {
  return decl.type.dims.length > 0 || (decl.type.name !== 'int' && decl.type.name !== 'bool');
}

/**
 * The leaves of a constant's value in layout order (arrays row-major, struct fields in order), or null
 * when some leaf is not a compile-time constant: a scalar constant is one leaf; array and struct literals
 * (nested, or naming other constants) are flattened.
 */
export function constLeaves(e: Expr, scope: ConstScope, seen: ReadonlySet<object> = new Set()): ConstVal[] | null {
  if (e.kind === 'array' || e.kind === 'structLit') {
    const parts = e.kind === 'array' ? e.items : e.fields;
    const out: ConstVal[] = [];
    for (const p of parts) {
      const leaves = constLeaves(p, scope, seen);
      if (!leaves) return null;
      out.push(...leaves);
    }
    return out;
  }
  const ref = constRef(e, scope);
  if (ref && !seen.has(ref.decl)) {
    const init = 'value' in ref.decl ? ref.decl.value : ref.decl.init;
    if (init && (init.kind === 'array' || init.kind === 'structLit' || init.kind === 'ident' || init.kind === 'member')) {
      return constLeaves(init, { facts: scope.facts, owner: ref.owner }, new Set([...seen, ref.decl]));
    }
  }
  const v = evaluate(e, scope, seen);
  return v && [v];
}
