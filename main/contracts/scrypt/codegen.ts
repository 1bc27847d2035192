import type { ContractLike, Expr, Func, Param, Program, Stmt, TypeRef } from './ast.js';
import type { Diagnostics, Position } from './diagnostics.js';
import { OP, pushBytes, pushInt, type Token } from './script.js';
import { StatefulSupport } from './stateful.js';
import { arrayOf, elementOf, familyOf, genericOf, TypeError_, TypeSystem } from './types.js';


class Unsupported extends TypeError_ {}

/** The most script elements one contract may compile to (about 2 MB of script; unrolled loops grow fast). */
export const MAX_SCRIPT_OPS = 2_000_000;

class ScriptTooLarge extends Error {}

/** A compile-time constant value. */
export interface ConstVal {
  type: string;
  value: bigint | boolean | string;
}

/** Built-in functions: argument families, result type, and their opcodes. */
const BUILTINS: Record<string, { args: ('int' | 'bool' | 'bytes')[]; result: string; ops: string[] }> = {
  hash160: { args: ['bytes'], result: 'Ripemd160', ops: ['OP_HASH160'] },
  sha256: { args: ['bytes'], result: 'Sha256', ops: ['OP_SHA256'] },
  hash256: { args: ['bytes'], result: 'Sha256', ops: ['OP_HASH256'] },
  ripemd160: { args: ['bytes'], result: 'Ripemd160', ops: ['OP_RIPEMD160'] },
  sha1: { args: ['bytes'], result: 'Sha1', ops: ['OP_SHA1'] },
  checkSig: { args: ['bytes', 'bytes'], result: 'bool', ops: ['OP_CHECKSIG'] },
  len: { args: ['bytes'], result: 'int', ops: ['OP_SIZE', 'OP_NIP'] },
  num2bin: { args: ['int', 'int'], result: 'bytes', ops: ['OP_NUM2BIN'] },
  int2str: { args: ['int', 'int'], result: 'bytes', ops: ['OP_NUM2BIN'] },
  unpack: { args: ['bytes'], result: 'int', ops: ['OP_BIN2NUM'] },
  bin2num: { args: ['bytes'], result: 'int', ops: ['OP_BIN2NUM'] },
  pack: { args: ['int'], result: 'bytes', ops: [] },
  abs: { args: ['int'], result: 'int', ops: ['OP_ABS'] },
  min: { args: ['int', 'int'], result: 'int', ops: ['OP_MIN'] },
  max: { args: ['int', 'int'], result: 'int', ops: ['OP_MAX'] },
  within: { args: ['int', 'int', 'int'], result: 'bool', ops: ['OP_WITHIN'] },
};

const ARITH: Record<string, string> = { '+': 'OP_ADD', '-': 'OP_SUB', '*': 'OP_MUL', '/': 'OP_DIV', '%': 'OP_MOD' };
const COMPARE: Record<string, string> = { '<': 'OP_LESSTHAN', '<=': 'OP_LESSTHANOREQUAL', '>': 'OP_GREATERTHAN', '>=': 'OP_GREATERTHANOREQUAL' };
const BITWISE: Record<string, string> = { '&': 'OP_AND', '|': 'OP_OR', '^': 'OP_XOR' };
const CAST_TYPES = new Set(['bytes', 'PubKey', 'Sig', 'Ripemd160', 'PubKeyHash', 'Sha1', 'Sha256', 'SigHashType', 'SigHashPreimage', 'OpCodeType', 'PrivKey', 'int', 'bool']);

/** What `this` means where code is being generated: the contract, or one library value. */
interface Self {
  /** Slot prefix of the value's leaves: `this` for the contract, `l` or `this.lib` for a library. */
  prefix: string;
  type: string;
  decl: ContractLike;
}

/** What a name means where code is being generated. */
interface Scope {
  /** Parameters and locals: name → slot prefix and type. */
  vars: Map<string, { slot: string; type: string }>;
  self: Self | null;
  /** The contract or library whose functions and static consts are visible without qualification. */
  owner: ContractLike;
  typeParams: Map<string, string>;
  /** Loop induction variables and static const parameters. */
  consts: Map<string, ConstVal>;
}

/**
 * A storage location: leaves [offset, offset + size(type)) of the variable whose slots are named
 * `root + suffix`, plus run-time array indices (each index × stride, in leaves).
 */
interface Place {
  root: string;
  rootType: string;
  type: string;
  offset: number;
  dynamic: { index: Expr; size: number; stride: number }[];
}

/**
 * Code generation over a symbolic stack, in the official compiler's non-optimised shape: every read is
 * a PICK by depth (OP_<d> OP_PICK), a non-final require is `e OP_VERIFY`, the final require leaves its
 * value and NIPs everything else, several public functions are dispatched on a selector, and private,
 * static and library functions are inlined between OP_NOP markers. Composite values (arrays, structs,
 * library values) occupy one slot per scalar leaf, named as scryptlib flattens them.
 */
export class CodeGen {
  private out: Token[] = [];
  /** Slot names, bottom first; temporaries are null. */
  private stack: (string | null)[] = [];
  /** Functions being inlined, outermost first (a repeat would be recursion). */
  private readonly calling: string[] = [];
  readonly types: TypeSystem;
  private readonly decls = new Map<string, ContractLike>();
  private readonly constDecls = new Map<string, { type: TypeRef; value: Expr; owner: ContractLike | null }>();
  private readonly constVals = new Map<string, ConstVal | null>();
  private stateful!: StatefulSupport;
  private currentFunction = '';

  constructor(
    private readonly program: Program,
    private readonly contract: ContractLike,
    private readonly diags: Diagnostics,
  ) {
    this.types = new TypeSystem(program, (e) => this.ctc(e, this.scopeFor(this.contract)));
    for (const item of program.items) {
      if (item.kind === 'contract' || item.kind === 'library') {
        this.decls.set(item.name, item);
        for (const p of item.properties) if (p.isStatic && p.init) this.constDecls.set(`${item.name}.${p.name}`, { type: p.type, value: p.init, owner: item });
      } else if (item.kind === 'const') this.constDecls.set(item.name, { type: item.type, value: item.value, owner: null });
    }
  }

  // ---------------------------------------------------------------- constants

  private scopeFor(owner: ContractLike): Scope {
    return { vars: new Map(), self: null, owner, typeParams: new Map(), consts: new Map() };
  }

  /** A named constant: an induction variable or static const parameter, the owner's static const, or a file-level one. */
  private lookupConst(name: string, scope: Scope): ConstVal | null {
    const local = scope.consts.get(name);
    if (local) return local;
    return this.constNamed(`${scope.owner.name}.${name}`) ?? this.constNamed(name);
  }

  private constNamed(key: string): ConstVal | null {
    if (this.constVals.has(key)) {
      const v = this.constVals.get(key);
      if (v === null) throw new Unsupported(this.constDecls.get(key)!.value.at, `the constant ${key} refers to itself`);
      return v ?? null;
    }
    const decl = this.constDecls.get(key);
    if (!decl) return null;
    this.constVals.set(key, null); // in progress
    const scope = this.scopeFor(decl.owner ?? this.contract);
    const v = this.fold(decl.value, scope);
    if (!v) throw new Unsupported(decl.value.at, `the value of static const ${key.split('.').pop()} must be a compile-time constant`);
    const type = this.types.resolve(decl.type, new Map());
    const value = { type, value: v.value };
    this.constVals.set(key, value);
    return value;
  }

