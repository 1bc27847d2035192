import type { ContractLike, Expr, Func, Stmt, TypeRef } from './ast.js';
import type { Diagnostics, Position } from './diagnostics.js';
import { pushBytes, pushInt, type Token } from './script.js';

/** The value types of the core subset. Bytes subtypes keep their name for the ABI. */
export const BYTES_TYPES = new Set(['bytes', 'PubKey', 'Sig', 'Ripemd160', 'PubKeyHash', 'Sha1', 'Sha256', 'SigHashType', 'SigHashPreimage', 'OpCodeType']);
export const INT_TYPES = new Set(['int', 'PrivKey']);
export type Family = 'int' | 'bool' | 'bytes';

/** The type the ABI shows: aliases resolved (PubKeyHash is Ripemd160), arrays as `T[n][m]`. */
export const abiType = (name: string) => name.replace(/^PubKeyHash\b/, 'Ripemd160');

/** `Sig[2][3]` → { elem: 'Sig', dims: [2, 3] }. */
export function arrayOf(type: string): { elem: string; dims: number[] } | null {
  const m = /^(\w+)((?:\[\d+\])+)$/.exec(type);
  return m ? { elem: m[1], dims: [...m[2].matchAll(/\[(\d+)\]/g)].map((x) => Number(x[1])) } : null;
}

/** The stack slots of a value: one for a scalar, one per element for arrays (row-major, as scryptlib flattens). */
export function slotsOf(name: string, type: string): string[] {
  const arr = arrayOf(type);
  if (!arr) return [name];
  let names = [name];
  for (const d of arr.dims) names = names.flatMap((n) => Array.from({ length: d }, (_, i) => `${n}[${i}]`));
  return names;
}

export function familyOf(name: string): Family | null {
  if (INT_TYPES.has(name)) return 'int';
  if (name === 'bool') return 'bool';
  if (BYTES_TYPES.has(name)) return 'bytes';
  return null;
}

class Unsupported extends Error {
  constructor(
    readonly at: Position,
    message: string,
  ) {
    super(message);
  }
}

/** Built-in functions of the core subset: argument families, result type, and their opcodes. */
const BUILTINS: Record<string, { args: Family[]; result: string; ops: string[] }> = {
  hash160: { args: ['bytes'], result: 'Ripemd160', ops: ['OP_HASH160'] },
  sha256: { args: ['bytes'], result: 'Sha256', ops: ['OP_SHA256'] },
  hash256: { args: ['bytes'], result: 'Sha256', ops: ['OP_HASH256'] },
  ripemd160: { args: ['bytes'], result: 'Ripemd160', ops: ['OP_RIPEMD160'] },
  sha1: { args: ['bytes'], result: 'Sha1', ops: ['OP_SHA1'] },
  checkSig: { args: ['bytes', 'bytes'], result: 'bool', ops: ['OP_CHECKSIG'] },
  len: { args: ['bytes'], result: 'int', ops: ['OP_SIZE', 'OP_NIP'] },
  num2bin: { args: ['int', 'int'], result: 'bytes', ops: ['OP_NUM2BIN'] },
  unpack: { args: ['bytes'], result: 'int', ops: ['OP_BIN2NUM'] },
  pack: { args: ['int'], result: 'bytes', ops: [] },
  abs: { args: ['int'], result: 'int', ops: ['OP_ABS'] },
  min: { args: ['int', 'int'], result: 'int', ops: ['OP_MIN'] },
  max: { args: ['int', 'int'], result: 'int', ops: ['OP_MAX'] },
  within: { args: ['int', 'int', 'int'], result: 'bool', ops: ['OP_WITHIN'] },
};

const ARITH: Record<string, string> = { '+': 'OP_ADD', '-': 'OP_SUB', '*': 'OP_MUL', '/': 'OP_DIV', '%': 'OP_MOD' };
const COMPARE: Record<string, string> = { '<': 'OP_LESSTHAN', '<=': 'OP_LESSTHANOREQUAL', '>': 'OP_GREATERTHAN', '>=': 'OP_GREATERTHANOREQUAL' };

/**
 * Code generation over a symbolic stack, in the official compiler's non-optimised shape: every read is
 * a PICK by depth (OP_<d> OP_PICK), a non-final require is `e OP_VERIFY`, the final require leaves its
 * value and NIPs everything else, and several public functions are dispatched on a selector.
 */