  /** Folds a compile-time constant expression, or returns null. */
  private fold(e: Expr, scope: Scope): ConstVal | null {
    switch (e.kind) {
      case 'int':
        return { type: 'int', value: e.value };
      case 'bool':
        return { type: 'bool', value: e.value };
      case 'bytes':
        return { type: 'bytes', value: e.hex };
      case 'string':
        return { type: 'bytes', value: Buffer.from(e.value, 'utf8').toString('hex') };
      case 'ident':
        if (scope.vars.has(e.name)) return null;
        return this.lookupConst(e.name, scope);
      case 'member': {
        if (e.object.kind === 'this') return scope.self ? this.constNamed(`${scope.self.decl.name}.${e.name}`) : this.constNamed(`${scope.owner.name}.${e.name}`);
        if (e.object.kind === 'ident' && !scope.vars.has(e.object.name) && this.decls.has(e.object.name)) return this.constNamed(`${e.object.name}.${e.name}`);
        return null;
      }
      case 'unary': {
        const v = this.fold(e.operand, scope);
        if (!v) return null;
        if (e.op === '-' && typeof v.value === 'bigint') return { type: 'int', value: -v.value };
        if (e.op === '!' && typeof v.value === 'boolean') return { type: 'bool', value: !v.value };
        return null;
      }
      case 'binary': {
        const a = this.fold(e.left, scope);
        const b = a && this.fold(e.right, scope);
        if (a && b && e.op === '+' && typeof a.value === 'string' && typeof b.value === 'string') return { type: 'bytes', value: a.value + b.value };
        if (!a || !b || typeof a.value !== 'bigint' || typeof b.value !== 'bigint') return null;
        const x = a.value;
        const y = b.value;
        switch (e.op) {
          case '+': return { type: 'int', value: x + y };
          case '-': return { type: 'int', value: x - y };
          case '*': return { type: 'int', value: x * y };
          case '/': return y === 0n ? null : { type: 'int', value: x / y };
          case '%': return y === 0n ? null : { type: 'int', value: x % y };
          default: return null;
        }
      }
      case 'call': {
        if (e.callee.kind === 'ident' && CAST_TYPES.has(e.callee.name) && e.args.length === 1) {
          const v = this.fold(e.args[0], scope);
          return v ? { type: e.callee.name === 'PubKeyHash' ? 'Ripemd160' : e.callee.name, value: v.value } : null;
        }
        return null;
      }
      default:
        return null;
    }
  }

  /** A compile-time constant integer (array sizes, loop counts), or null. */
  private ctc(e: Expr, scope: Scope): bigint | null {
    const v = this.fold(e, scope);
    return v && typeof v.value === 'bigint' ? v.value : null;
  }

  private pushConst(v: ConstVal): string {
    if (typeof v.value === 'bigint') this.out.push(pushInt(v.value));
    else if (typeof v.value === 'boolean') this.emit(v.value ? 'OP_1' : 'OP_0');
    else this.out.push(pushBytes(v.value));
    this.stack.push(null);
    return v.type;
  }

  // ---------------------------------------------------------------- stack helpers

  private emit(...ops: string[]): void {
    for (const op of ops) this.out.push({ op });
    if (this.out.length > MAX_SCRIPT_OPS) throw new ScriptTooLarge();
  }

  private pushNumber(n: number | bigint): void {
    this.out.push(pushInt(BigInt(n)));
  }

  private pick(depth: number): void {
    this.pushNumber(depth);
    this.emit('OP_PICK');
  }

  private depthOf(name: string, at: Position): number {
    const i = this.stack.lastIndexOf(name);
    if (i === -1) throw new Unsupported(at, `unknown name '${name.replace(/^this\./, '')}'`);
    return this.stack.length - 1 - i;
  }

  /** Gives the top `size(type)` temporaries the slot names of variable `name`. */
  private bind(name: string, type: string): void {
    const leaves = this.types.leaves(type);
    leaves.forEach((leaf, i) => {
      this.stack[this.stack.length - leaves.length + i] = name + leaf.suffix;
    });
  }

  private dropTop(n: number): void {
    for (let i = 0; i < n; i++) {
      this.emit('OP_DROP');
      this.stack.pop();
    }
  }

  /** Of `total` temporaries on top, keeps [start, start + count) and removes the rest. */
  private narrow(total: number, start: number, count: number): void {
    this.dropTop(total - start - count);
    for (let i = 0; i < start; i++) {
      this.pushNumber(count);
      this.emit('OP_ROLL', 'OP_DROP');
      this.stack.splice(this.stack.length - count - 1, 1);
    }
  }

  private resolve(t: TypeRef, scope: Scope): string {
    return this.types.resolve(t, scope.typeParams);
  }

  // ---------------------------------------------------------------- entry

  /** The whole locking script for the contract's public functions, or null after reporting errors. */
  generate(): Token[] | null {
    try {
      return this.generateContract();
    } catch (err) {
      if (err instanceof TypeError_) {
        this.diags.error(err.at, err.message);
        return null;
      }
      if (err instanceof RangeError) {
        this.diags.error(this.contract.at, 'the program is too large or too deeply nested to compile');
        return null;
      }
      if (err instanceof ScriptTooLarge) {
        this.diags.error(this.contract.at, `the contract compiles to more than ${MAX_SCRIPT_OPS} script elements; unroll fewer loop iterations`);
        return null;
      }
      throw err;
    }
  }

  /** The types of the contract's stored properties (static consts are compile-time, not stored). */
  properties(): { name: string; type: string; state: boolean }[] {
    const scope = this.scopeFor(this.contract);
    this.propCache ??= this.contract.properties.filter((p) => !p.isStatic).map((p) => ({ name: p.name, type: this.resolve(p.type, scope), state: p.state }));
    return this.propCache;
  }

  private propCache: { name: string; type: string; state: boolean }[] | undefined;

  /** A declared type as the ABI writes it (aliases resolved, PubKeyHash is Ripemd160); generic type parameters stay as written. */
  resolveType(t: TypeRef, generics: string[] = []): string {
    return this.types.resolve(t, new Map(generics.map((g) => [g, g])));
  }

  private contractScope(): Scope {
    const scope = this.scopeFor(this.contract);
    scope.self = { prefix: 'this', type: this.contract.name, decl: this.contract };
    return scope;
  }

  private generateContract(): Token[] {
    const c = this.contract;
    for (const p of c.properties) {
      if (p.isStatic) {
        this.constNamed(`${c.name}.${p.name}`);
        continue;
      }
      if (p.init) throw new Unsupported(p.at, `property ${p.name} cannot have an initial value unless it is static const`);
      const lib = this.decls.get(p.type.name);
      if (lib?.kind === 'library' && lib.ctor) {
        // scryptlib would fill such a property from `<name.ctor.param>` placeholders, i.e. run the
        // library's constructor off-chain; pass its parameters to the contract's constructor instead.
        throw new Unsupported(p.at, `property ${p.name}: a library with an explicit constructor cannot be a contract property; build it in a function with new ${lib.name}(…)`);
      }
    }
    const props = this.properties();
    this.stateful = new StatefulSupport(
      c,
      props.filter((p) => p.state).flatMap((p) => this.types.leaves(p.type).map((l) => ({ path: p.name + l.suffix, type: l.type }))),
    );
    const publics = c.functions.filter((f) => f.visibility === 'public');
    for (const f of c.functions) if (f.visibility === 'public' && f.isStatic) throw new Unsupported(f.at, 'a public function cannot be static');
    if (publics.length === 0) throw new Unsupported(c.at, `contract ${c.name} needs at least one public function`);
    const propSlots = props.flatMap((p) => this.types.leaves(p.type).map((l) => p.name + l.suffix));
    const head: Token[] = c.ctor ? this.constructorCode(props) : propSlots.map((placeholder) => ({ placeholder }));
    publics.forEach((f, i) => {
      this.currentFunction = f.name;
      const scope = this.contractScope();
      this.stack = [];
      for (const p of f.params) {
        if (p.isStaticConst) throw new Unsupported(p.at, 'a public function cannot take static const parameters');
        const type = this.resolve(p.type, scope);
        this.stack.push(...this.types.leaves(type).map((l) => p.name + l.suffix));
        scope.vars.set(p.name, { slot: p.name, type });
      }
      if (publics.length > 1) this.stack.push(null); // the selector
      this.stack.push(...propSlots.map((s) => `this.${s}`));
      if (publics.length > 1) {
        this.pick(propSlots.length);
        this.pushNumber(i);
        this.emit('OP_EQUAL', 'OP_IF');
      }
      this.publicBody(f, scope);
      if (publics.length > 1) this.emit('OP_ELSE');
    });
    if (publics.length > 1) {
      this.emit('OP_0');
      for (let i = 0; i < publics.length; i++) this.emit('OP_ENDIF');
    }
    return [...head, ...this.out];
  }

  /**
   * An explicit constructor, in the official shape: an OP_0 slot per property leaf, the constructor
   * parameters' placeholders, OP_NOP, the body (assignments move values into the slots), an OP_DROP per
   * parameter leaf, OP_NOP.
   */
  private constructorCode(props: { name: string; type: string }[]): Token[] {
    const ctor = this.contract.ctor!;
    const scope = this.contractScope();
    this.currentFunction = 'constructor';
    const propSlots = props.flatMap((p) => this.types.leaves(p.type).map((l) => `this.${p.name}${l.suffix}`));
    const paramSlots: string[] = [];
    for (const p of ctor.params) {
      const type = this.resolve(p.type, scope);
      paramSlots.push(...this.types.leaves(type).map((l) => p.name + l.suffix));
      scope.vars.set(p.name, { slot: p.name, type });
    }
    this.stack = [...propSlots, ...paramSlots];
    this.out = [...propSlots.map((): Token => ({ op: 'OP_0' })), ...paramSlots.map((placeholder): Token => ({ placeholder })), { op: 'OP_NOP' }];
    for (const s of ctor.body) this.stmt(s, scope);
    this.dropTop(this.stack.length - propSlots.length);
    this.emit('OP_NOP');
    const code = this.out;
    this.out = [];
    return code;
  }

  private publicBody(f: Func, scope: Scope): void {
    const last = f.body[f.body.length - 1];
    if (!last || last.kind !== 'require') throw new Unsupported(f.at, `public function ${f.name} must end with require(…)`);
    for (const s of this.stateful.prelude(f)) this.stmt(s, scope);
    this.stateful.afterPrelude(this.stack);
    for (const s of f.body.slice(0, -1)) this.stmt(s, scope);
    const t = this.expr(last.cond, scope);
    this.requireBool(t, last.cond.at);
    for (let i = 0; i < this.stack.length - 1; i++) this.emit('OP_NIP');
  }

  private requireBool(type: string, at: Position): void {
    if (familyOf(type) !== 'bool') throw new Unsupported(at, `require needs a bool, not ${type}`);
  }

  // ---------------------------------------------------------------- statements

  private stmt(s: Stmt, scope: Scope): void {
    switch (s.kind) {
      case 'require': {
        this.requireBool(this.expr(s.cond, scope), s.cond.at);
        this.emit('OP_VERIFY');
        this.stack.pop();
        return;
      }
      case 'var': {
        if (!s.init) throw new Unsupported(s.at, `variable ${s.name} needs an initial value`);
        const declared = s.type === 'auto' ? null : this.resolve(s.type, scope);
        const t = this.expr(s.init, scope, declared ?? undefined);
        const type = declared ?? t;
        if (declared && !this.types.assignable(t, declared)) throw new Unsupported(s.init.at, `cannot assign ${t} to ${declared} ${s.name}`);
        const final = declared && this.types.isLibrary(declared) && !genericOf(declared).args.length ? t : type;
        this.bind(s.name, final);
        scope.vars.set(s.name, { slot: s.name, type: final });
        return;
      }
      case 'new':
        return this.newLibrary(s, scope);
      case 'assign':
        return this.assign(s, scope);
      case 'expr': {
        const e = s.expr;
        if ((e.kind === 'postfix' || e.kind === 'unary') && (e.op === '++' || e.op === '--')) {
          const place = this.place(e.operand, scope);
          if (!place || familyOf(place.type) !== 'int') throw new Unsupported(e.at, `${e.op} needs an int variable`);
          this.read(place, scope, e.at);
          this.emit(e.op === '++' ? 'OP_1ADD' : 'OP_1SUB');
          this.write(place, e.at);
          return;
        }
        const t = this.expr(e, scope);
        this.dropTop(this.types.size(t));
        return;
      }
      case 'if': {
        const t = this.expr(s.cond, scope);
        this.truthy(t, s.cond.at);
        this.emit('OP_IF');
        this.stack.pop();
        this.branch(s.then, scope);
        if (s.else) {
          this.emit('OP_ELSE');
          this.branch(s.else, scope);
        }
        this.emit('OP_ENDIF');
        return;
      }
      case 'block':
        this.branch(s, scope);
        return;
      case 'codesep':
        this.emit('OP_CODESEPARATOR');
        return;
      case 'loop': {
        // Unrolled: each copy starts with OP_NOP and sees its own value of the induction variable.
        const n = this.ctc(s.count, scope);
        if (n === null) throw new Unsupported(s.count.at, 'the loop count must be a compile-time constant');
        if (n < 0n || n > 10_000n) throw new Unsupported(s.count.at, `the loop count must be between 0 and 10000, not ${n}`);
        const outer = s.induction ? scope.consts.get(s.induction) : undefined;
        for (let k = 0n; k < n; k++) {
          this.emit('OP_NOP');
          if (s.induction) scope.consts.set(s.induction, { type: 'int', value: k });
          this.branch(s.body, scope);
          if (this.out.length > MAX_SCRIPT_OPS / 2) {
            throw new Unsupported(s.at, `this loop unrolls to more than ${MAX_SCRIPT_OPS / 2} script elements (${n} iterations); use fewer iterations`);
          }
        }
        if (s.induction) {
          if (outer === undefined) scope.consts.delete(s.induction);
          else scope.consts.set(s.induction, outer);
        }
        return;
      }
      case 'exit': {
        // exit(true) ends the script successfully right here (clean stack, OP_RETURN after Genesis);
        // exit(false) fails it.
        const t = this.expr(s.cond, scope);
        this.requireBool(t, s.cond.at);
        this.emit('OP_IF');
        for (let i = 1; i < this.stack.length; i++) this.emit('OP_DROP');
        this.emit('OP_1', 'OP_RETURN', 'OP_ELSE', 'OP_0', 'OP_VERIFY', 'OP_ENDIF');
        this.stack.pop();
        return;
      }
      case 'asm':
        throw new Unsupported(s.at, 'an asm block must be the whole body of a function');
      case 'return':
        throw new Unsupported(s.at, 'return is only allowed as the last statement of a function that is not public');
    }
  }