export class CodeGen {
  private out: Token[] = [];
  /** Names on the stack, bottom first; temporaries are null. */
  private stack: (string | null)[] = [];
  private types = new Map<string, string>();
  /** Compile-time constants in scope: static consts and loop induction variables. */
  private consts = new Map<string, bigint>();
  /** Functions being inlined, outermost first (a repeat would be recursion). */
  private readonly calling: string[] = [];

  constructor(
    private readonly contract: ContractLike,
    private readonly diags: Diagnostics,
    globals: ReadonlyMap<string, Expr> = new Map(),
  ) {
    for (const [name, value] of globals) if (value.kind === 'int') this.consts.set(name, value.value);
  }

  /** The value of a compile-time constant expression (a literal, or a constant in scope). */
  private constant(e: Expr): bigint | null {
    if (e.kind === 'int') return e.value;
    if (e.kind === 'ident') return this.consts.get(e.name) ?? null;
    if (e.kind === 'member' && e.object.kind === 'this') return this.consts.get(e.name) ?? null;
    if (e.kind === 'unary' && e.op === '-') {
      const v = this.constant(e.operand);
      return v === null ? null : -v;
    }
    return null;
  }

  private emit(...ops: string[]): void {
    for (const op of ops) this.out.push({ op });
  }

  private pick(depth: number): void {
    this.out.push(pushInt(BigInt(depth)));
    this.emit('OP_PICK');
  }

  private depthOf(name: string, at: Position): number {
    const i = this.stack.lastIndexOf(name);
    if (i === -1) throw new Unsupported(at, `unknown name '${name.replace(/^this\./, '')}'`);
    return this.stack.length - 1 - i;
  }

  /** The whole locking script (after the property placeholders) for the contract's public functions. */
  generate(): Token[] | null {
    const c = this.contract;
    const props = c.properties.filter((p) => !p.isStatic);
    const publics = c.functions.filter((f) => f.visibility === 'public');
    try {
      for (const p of c.properties) {
        if (p.isStatic) {
          // static const with a literal value: a compile-time constant, no stack slot.
          const v = p.init && p.isConst ? this.constant(p.init) : null;
          if (v === null || familyOf(p.type.name) !== 'int') throw new Unsupported(p.at, 'only static const int properties with a constant value are supported yet');
          this.consts.set(p.name, v);
          continue;
        }
        if (p.state || p.init) throw new Unsupported(p.at, 'initialised and @state properties are not supported yet');
        this.checkType(p.type);
      }
      for (const f of c.functions) {
        if (f.visibility === 'public' && f.isStatic) throw new Unsupported(f.at, 'a public function cannot be static');
      }
      if (publics.length === 0) throw new Unsupported(c.at, `contract ${c.name} needs at least one public function`);
      const head: Token[] = c.ctor ? this.constructorCode(props) : props.flatMap((p) => slotsOf(p.name, this.checkType(p.type)).map((placeholder) => ({ placeholder })));
      publics.forEach((f, i) => {
        this.stack = f.params.flatMap((p) => slotsOf(p.name, this.checkType(p.type)));
        if (publics.length > 1) this.stack.push(null); // the selector
        this.stack.push(...props.flatMap((p) => slotsOf(`this.${p.name}`, this.checkType(p.type))));
        this.types = new Map([...f.params.map((p) => [p.name, this.checkType(p.type)] as const), ...props.map((p) => [`this.${p.name}`, this.checkType(p.type)] as const)]);
        if (publics.length > 1) {
          this.pick(props.length);
          this.out.push(pushInt(BigInt(i)));
          this.emit('OP_EQUAL', 'OP_IF');
        }
        this.functionBody(f);
        if (publics.length > 1) this.emit('OP_ELSE');
      });
      if (publics.length > 1) {
        this.emit('OP_0');
        for (let i = 0; i < publics.length; i++) this.emit('OP_ENDIF');
      }
      return [...head, ...this.out];
    } catch (err) {
      if (err instanceof Unsupported) {
        this.diags.error(err.at, err.message);
        return null;
      }
      throw err;
    }
  }

  /**
   * An explicit constructor, in the official shape: an OP_0 slot per property, the constructor
   * parameters' placeholders, OP_NOP, the body (assignments move values into the slots), an OP_DROP per
   * parameter, OP_NOP.
   */
  private constructorCode(props: ContractLike['properties']): Token[] {
    const ctor = this.contract.ctor!;
    const propSlots = props.flatMap((p) => slotsOf(`this.${p.name}`, this.checkType(p.type)));
    const paramSlots = ctor.params.flatMap((p) => slotsOf(p.name, this.checkType(p.type)));
    this.stack = [...propSlots, ...paramSlots];
    this.types = new Map([...props.map((p) => [`this.${p.name}`, this.checkType(p.type)] as const), ...ctor.params.map((p) => [p.name, this.checkType(p.type)] as const)]);
    this.out = [...propSlots.map((): Token => ({ op: 'OP_0' })), ...paramSlots.map((placeholder): Token => ({ placeholder })), { op: 'OP_NOP' }];
    for (const s of ctor.body) this.stmt(s);
    while (this.stack.length > propSlots.length) {
      this.emit('OP_DROP');
      this.stack.pop();
    }
    this.emit('OP_NOP');
    const code = this.out;
    this.out = [];
    return code;
  }

  /** A declared type as the ABI writes it (`Sig[2]`), array sizes evaluated. */
  resolveType(t: TypeRef): string {
    return abiType(this.checkType(t));
  }

  private checkType(t: TypeRef): string {
    if (t.generics.length || !familyOf(t.name)) throw new Unsupported(t.at, `type ${t.name} is not supported yet (int, bool, bytes, its subtypes, and fixed arrays of them are)`);
    const dims = t.dims.map((d) => {
      const n = this.constant(d);
      if (n === null || n < 1n || n > 1000n) throw new Unsupported(d.at, 'an array size must be a compile-time constant from 1 to 1000');
      return `[${n}]`;
    });
    return t.name + dims.join('');
  }

  /** The slot an element access names: `a[1]`, `this.keys[0]`, `m[1][2]` with compile-time indices. */
  private elementSlot(e: Expr): { slot: string; type: string } | null {
    if (e.kind === 'ident') return this.types.has(e.name) ? { slot: e.name, type: this.types.get(e.name)! } : null;
    if (e.kind === 'member' && e.object.kind === 'this') {
      const key = `this.${e.name}`;
      return this.types.has(key) ? { slot: key, type: this.types.get(key)! } : null;
    }
    if (e.kind === 'index') {
      const base = this.elementSlot(e.object);
      const arr = base && arrayOf(base.type);
      if (!base || !arr) throw new Unsupported(e.at, 'only arrays can be indexed');
      const k = this.constant(e.index);
      if (k === null) throw new Unsupported(e.index.at, 'array indices must be compile-time constants in this version');
      if (k < 0n || k >= BigInt(arr.dims[0])) throw new Unsupported(e.index.at, `index ${k} is out of bounds for ${base.type}`);
      const rest = arr.dims.slice(1);
      return { slot: `${base.slot}[${k}]`, type: arr.elem + rest.map((d) => `[${d}]`).join('') };
    }
    return null;
  }

  private functionBody(f: Func): void {
    const last = f.body[f.body.length - 1];
    if (!last || last.kind !== 'require') throw new Unsupported(f.at, `public function ${f.name} must end with require(…)`);
    for (const s of f.body.slice(0, -1)) this.stmt(s);
    const t = this.expr(last.cond);
    if (t !== 'bool' && familyOf(t) !== 'bool') this.requireBool(t, last.cond.at);
    for (let i = 0; i < this.stack.length - 1; i++) this.emit('OP_NIP');
  }

  private requireBool(type: string, at: Position): void {
    if (familyOf(type) !== 'bool') throw new Unsupported(at, `require needs a bool, not ${type}`);
  }