  /** A nested block: its locals are dropped at its end, so both branches leave the stack as found. */
  private branch(s: Stmt, scope: Scope): void {
    const height = this.stack.length;
    const vars = new Map(scope.vars);
    for (const inner of s.kind === 'block' ? s.body : [s]) this.stmt(inner, scope);
    this.dropTop(this.stack.length - height);
    scope.vars = vars;
  }

  private assign(s: Extract<Stmt, { kind: 'assign' }>, scope: Scope): void {
    const place = this.place(s.target, scope);
    if (!place && s.target.kind === 'member' && s.target.object.kind === 'this' && scope.self) throw new Unsupported(s.target.at, `${scope.self.decl.name} has no property '${s.target.name}'`);
    if (!place) throw new Unsupported(s.target.at, 'only variables, properties, struct fields and array elements can be assigned');
    if (place.dynamic.length) throw new Unsupported(s.target.at, 'an array index that is written must be a compile-time constant');
    if (s.op === '=') {
      const t = this.expr(s.value, scope, place.type);
      if (!this.types.assignable(t, place.type)) throw new Unsupported(s.value.at, `cannot assign ${t} to ${place.type}`);
    } else {
      if (!familyOf(place.type)) throw new Unsupported(s.at, `${s.op} needs a scalar, not ${place.type}`);
      this.read(place, scope, s.at);
      const t = this.expr(s.value, scope);
      this.applyBinary(s.op.slice(0, -1), place.type, t, s.at, s.value, scope);
    }
    this.write(place, s.at);
  }

  /** Moves the value on top into a place, leaf by leaf from the last. */
  private write(place: Place, at: Position): void {
    const leaves = this.types.leaves(place.rootType);
    const n = this.types.size(place.type);
    for (let j = n - 1; j >= 0; j--) this.replace(place.root + leaves[place.offset + j].suffix, at);
  }

  /** Moves the value on top into a slot: OP_d OP_ROLL OP_DROP, then (d−1)× OP_(d−1) OP_ROLL. */
  private replace(name: string, at: Position): void {
    const d = this.depthOf(name, at);
    this.pushNumber(d);
    this.emit('OP_ROLL', 'OP_DROP');
    for (let k = 0; k < d - 1; k++) {
      this.pushNumber(d - 1);
      this.emit('OP_ROLL');
    }
    this.stack.pop(); // the new value now sits in the slot
  }

  /** `T l = new T(args)`: a library value, built by its constructor. */
  private newLibrary(s: Extract<Stmt, { kind: 'new' }>, scope: Scope): void {
    const lib = this.decls.get(s.type.name);
    if (!lib || lib.kind !== 'library') throw new Unsupported(s.type.at, `${s.type.name} is not a library`);
    let type = this.resolve(s.type, scope);
    const ctorParams: Param[] = lib.ctor ? lib.ctor.params : lib.properties.filter((p) => !p.isStatic).map((p) => ({ name: p.name, type: p.type, isStaticConst: false, at: p.at }));
    if (s.args.length !== ctorParams.length) throw new Unsupported(s.at, `new ${lib.name}(…) takes ${ctorParams.length} argument(s), got ${s.args.length}`);
    if (lib.generics.length && !genericOf(type).args.length) {
      // Infer the type arguments from the constructor arguments written as a bare type parameter.
      const bound = new Map<string, string>();
      ctorParams.forEach((p, i) => {
        if (lib.generics.includes(p.type.name) && !p.type.dims.length && !bound.has(p.type.name)) bound.set(p.type.name, this.typeOf(s.args[i], scope));
      });
      const missing = lib.generics.filter((g) => !bound.has(g));
      if (missing.length) throw new Unsupported(s.at, `cannot infer type parameter ${missing.join(', ')} of ${lib.name}; write ${lib.name}<…>`);
      type = `${lib.name}<${lib.generics.map((g) => bound.get(g)).join(',')}>`;
    }
    const params = this.types.bindings(type);
    const self: Self = { prefix: s.name, type, decl: lib };
    if (!lib.ctor) {
      // Implicit constructor: the arguments are the properties, in order.
      const fields = this.types.fieldsOf(type)!;
      s.args.forEach((a, i) => {
        const t = this.expr(a, scope, fields[i].type);
        if (!this.types.assignable(t, fields[i].type)) throw new Unsupported(a.at, `argument ${i + 1} of new ${lib.name}(…) must be ${fields[i].type}, not ${t}`);
      });
      this.bind(s.name, type);
    } else {
      for (const leaf of this.types.leaves(type)) {
        this.emit('OP_0');
        this.stack.push(s.name + leaf.suffix);
      }
      const inner: Scope = { vars: new Map(), self, owner: lib, typeParams: params, consts: new Map() };
      const base = this.stack.length;
      lib.ctor.params.forEach((p, i) => {
        const want = this.types.resolve(p.type, params);
        const got = this.expr(s.args[i], scope, want);
        if (!this.types.assignable(got, want)) throw new Unsupported(s.args[i].at, `argument ${i + 1} of new ${lib.name}(…) must be ${want}, not ${got}`);
        this.bind(p.name, want);
        inner.vars.set(p.name, { slot: p.name, type: want });
      });
      this.emit('OP_NOP');
      for (const st of lib.ctor.body) this.stmt(st, inner);
      this.dropTop(this.stack.length - base);
      this.emit('OP_NOP');
    }
    scope.vars.set(s.name, { slot: s.name, type });
  }

  // ---------------------------------------------------------------- places