  private stmt(s: Stmt): void {
    switch (s.kind) {
      case 'require': {
        this.requireBool(this.expr(s.cond), s.cond.at);
        this.emit('OP_VERIFY');
        this.stack.pop();
        return;
      }
      case 'var': {
        if (!s.init) throw new Unsupported(s.at, `variable ${s.name} needs an initial value`);
        if (s.type !== 'auto' && s.type.dims.length) {
          const declared = this.checkType(s.type);
          const arr = arrayOf(declared)!;
          if (arr.dims.length !== 1 || s.init.kind !== 'array' || s.init.items.length !== arr.dims[0]) {
            throw new Unsupported(s.at, `${s.name} needs an array literal of ${arr.dims[0]} items (one-dimensional arrays in this version)`);
          }
          s.init.items.forEach((item, i) => {
            const t = this.expr(item);
            if (familyOf(t) !== familyOf(arr.elem)) throw new Unsupported(item.at, `item ${i} must be ${arr.elem}, not ${t}`);
            this.stack[this.stack.length - 1] = `${s.name}[${i}]`;
          });
          this.types.set(s.name, declared);
          return;
        }
        const t = this.expr(s.init);
        const declared = s.type === 'auto' ? t : this.checkType(s.type);
        if (familyOf(declared) !== familyOf(t)) throw new Unsupported(s.at, `cannot assign ${t} to ${declared} ${s.name}`);
        this.stack[this.stack.length - 1] = s.name;
        this.types.set(s.name, declared);
        return;
      }
      case 'assign': {
        const target = s.target.kind === 'index' ? this.elementSlot(s.target) : null;
        const name = target
          ? target.slot
          : s.target.kind === 'ident'
            ? s.target.name
            : s.target.kind === 'member' && s.target.object.kind === 'this'
              ? `this.${s.target.name}`
              : null;
        if (!name) throw new Unsupported(s.at, 'only variables, this.<property> and array elements can be assigned in this version');
        const type = target ? target.type : this.types.get(name);
        if (type && arrayOf(type)) throw new Unsupported(s.at, 'whole arrays cannot be assigned in this version; assign their elements');
        if (!type) throw new Unsupported(s.at, name.startsWith('this.') ? `${this.contract.name} has no property '${name.slice(5)}'` : `unknown name '${name}'`);
        if (s.op === '=') this.expr(s.value);
        else {
          const arith = ARITH[s.op.slice(0, -1)];
          if (!arith) throw new Unsupported(s.at, `${s.op} is not supported yet`);
          this.pick(this.depthOf(name, s.at));
          this.stack.push(null);
          this.expr(s.value);
          this.emit(familyOf(type) === 'bytes' && s.op === '+=' ? 'OP_CAT' : arith);
          this.stack.pop();
        }
        this.replace(name, s.at);
        return;
      }
      case 'if': {
        const t = this.expr(s.cond);
        if (familyOf(t) === 'int') this.emit('OP_0NOTEQUAL');
        this.emit('OP_IF');
        this.stack.pop();
        this.branch(s.then);
        if (s.else) {
          this.emit('OP_ELSE');
          this.branch(s.else);
        }
        this.emit('OP_ENDIF');
        return;
      }
      case 'block':
        this.branch(s);
        return;
      case 'codesep':
        this.emit('OP_CODESEPARATOR');
        return;
      case 'loop': {
        // Unrolled: each copy starts with OP_NOP and sees its own value of the induction variable.
        const n = this.constant(s.count);
        if (n === null) throw new Unsupported(s.count.at, 'the loop count must be a compile-time constant');
        if (n < 0n || n > 10_000n) throw new Unsupported(s.count.at, `the loop count must be between 0 and 10000, not ${n}`);
        const outer = s.induction ? this.consts.get(s.induction) : undefined;
        for (let k = 0n; k < n; k++) {
          this.emit('OP_NOP');
          if (s.induction) this.consts.set(s.induction, k);
          this.branch(s.body);
        }
        if (s.induction) {
          if (outer === undefined) this.consts.delete(s.induction);
          else this.consts.set(s.induction, outer);
        }
        return;
      }
      default:
        throw new Unsupported(s.at, `${s.kind} statements are not supported yet`);
    }
  }

  /** A nested block: its locals are dropped at its end, so both branches leave the stack as found. */
  private branch(s: Stmt): void {
    const height = this.stack.length;
    const types = new Map(this.types);
    for (const inner of s.kind === 'block' ? s.body : [s]) this.stmt(inner);
    while (this.stack.length > height) {
      this.emit('OP_DROP');
      this.stack.pop();
    }
    this.types = types;
  }

  /** Moves the new value (on top) into the variable's slot: OP_d OP_ROLL OP_DROP, then (d−1)× OP_(d−1) OP_ROLL. */
  private replace(name: string, at: Position): void {
    const d = this.depthOf(name, at);
    this.out.push(pushInt(BigInt(d)));
    this.emit('OP_ROLL', 'OP_DROP');
    for (let k = 0; k < d - 1; k++) {
      this.out.push(pushInt(BigInt(d - 1)));
      this.emit('OP_ROLL');
    }
    this.stack.pop(); // the new value now sits in the variable's slot
  }

  /** Emits an expression; its value ends on top of the stack. Returns its type name. */
  private expr(e: Expr): string {
    const push = (token: Token, type: string) => {
      this.out.push(token);
      this.stack.push(null);
      return type;
    };
    switch (e.kind) {
      case 'int':
        return push(pushInt(e.value), 'int');
      case 'bool':
        return push({ op: e.value ? 'OP_1' : 'OP_0' }, 'bool');
      case 'bytes':
        return push(pushBytes(e.hex), 'bytes');
      case 'string':
        return push(pushBytes(Buffer.from(e.value, 'utf8').toString('hex')), 'bytes');
      case 'ident': {
        const constant = this.consts.get(e.name);
        if (constant !== undefined && !this.types.has(e.name)) return push(pushInt(constant), 'int');
        const type = this.types.get(e.name);
        if (!type) throw new Unsupported(e.at, `unknown name '${e.name}'`);
        if (arrayOf(type)) throw new Unsupported(e.at, `the array ${e.name} can only be used element by element (or in checkMultiSig) in this version`);
        this.pick(this.depthOf(e.name, e.at));
        this.stack.push(null);
        return type;
      }
      case 'member': {
        if (e.object.kind !== 'this') throw new Unsupported(e.at, 'member access other than this.<property> is not supported yet');
        const key = `this.${e.name}`;
        const constant = this.consts.get(e.name);
        if (constant !== undefined && !this.types.has(key)) return push(pushInt(constant), 'int');
        const type = this.types.get(key);
        if (!type) throw new Unsupported(e.at, `${this.contract.name} has no property '${e.name}'`);
        this.pick(this.depthOf(key, e.at));
        this.stack.push(null);
        return type;
      }
      case 'call':
        return this.call(e);
      case 'unary': {
        const t = this.expr(e.operand);
        if (e.op === '!') {
          if (familyOf(t) !== 'bool') throw new Unsupported(e.at, `! needs a bool, not ${t}`);
          this.emit('OP_NOT');
          return 'bool';
        }
        if (e.op === '-') {
          if (familyOf(t) !== 'int') throw new Unsupported(e.at, `unary - needs an int, not ${t}`);
          this.emit('OP_NEGATE');
          return 'int';
        }
        throw new Unsupported(e.at, `unary ${e.op} is not supported yet`);
      }
      case 'binary':
        return this.binary(e as Extract<Expr, { kind: 'binary' }>);
      case 'ternary': {
        const c = this.expr(e.cond);
        if (familyOf(c) !== 'bool') throw new Unsupported(e.cond.at, `the condition needs a bool, not ${c}`);
        this.emit('OP_IF');
        this.stack.pop();
        const a = this.expr(e.then);
        this.stack.pop();
        this.emit('OP_ELSE');
        const b = this.expr(e.else);
        this.emit('OP_ENDIF');
        if (familyOf(a) !== familyOf(b)) throw new Unsupported(e.at, `both branches of ?: need the same type (${a}, ${b})`);
        return a;
      }
      case 'index': {
        const el = this.elementSlot(e)!;
        if (arrayOf(el.type)) throw new Unsupported(e.at, 'a whole sub-array cannot be read in this version');
        this.pick(this.depthOf(el.slot, e.at));
        this.stack.push(null);
        return el.type;
      }
      case 'slice': {
        const t = this.expr(e.object);
        if (familyOf(t) !== 'bytes') throw new Unsupported(e.at, `only bytes can be sliced, not ${t}`);
        if (e.end) {
          this.intArg(e.end);
          this.emit('OP_SPLIT', 'OP_DROP');
          this.stack.pop();
        }
        if (e.start) {
          this.intArg(e.start);
          this.emit('OP_SPLIT', 'OP_NIP');
          this.stack.pop();
        }
        return 'bytes';
      }
      default:
        throw new Unsupported(e.at, `${e.kind} expressions are not supported yet`);
    }
  }