  /** The storage an expression names, or null when it is a computed value. */
  private place(e: Expr, scope: Scope): Place | null {
    const whole = (root: string, type: string): Place => ({ root, rootType: type, type, offset: 0, dynamic: [] });
    if (e.kind === 'ident') {
      const v = scope.vars.get(e.name);
      return v ? whole(v.slot, v.type) : null;
    }
    if (e.kind === 'member') {
      if (e.object.kind === 'this') {
        if (!scope.self) return null;
        if (scope.self.decl === this.contract) {
          if (e.name === '__codePart__') return whole('this.__codePart__', 'bytes');
          const prop = this.properties().find((p) => p.name === e.name);
          return prop ? whole(`this.${prop.name}`, prop.type) : null;
        }
        const field = this.types.fieldsOf(scope.self.type)?.find((f) => f.name === e.name);
        return field ? whole(`${scope.self.prefix}.${field.name}`, field.type) : null;
      }
      const base = this.place(e.object, scope);
      if (!base) return null;
      const fields = this.types.fieldsOf(base.type);
      if (!fields) throw new Unsupported(e.at, `${base.type} has no field ${e.name}`);
      let offset = 0;
      for (const f of fields) {
        if (f.name === e.name) return { ...base, type: f.type, offset: base.offset + offset };
        offset += this.types.size(f.type);
      }
      throw new Unsupported(e.at, `${base.type} has no field ${e.name}`);
    }
    if (e.kind === 'index') {
      const base = this.place(e.object, scope);
      if (!base) return null;
      const el = elementOf(base.type);
      if (!el) throw new Unsupported(e.at, `only arrays can be indexed, not ${base.type}`);
      const stride = this.types.size(el.elem);
      const k = this.ctc(e.index, scope);
      if (k !== null) {
        if (k < 0n || k >= BigInt(el.size)) throw new Unsupported(e.index.at, `index ${k} is out of bounds for ${base.type}`);
        return { ...base, type: el.elem, offset: base.offset + Number(k) * stride };
      }
      return { ...base, type: el.elem, dynamic: [...base.dynamic, { index: e.index, size: el.size, stride }] };
    }
    return null;
  }

  /** Pushes a copy of a place's value. */
  private read(place: Place, scope: Scope, at: Position): void {
    const leaves = this.types.leaves(place.rootType);
    const n = this.types.size(place.type);
    for (let j = 0; j < n; j++) {
      const slot = place.root + leaves[place.offset + j].suffix;
      if (!place.dynamic.length) {
        this.pick(this.depthOf(slot, at));
        this.stack.push(null);
        continue;
      }
      // Run-time index: offset = Σ index × stride, each index bounds-checked; the leaf is then
      // PICKed from (depth of the first element's leaf) − offset.
      place.dynamic.forEach((d, i) => {
        const t = this.expr(d.index, scope);
        if (familyOf(t) !== 'int') throw new Unsupported(d.index.at, `an array index must be an int, not ${t}`);
        if (j === 0) {
          this.emit('OP_DUP', 'OP_0', 'OP_GREATERTHANOREQUAL', 'OP_VERIFY', 'OP_DUP');
          this.pushNumber(d.size);
          this.emit('OP_LESSTHAN', 'OP_VERIFY');
        }
        if (d.stride !== 1) {
          this.pushNumber(d.stride);
          this.emit('OP_MUL');
        }
        if (i > 0) {
          this.emit('OP_ADD');
          this.stack.pop();
        }
      });
      this.pushNumber(this.depthOf(slot, at) - 1);
      this.emit('OP_SWAP', 'OP_SUB', 'OP_PICK');
    }
  }

  // ---------------------------------------------------------------- expressions

  /** The type of an expression, without emitting anything. */
  private typeOf(e: Expr, scope: Scope): string {
    const out = this.out;
    const stack = [...this.stack];
    this.out = [];
    try {
      return this.expr(e, scope);
    } finally {
      this.out = out;
      this.stack = stack;
    }
  }

  /** Emits an expression; its leaves end on top of the stack. Returns its type. */
  private expr(e: Expr, scope: Scope, expected?: string): string {
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
        const place = this.place(e, scope);
        if (place) return this.readPlace(place, scope, e.at);
        const c = this.lookupConst(e.name, scope);
        if (c) return this.pushConst(c);
        throw new Unsupported(e.at, `unknown name '${e.name}'`);
      }
      case 'this':
        throw new Unsupported(e.at, 'this can only be used as this.<member>');
      case 'member': {
        const place = this.place(e, scope);
        if (place) return this.readPlace(place, scope, e.at);
        const c = this.fold(e, scope);
        if (c) return this.pushConst(c);
        if (e.object.kind === 'this') {
          if (!scope.self) throw new Unsupported(e.at, `this cannot be used in a static function`);
          throw new Unsupported(e.at, `${scope.self.decl.name} has no property '${e.name}'`);
        }
        // A field of a computed struct value: compute it whole, keep the field.
        const t = this.expr(e.object, scope);
        const fields = this.types.fieldsOf(t);
        if (!fields) throw new Unsupported(e.at, `${t} has no field ${e.name}`);
        let offset = 0;
        for (const f of fields) {
          if (f.name === e.name) {
            this.narrow(this.types.size(t), offset, this.types.size(f.type));
            return f.type;
          }
          offset += this.types.size(f.type);
        }
        throw new Unsupported(e.at, `${t} has no field ${e.name}`);
      }
      case 'call':
        return this.call(e, scope, expected);
      case 'unary':
        return this.unary(e, scope);
      case 'postfix':
        throw new Unsupported(e.at, `${e.op} can only be used as a statement`);
      case 'binary':
        return this.binary(e, scope);
      case 'ternary': {
        const c = this.expr(e.cond, scope);
        this.truthy(c, e.cond.at);
        this.emit('OP_IF');
        this.stack.pop();
        const a = this.expr(e.then, scope, expected);
        this.stack.splice(this.stack.length - this.types.size(a));
        this.emit('OP_ELSE');
        const b = this.expr(e.else, scope, expected ?? a);
        this.emit('OP_ENDIF');
        if (!this.types.assignable(b, a) && !this.types.assignable(a, b)) throw new Unsupported(e.at, `both branches of ?: need the same type (${a}, ${b})`);
        if (this.types.size(a) !== this.types.size(b)) throw new Unsupported(e.at, `both branches of ?: need the same type (${a}, ${b})`);
        return a;
      }
      case 'index': {
        const place = this.place(e, scope);
        if (place) return this.readPlace(place, scope, e.at);
        const t = this.expr(e.object, scope);
        const el = elementOf(t);
        if (!el) throw new Unsupported(e.at, `only arrays can be indexed, not ${t}`);
        const k = this.ctc(e.index, scope);
        if (k === null) throw new Unsupported(e.index.at, 'indexing a computed array needs a compile-time constant index');
        if (k < 0n || k >= BigInt(el.size)) throw new Unsupported(e.index.at, `index ${k} is out of bounds for ${t}`);
        const stride = this.types.size(el.elem);
        this.narrow(this.types.size(t), Number(k) * stride, stride);
        return el.elem;
      }
      case 'slice': {
        const t = this.expr(e.object, scope);
        if (familyOf(t) !== 'bytes') throw new Unsupported(e.at, `only bytes can be sliced, not ${t}`);
        if (e.end) {
          this.intArg(e.end, scope);
          this.emit('OP_SPLIT', 'OP_DROP');
          this.stack.pop();
        }
        if (e.start) {
          this.intArg(e.start, scope);
          this.emit('OP_SPLIT', 'OP_NIP');
          this.stack.pop();
        }
        return 'bytes';
      }
      case 'array': {
        const want = expected ? elementOf(expected) : null;
        if (want && want.size !== e.items.length) throw new Unsupported(e.at, `${expected} needs ${want.size} items, not ${e.items.length}`);
        let elem: string | null = want?.elem ?? null;
        for (const item of e.items) {
          const t = this.expr(item, scope, elem ?? undefined);
          if (elem === null) elem = t;
          else if (!this.types.assignable(t, elem)) throw new Unsupported(item.at, `an item of ${elem}[] cannot be ${t}`);
        }
        if (elem === null) throw new Unsupported(e.at, 'an array literal needs at least one item');
        const inner = arrayOf(elem);
        return inner ? `${inner.elem}[${e.items.length}]${inner.dims.map((d) => `[${d}]`).join('')}` : `${elem}[${e.items.length}]`;
      }
      case 'structLit': {
        const fields = expected ? this.types.fieldsOf(expected) : null;
        if (!expected || !fields || this.types.isLibrary(expected)) throw new Unsupported(e.at, 'a struct literal {…} needs a declared struct type where it is used');
        if (fields.length !== e.fields.length) throw new Unsupported(e.at, `${expected} has ${fields.length} fields, not ${e.fields.length}`);
        e.fields.forEach((f, i) => {
          const t = this.expr(f, scope, fields[i].type);
          if (!this.types.assignable(t, fields[i].type)) throw new Unsupported(f.at, `field ${fields[i].name} of ${expected} must be ${fields[i].type}, not ${t}`);
        });
        return expected;
      }
    }
  }

  /**
   * A condition as a bool: an int is true unless 0 (OP_0NOTEQUAL, as the official output does); bytes
   * are true unless every byte is zero, so b'80' (script's negative zero) still counts as true.
   */
  private truthy(type: string, at: Position): void {
    const f = familyOf(type);
    if (f === 'int') this.emit('OP_0NOTEQUAL');
    else if (f === 'bytes') this.emit('OP_SIZE', 'OP_0', 'OP_SWAP', 'OP_NUM2BIN', 'OP_EQUAL', 'OP_NOT');
    else if (f !== 'bool') throw new Unsupported(at, `the condition needs a bool, not ${type}`);
  }

  private readPlace(place: Place, scope: Scope, at: Position): string {
    this.read(place, scope, at);
    return place.type;
  }

  private intArg(e: Expr, scope: Scope): void {
    const t = this.expr(e, scope);
    if (familyOf(t) !== 'int') throw new Unsupported(e.at, `expected an int, not ${t}`);
  }

  private unary(e: Extract<Expr, { kind: 'unary' }>, scope: Scope): string {
    if (e.op === '++' || e.op === '--') throw new Unsupported(e.at, `${e.op} can only be used as a statement`);
    const t = this.expr(e.operand, scope);
    const f = familyOf(t);
    if (e.op === '!') {
      if (f !== 'bool') throw new Unsupported(e.at, `! needs a bool, not ${t}`);
      this.emit('OP_NOT');
      return 'bool';
    }
    if (e.op === '-') {
      if (f !== 'int') throw new Unsupported(e.at, `unary - needs an int, not ${t}`);
      this.emit('OP_NEGATE');
      return 'int';
    }
    // ~: bytes are inverted as they are; an int is inverted in its own byte length, as the reference says.
    if (f === 'bytes') {
      this.emit('OP_INVERT');
      return t;
    }
    if (f !== 'int') throw new Unsupported(e.at, `~ needs an int or bytes, not ${t}`);
    this.emit('OP_SIZE', 'OP_NUM2BIN', 'OP_INVERT', 'OP_BIN2NUM');
    return 'int';
  }

  private binary(e: Extract<Expr, { kind: 'binary' }>, scope: Scope): string {
    if (e.op === '&&' || e.op === '||') {
      const a = this.expr(e.left, scope);
      if (familyOf(a) !== 'bool') throw new Unsupported(e.left.at, `${e.op} needs bools, not ${a}`);
      this.emit(e.op === '&&' ? 'OP_IF' : 'OP_NOTIF');
      this.stack.pop();
      const b = this.expr(e.right, scope);
      if (familyOf(b) !== 'bool') throw new Unsupported(e.right.at, `${e.op} needs bools, not ${b}`);
      this.emit('OP_ELSE', e.op === '&&' ? 'OP_0' : 'OP_1', 'OP_ENDIF');
      return 'bool';
    }
    const a = this.expr(e.left, scope);
    if ((e.op === '==' || e.op === '!=') && !familyOf(a)) return this.compareComposite(e, a, scope);
    const b = this.expr(e.right, scope);
    return this.applyBinary(e.op, a, b, e.at, e.right, scope);
  }

  /** `a op b` with both operands on top of the stack. */
  private applyBinary(op: string, a: string, b: string, at: Position, right: Expr, scope: Scope): string {
    const fa = familyOf(a);
    const fb = familyOf(b);
    if (!fa || !fb) throw new Unsupported(at, `${op} needs scalar operands, not ${a} and ${b}`);
    this.stack.splice(-2, 2, null);
    if (op === '==' || op === '!=') {
      if (fa !== fb) throw new Unsupported(at, `cannot compare ${a} with ${b}`);
      if (fa === 'int') this.emit(op === '==' ? 'OP_NUMEQUAL' : 'OP_NUMNOTEQUAL');
      else this.emit(...(op === '==' ? ['OP_EQUAL'] : ['OP_EQUAL', 'OP_NOT']));
      return 'bool';
    }
    if (COMPARE[op]) {
      if (fa !== 'int' || fb !== 'int') throw new Unsupported(at, `${op} compares ints, not ${a} and ${b}`);
      this.emit(COMPARE[op]);
      return 'bool';
    }
    if (op === '+' && fa === 'bytes' && fb === 'bytes') {
      this.emit('OP_CAT');
      return a === b ? a : 'bytes';
    }
    if (ARITH[op]) {
      if (fa !== 'int' || fb !== 'int') throw new Unsupported(at, `${op} needs ints, not ${a} and ${b}`);
      this.emit(ARITH[op]);
      return 'int';
    }
    if (BITWISE[op]) {
      if (fa === 'bytes' && fb === 'bytes') {
        this.emit(BITWISE[op]);
        return a;
      }
      if (fa === 'bool' && fb === 'bool') {
        this.emit(op === '&' ? 'OP_BOOLAND' : op === '|' ? 'OP_BOOLOR' : 'OP_NUMNOTEQUAL');
        return 'bool';
      }
      if (fa !== 'int' || fb !== 'int') throw new Unsupported(at, `${op} needs two ints or two bytes, not ${a} and ${b}`);
      // Ints: both padded to the longer one's byte length (num2bin), combined, and normalised back.
      this.emit('OP_2DUP', 'OP_SIZE', 'OP_NIP', 'OP_SWAP', 'OP_SIZE', 'OP_NIP', 'OP_MAX', 'OP_TUCK', 'OP_NUM2BIN', 'OP_ROT', 'OP_ROT', 'OP_NUM2BIN', BITWISE[op], 'OP_BIN2NUM');
      return 'int';
    }
    if (op === '<<' || op === '>>') {
      if (fb !== 'int') throw new Unsupported(at, `the shift count must be an int, not ${b}`);
      if (fa === 'bytes') {
        this.emit(op === '<<' ? 'OP_LSHIFT' : 'OP_RSHIFT');
        return a;
      }
      if (fa !== 'int') throw new Unsupported(at, `${op} needs an int or bytes, not ${a}`);
      // An int shift is a multiplication or division by 2ⁿ; the count must be known to compute 2ⁿ.
      const n = this.ctc(right, scope);
      if (n === null || n < 0n) throw new Unsupported(right.at, 'the shift count of an int must be a non-negative compile-time constant');
      this.out.pop(); // the count pushed by the caller
      this.pushNumber(1n << n);
      this.emit(op === '<<' ? 'OP_MUL' : 'OP_DIV');
      return 'int';
    }
    throw new Unsupported(at, `operator ${op} is not supported`);
  }

  /** `==` / `!=` of arrays or structs: every leaf equal (pairs compared from the top, AND-ed on the altstack). */
  private compareComposite(e: Extract<Expr, { kind: 'binary' }>, a: string, scope: Scope): string {
    const b = this.expr(e.right, scope, a);
    if (!this.types.assignable(b, a)) throw new Unsupported(e.at, `cannot compare ${a} with ${b}`);
    const leaves = this.types.leaves(a);
    const n = leaves.length;
    for (let j = n - 1; j >= 0; j--) {
      // Stack top: a0…aj b0…bj; a_j is at depth j + 1.
      this.pushNumber(j + 1);
      this.emit('OP_ROLL', familyOf(leaves[j].type) === 'int' ? 'OP_NUMEQUAL' : 'OP_EQUAL');
      if (j < n - 1) this.emit('OP_FROMALTSTACK', 'OP_BOOLAND');
      if (j > 0) this.emit('OP_TOALTSTACK');
    }
    this.stack.splice(this.stack.length - 2 * n, 2 * n, null);
    if (e.op === '!=') this.emit('OP_NOT');
    return 'bool';
  }

  // ---------------------------------------------------------------- calls

  private call(e: Extract<Expr, { kind: 'call' }>, scope: Scope, expected?: string): string {
    const callee = e.callee;
    if (callee.kind === 'ident') {
      const name = callee.name;
      const own = scope.owner.functions.find((f) => f.name === name && f.visibility !== 'public');
      if (own && !scope.vars.has(name)) return this.inline(own, e.args, e.at, own.isStatic ? null : scope.self, scope.owner, own.isStatic ? new Map() : scope.typeParams, scope);
      if (CAST_TYPES.has(name)) return this.cast(name, e, scope);
      if (name === 'checkMultiSig') return this.checkMultiSig(e, scope);
      if (name === 'reverseBytes') return this.reverseBytes(e, scope);
      if (name === 'repeat') return this.repeat(e, scope, expected);
      const b = BUILTINS[name];
      if (!b) {
        if (this.types.structs.has(name) || this.types.aliases.has(name)) throw new Unsupported(e.at, `${name}(…) is not a function`);
        throw new Unsupported(e.at, `unknown function ${name}()`);
      }
      if (e.args.length !== b.args.length) throw new Unsupported(e.at, `${name}() takes ${b.args.length} argument(s), got ${e.args.length}`);
      e.args.forEach((a, i) => {
        const t = this.expr(a, scope);
        if (familyOf(t) !== b.args[i]) throw new Unsupported(a.at, `argument ${i + 1} of ${name}() must be ${b.args[i]}, not ${t}`);
      });
      this.emit(...b.ops);
      this.stack.splice(this.stack.length - b.args.length, b.args.length, null);
      return b.result;
    }
    if (callee.kind !== 'member') throw new Unsupported(e.at, 'this expression cannot be called');
    const obj = callee.object;
    if (obj.kind === 'this') {
      if (!scope.self) throw new Unsupported(e.at, 'this cannot be used in a static function');
      const builtin = this.stateful.builtinCall(callee.name, e.args, e.at);
      if (builtin && scope.self.decl === this.contract) return this.expr(builtin, scope, expected);
      const fn = scope.self.decl.functions.find((f) => f.name === callee.name && f.visibility !== 'public');
      if (!fn) throw new Unsupported(callee.at, `${scope.self.decl.name} has no function ${callee.name} that can be called here`);
      return this.inline(fn, e.args, e.at, fn.isStatic ? null : scope.self, scope.self.decl, fn.isStatic ? new Map() : this.types.bindings(scope.self.type), scope);
    }
    if (obj.kind === 'ident' && !scope.vars.has(obj.name) && this.decls.has(obj.name)) {
      const decl = this.decls.get(obj.name)!;
      const fn = decl.functions.find((f) => f.name === callee.name && f.isStatic);
      if (!fn) throw new Unsupported(callee.at, `${decl.name} has no static function ${callee.name}`);
      return this.inline(fn, e.args, e.at, null, decl, new Map(), scope);
    }
    const place = this.place(obj, scope);
    if (place && this.types.isLibrary(place.type)) {
      if (place.dynamic.length) throw new Unsupported(obj.at, 'a library method needs a compile-time constant index');
      const decl = this.decls.get(genericOf(place.type).name)!;
      const fn = decl.functions.find((f) => f.name === callee.name && f.visibility !== 'public');
      if (!fn) throw new Unsupported(callee.at, `${decl.name} has no function ${callee.name}`);
      const leaves = this.types.leaves(place.rootType);
      const first = leaves[place.offset]?.suffix ?? '';
      const inner = this.types.leaves(place.type)[0]?.suffix ?? '';
      const prefix = place.root + first.slice(0, first.length - inner.length);
      const self: Self = { prefix, type: place.type, decl };
      return this.inline(fn, e.args, e.at, fn.isStatic ? null : self, decl, this.types.bindings(place.type), scope);
    }
    throw new Unsupported(callee.at, `cannot call ${callee.name} here`);
  }

  /** A cast such as PubKey(b) or Sig(b): no code, a new type. */
  private cast(name: string, e: Extract<Expr, { kind: 'call' }>, scope: Scope): string {
    if (e.args.length !== 1) throw new Unsupported(e.at, `${name}(…) takes one argument`);
    const target = name === 'PubKeyHash' ? 'Ripemd160' : name;
    const t = this.expr(e.args[0], scope);
    const from = familyOf(t);
    const to = familyOf(target);
    if (from === to) return target;
    if (to === 'int' && from === 'bytes') {
      this.emit('OP_BIN2NUM');
      return target;
    }
    if (to === 'bool' && from === 'int') {
      this.emit('OP_0NOTEQUAL');
      return 'bool';
    }
    throw new Unsupported(e.at, `cannot convert ${t} to ${target}`);
  }

  /** reverseBytes(b, size): split into single bytes, then concatenate them back in reverse. */
  private reverseBytes(e: Extract<Expr, { kind: 'call' }>, scope: Scope): string {
    if (e.args.length !== 2) throw new Unsupported(e.at, 'reverseBytes() takes bytes and a compile-time constant size');
    const t = this.expr(e.args[0], scope);
    if (familyOf(t) !== 'bytes') throw new Unsupported(e.args[0].at, `argument 1 of reverseBytes() must be bytes, not ${t}`);
    const n = this.ctc(e.args[1], scope);
    if (n === null || n < 0n || n > 10_000n) throw new Unsupported(e.args[1].at, 'the size of reverseBytes() must be a compile-time constant from 0 to 10000');
    for (let i = 1n; i < n; i++) this.emit('OP_1', 'OP_SPLIT');
    for (let i = 1n; i < n; i++) this.emit('OP_SWAP', 'OP_CAT');
    return t;
  }

  /** repeat(e, N): an array of N copies of e (evaluated once, then copied with PICKs). */
  private repeat(e: Extract<Expr, { kind: 'call' }>, scope: Scope, expected?: string): string {
    if (e.args.length !== 2) throw new Unsupported(e.at, 'repeat() takes a value and a compile-time constant size');
    const n = this.ctc(e.args[1], scope);
    if (n === null || n < 1n || n > 10_000n) throw new Unsupported(e.args[1].at, 'the size of repeat() must be a compile-time constant from 1 to 10000');
    const want = expected ? elementOf(expected)?.elem : undefined;
    const t = this.expr(e.args[0], scope, want);
    const k = this.types.size(t);
    for (let copy = 1n; copy < n; copy++) {
      for (let j = 0; j < k; j++) {
        this.pick(k - 1);
        this.stack.push(null);
      }
    }
    const inner = arrayOf(t);
    return inner ? `${inner.elem}[${n}]${inner.dims.map((d) => `[${d}]`).join('')}` : `${t}[${n}]`;
  }

  /** checkMultiSig(Sig[M], PubKey[N]): OP_0 sig0…sigM-1 <M> pk0…pkN-1 <N> OP_CHECKMULTISIG. */
  private checkMultiSig(e: Extract<Expr, { kind: 'call' }>, scope: Scope): string {
    if (e.args.length !== 2) throw new Unsupported(e.at, 'checkMultiSig() takes an array of Sig and an array of PubKey');
    const before = this.stack.length;
    this.emit('OP_0');
    this.stack.push(null);
    e.args.forEach((a, i) => {
      const t = this.expr(a, scope);
      const arr = arrayOf(t);
      const want = i === 0 ? 'Sig' : 'PubKey';
      if (!arr || familyOf(arr.elem) !== 'bytes' || arr.dims.length !== 1) throw new Unsupported(a.at, `argument ${i + 1} of checkMultiSig() must be a ${want}[] array, not ${t}`);
      this.pushNumber(arr.dims[0]);
      this.stack.push(null);
    });
    this.emit('OP_CHECKMULTISIG');
    this.stack.splice(before, this.stack.length - before, null);
    return 'bool';
  }

  /**
   * A function inlined at its call: the arguments become its parameters' slots, OP_NOP marks the start
   * and the end, and everything between the call's base and the result is removed (OP_k OP_ROLL OP_DROP
   * per slot, k = the result's size). The body sees only its parameters, its locals and `this`.
   */
  private inline(f: Func, args: Expr[], at: Position, self: Self | null, owner: ContractLike, typeParams: Map<string, string>, caller: Scope): string {
    const key = `${owner.name}.${f.name}`;
    if (this.calling.includes(key)) throw new Unsupported(at, `recursion is not allowed: ${[...this.calling, key].map((k) => k.split('.').pop()).join(' → ')}`);
    if (args.length !== f.params.length) throw new Unsupported(at, `${f.name}() takes ${f.params.length} argument(s), got ${args.length}`);
    const scope: Scope = { vars: new Map(), self, owner, typeParams, consts: new Map() };
    const base = this.stack.length;
    f.params.forEach((p, i) => {
      if (p.isStaticConst) {
        const v = this.fold(args[i], caller);
        if (!v) throw new Unsupported(args[i].at, `argument ${i + 1} of ${f.name}() must be a compile-time constant`);
        scope.consts.set(p.name, v);
        return;
      }
      // Array sizes may name the function's own static const parameters (`int[N] xs`).
      const want = this.types.resolve(p.type, typeParams, [], (e) => this.ctc(e, scope) ?? this.ctc(e, caller));
      const got = this.expr(args[i], caller, want);
      if (!this.types.assignable(got, want)) throw new Unsupported(args[i].at, `argument ${i + 1} of ${f.name}() must be ${want}, not ${got}`);
      this.bind(p.name, want);
      scope.vars.set(p.name, { slot: p.name, type: want });
    });
    const returnType = f.returnType ? this.types.resolve(f.returnType, typeParams, [], (e) => this.ctc(e, scope)) : null;
    const asm = f.body.length === 1 && f.body[0].kind === 'asm' ? f.body[0] : null;
    if (asm) return this.asmFunction(f, asm, base, returnType, owner);
    this.calling.push(key);
    this.emit('OP_NOP');
    const last = f.body[f.body.length - 1];
    const hasReturn = last?.kind === 'return';
    if (returnType && !hasReturn) throw new Unsupported(f.at, `function ${f.name} must end with return`);
    for (const s of hasReturn ? f.body.slice(0, -1) : f.body) this.stmt(s, scope);
    let size = 0;
    let result = 'bool';
    if (hasReturn && last.kind === 'return') {
      result = this.expr(last.value, scope, returnType ?? undefined);
      if (returnType && !this.types.assignable(result, returnType)) throw new Unsupported(last.value.at, `${f.name} returns ${returnType}, not ${result}`);
      result = returnType ?? result;
      size = this.types.size(result);
    }
    while (this.stack.length - size > base) {
      this.pushNumber(size);
      this.emit('OP_ROLL', 'OP_DROP');
      this.stack.splice(this.stack.length - size - 1, 1);
    }
    this.emit('OP_NOP');
    this.calling.pop();
    return size ? result : 'void';
  }

  /**
   * A function written in script: its arguments are on the stack (the last on top); the code must
   * consume them and leave the result. `$name` is an inline-asm variable, set with scryptlib's
   * replaceAsmVars as `<Contract.function.name>`.
   */
  private asmFunction(f: Func, asm: Extract<Stmt, { kind: 'asm' }>, base: number, returnType: string | null, owner: ContractLike): string {
    for (const raw of asm.text.split(/\s+/).filter(Boolean)) {
      // Opcodes are case-insensitive in asm (op_size is OP_SIZE); data and variables are kept as written.
      const word = /^op_/i.test(raw) ? raw.toUpperCase() : raw;
      if (word.startsWith('$')) {
        if (!/^\$[A-Za-z_]\w*$/.test(word)) throw new Unsupported(asm.at, `bad asm variable ${word}`);
        this.out.push({ placeholder: `${owner.name}.${f.name}.${word.slice(1)}` });
      } else if (/^OP_\w+$/.test(word) || /^OP_\d+$/.test(word)) {
        const name = word === 'OP_FALSE' ? 'OP_0' : word === 'OP_TRUE' ? 'OP_1' : word;
        if (OP[name] === undefined) throw new Unsupported(asm.at, `unknown opcode ${word} in asm`);
        this.emit(name);
      } else if (word === '0') this.emit('OP_0');
      else if (word === '-1') this.emit('OP_1NEGATE');
      else if (/^([0-9a-fA-F]{2})+$/.test(word)) this.out.push({ push: word.toLowerCase() });
      else throw new Unsupported(asm.at, `cannot read '${word}' in asm (opcodes, hex data, $variables)`);
    }
    this.stack.splice(base);
    if (!returnType) return 'void';
    for (let i = 0; i < this.types.size(returnType); i++) this.stack.push(null);
    return returnType;
  }
}