  private intArg(e: Expr): void {
    const t = this.expr(e);
    if (familyOf(t) !== 'int') throw new Unsupported(e.at, `expected an int, not ${t}`);
  }

  private call(e: Extract<Expr, { kind: 'call' }>): string {
    const own =
      e.callee.kind === 'member' && (e.callee.object.kind === 'this' || (e.callee.object.kind === 'ident' && e.callee.object.name === this.contract.name))
        ? e.callee.name
        : e.callee.kind === 'ident'
          ? e.callee.name
          : null;
    const fn = own ? this.contract.functions.find((f) => f.name === own && f.visibility !== 'public') : undefined;
    if (fn) return this.inline(fn, e.args, e.at);
    if (e.callee.kind !== 'ident') throw new Unsupported(e.at, 'only built-ins, casts and this contract\'s private or static functions can be called in this version');
    const name = e.callee.name;
    if (familyOf(name) && name !== 'int' && name !== 'bool') {
      // A cast such as PubKey(b): no code, a new type.
      if (e.args.length !== 1) throw new Unsupported(e.at, `${name}(…) takes one argument`);
      const t = this.expr(e.args[0]);
      if (familyOf(t) !== familyOf(name)) throw new Unsupported(e.at, `cannot convert ${t} to ${name}`);
      return name;
    }
    if (name === 'checkMultiSig') return this.checkMultiSig(e);
    const b = BUILTINS[name];
    if (!b) throw new Unsupported(e.at, `${name}() is not supported yet`);
    if (e.args.length !== b.args.length) throw new Unsupported(e.at, `${name}() takes ${b.args.length} argument(s), got ${e.args.length}`);
    e.args.forEach((a, i) => {
      const t = this.expr(a);
      if (familyOf(t) !== b.args[i]) throw new Unsupported(a.at, `argument ${i + 1} of ${name}() must be ${b.args[i]}, not ${t}`);
    });
    this.emit(...b.ops);
    this.stack.splice(this.stack.length - b.args.length, b.args.length, null);
    return b.result;
  }

  /** checkMultiSig(Sig[M], PubKey[N]): OP_0 sig0…sigM-1 <M> pk0…pkN-1 <N> OP_CHECKMULTISIG. */
  private checkMultiSig(e: Extract<Expr, { kind: 'call' }>): string {
    if (e.args.length !== 2) throw new Unsupported(e.at, 'checkMultiSig() takes an array of Sig and an array of PubKey');
    const [sigs, keys] = e.args.map((a) => this.elementSlot(a));
    const sa = sigs && arrayOf(sigs.type);
    const ka = keys && arrayOf(keys.type);
    if (!sa || sa.elem !== 'Sig' || sa.dims.length !== 1) throw new Unsupported(e.args[0].at, 'the first argument of checkMultiSig() must be a Sig[M] array');
    if (!ka || ka.elem !== 'PubKey' || ka.dims.length !== 1) throw new Unsupported(e.args[1].at, 'the second argument of checkMultiSig() must be a PubKey[N] array');
    const before = this.stack.length;
    this.emit('OP_0');
    this.stack.push(null);
    for (const slot of slotsOf(sigs.slot, sigs.type)) {
      this.pick(this.depthOf(slot, e.at));
      this.stack.push(null);
    }
    this.out.push(pushInt(BigInt(sa.dims[0])));
    this.stack.push(null);
    for (const slot of slotsOf(keys.slot, keys.type)) {
      this.pick(this.depthOf(slot, e.at));
      this.stack.push(null);
    }
    this.out.push(pushInt(BigInt(ka.dims[0])));
    this.stack.push(null);
    this.emit('OP_CHECKMULTISIG');
    this.stack.splice(before, this.stack.length - before, null);
    return 'bool';
  }

  /**
   * A private or static function, inlined: the arguments become its parameters' slots, OP_NOP marks
   * the start and the end, and everything between the call's base and the result is removed
   * (OP_1 OP_ROLL OP_DROP per slot). The body sees only its parameters, its locals and the properties.
   */
  private inline(f: Func, args: Expr[], at: Position): string {
    if (this.calling.includes(f.name)) throw new Unsupported(at, `recursion is not allowed: ${[...this.calling, f.name].join(' → ')}`);
    if (!f.returnType) throw new Unsupported(f.at, `function ${f.name} needs a return type`);
    const last = f.body[f.body.length - 1];
    if (!last || last.kind !== 'return') throw new Unsupported(f.at, `function ${f.name} must end with return`);
    if (args.length !== f.params.length) throw new Unsupported(at, `${f.name}() takes ${f.params.length} argument(s), got ${args.length}`);
    const returnType = this.checkType(f.returnType);
    const base = this.stack.length;
    const scope = new Map([...this.types].filter(([k]) => k.startsWith('this.') && !f.isStatic));
    f.params.forEach((p, i) => {
      if (p.isStaticConst) throw new Unsupported(p.at, 'static const parameters are not supported yet');
      const want = this.checkType(p.type);
      const got = this.expr(args[i]);
      if (familyOf(got) !== familyOf(want)) throw new Unsupported(args[i].at, `argument ${i + 1} of ${f.name}() must be ${want}, not ${got}`);
      this.stack[this.stack.length - 1] = p.name;
      scope.set(p.name, want);
    });
    const saved = this.types;
    this.types = scope;
    this.calling.push(f.name);
    this.emit('OP_NOP');
    for (const s of f.body.slice(0, -1)) {
      if (s.kind === 'return') throw new Unsupported(s.at, 'only one return, as the last statement');
      this.stmt(s);
    }
    const got = this.expr(last.value);
    if (familyOf(got) !== familyOf(returnType)) throw new Unsupported(last.at, `${f.name} returns ${returnType}, not ${got}`);
    while (this.stack.length - 1 > base) {
      this.out.push(pushInt(1n));
      this.emit('OP_ROLL', 'OP_DROP');
      this.stack.splice(this.stack.length - 2, 1);
    }
    this.emit('OP_NOP');
    this.calling.pop();
    this.types = saved;
    return returnType;
  }

  private binary(e: Extract<Expr, { kind: 'binary' }>): string {
    if (e.op === '&&' || e.op === '||') {
      const a = this.expr(e.left);
      if (familyOf(a) !== 'bool') throw new Unsupported(e.left.at, `${e.op} needs bools, not ${a}`);
      this.emit(e.op === '&&' ? 'OP_IF' : 'OP_NOTIF');
      this.stack.pop();
      const b = this.expr(e.right);
      if (familyOf(b) !== 'bool') throw new Unsupported(e.right.at, `${e.op} needs bools, not ${b}`);
      this.emit('OP_ELSE', e.op === '&&' ? 'OP_0' : 'OP_1', 'OP_ENDIF');
      return 'bool';
    }
    const a = this.expr(e.left);
    const b = this.expr(e.right);
    const fa = familyOf(a);
    const fb = familyOf(b);
    this.stack.splice(-2, 2, null);
    if (e.op === '==' || e.op === '!=') {
      if (fa !== fb) throw new Unsupported(e.at, `cannot compare ${a} with ${b}`);
      if (fa === 'int') this.emit(e.op === '==' ? 'OP_NUMEQUAL' : 'OP_NUMNOTEQUAL');
      else this.emit(...(e.op === '==' ? ['OP_EQUAL'] : ['OP_EQUAL', 'OP_NOT']));
      return 'bool';
    }
    if (COMPARE[e.op]) {
      if (fa !== 'int' || fb !== 'int') throw new Unsupported(e.at, `${e.op} compares ints, not ${a} and ${b}`);
      this.emit(COMPARE[e.op]);
      return 'bool';
    }
    if (e.op === '+' && fa === 'bytes' && fb === 'bytes') {
      this.emit('OP_CAT');
      return 'bytes';
    }
    if (ARITH[e.op]) {
      if (fa !== 'int' || fb !== 'int') throw new Unsupported(e.at, `${e.op} needs ints, not ${a} and ${b}`);
      this.emit(ARITH[e.op]);
      return 'int';
    }
    throw new Unsupported(e.at, `operator ${e.op} is not supported yet`);
  }
}
