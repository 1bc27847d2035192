import type { ContractLike, Expr, Func, Stmt } from './ast.js';
import type { Position } from './diagnostics.js';
import { parse } from './parser.js';
import { familyOf } from './types.js';

/**
 * Stateful contracts (`@state`). The locking script is `code OP_RETURN data`, where scryptlib writes
 * the data part as `[isGenesis 01|00] [each state leaf] [4-byte LE length of both] [version 00]`.
 * Values of state properties start as the constructor's (baked into the code, right at deployment,
 * when isGenesis is 01); afterwards they are read from the data part of the script being spent, which
 * the contract sees through the BIP143 preimage's scriptCode. `getStateScript()` is the same code part
 * plus the current values; `updateState(preimage, amount)` checks the preimage and that the spending
 * transaction's outputs are exactly that script with `amount` satoshis.
 *
 * The generated code is ordinary sCrypt (parsed here and compiled like user code), using the standard
 * library's SigHash, Utils, VarIntReader and VarIntWriter.
 */
export class StatefulSupport {
  private readonly leaves: { path: string; type: string }[];

  constructor(
    private readonly contract: ContractLike,
    /** Every scalar leaf of every @state property, e.g. `count`, `owners[1]`, `p.x`. */
    stateLeaves: { path: string; type: string }[],
  ) {
    this.leaves = stateLeaves;
    if (this.leaves.length) contract.functions.push(this.getStateScriptFunction());
  }

  get isStateful(): boolean {
    return this.leaves.length > 0;
  }

  /** Statements that load the current state at the start of a public function that has a preimage. */
  prelude(f: Func): Stmt[] {
    if (!this.isStateful) return [];
    const preimage = f.params.find((p) => p.type.name === 'SigHashPreimage' && !p.type.dims.length);
    if (!preimage) return [];
    const reads = this.leaves.map((l) => `this.${l.path} = __scrypt_r.${reader(l.type)}();`).join('\n');
    return statements(
      `bytes __scrypt_sc = SigHash.scriptCode(${preimage.name});
       int __scrypt_sl = len(__scrypt_sc);
       int __scrypt_ds = __scrypt_sl - 5 - Utils.fromLEUnsigned(__scrypt_sc[__scrypt_sl - 5 : __scrypt_sl - 1]);
       bytes __scrypt_cp = __scrypt_sc[0 : __scrypt_ds];
       if (__scrypt_sc[__scrypt_ds : __scrypt_ds + 1] == b'00') {
         VarIntReader __scrypt_r = new VarIntReader(__scrypt_sc[__scrypt_ds + 1 : __scrypt_sl - 5]);
         ${reads}
       }`,
      f.at,
    );
  }

  /** After the prelude, its code part becomes the hidden property that getStateScript() reads. */
  afterPrelude(stack: (string | null)[]): void {
    const i = stack.lastIndexOf('__scrypt_cp');
    if (i !== -1) stack[i] = 'this.__codePart__';
  }

  /** `this.getStateScript()`, `this.updateState(p, amount)`, `this.updateStateSigHashType(p, amount, t)`. */
  builtinCall(name: string, args: Expr[], at: Position): Expr | null {
    if (!this.isStateful) return null;
    if (name === 'getStateScript' && args.length === 0) return expression('this.__scrypt_getStateScript()', at, {});
    if (name === 'updateState' && args.length === 2) {
      return expression('Tx.checkPreimage(__P) && hash256(Utils.buildOutput(this.__scrypt_getStateScript(), __A)) == SigHash.hashOutputs(__P)', at, { __P: args[0], __A: args[1] });
    }
    if (name === 'updateStateSigHashType' && args.length === 3) {
      return expression('Tx.checkPreimageSigHashType(__P, __T) && hash256(Utils.buildOutput(this.__scrypt_getStateScript(), __A)) == SigHash.hashOutputs(__P)', at, {
        __P: args[0],
        __A: args[1],
        __T: args[2],
      });
    }
    return null;
  }

  private getStateScriptFunction(): Func {
    const writes = this.leaves.map((l) => ` + VarIntWriter.${writer(l.type)}(this.${l.path})`).join('');
    const source = `contract __S { private function __scrypt_getStateScript() : bytes {
      bytes s = b'00'${writes};
      return this.__codePart__ + s + num2bin(len(s), 4) + b'00';
    } }`;
    const fn = parsed(source).functions[0];
    relocate(fn, this.contract.at);
    return fn;
  }
}

const reader = (type: string) => (familyOf(type) === 'int' ? 'readInt' : familyOf(type) === 'bool' ? 'readBool' : 'readBytes');
const writer = (type: string) => (familyOf(type) === 'int' ? 'writeInt' : familyOf(type) === 'bool' ? 'writeBool' : 'writeBytes');

function parsed(source: string): ContractLike {
  const { program, diagnostics } = parse(source, '<generated>');
  if (diagnostics.hasErrors) throw new Error(`generated sCrypt does not parse: ${diagnostics.items[0].message}`);
  return program.items[0] as ContractLike;
}

function statements(body: string, at: Position): Stmt[] {
  const fn = parsed(`contract __S { public function f() { ${body} require(true); } }`).functions[0];
  relocate(fn, at);
  return fn.body.slice(0, -1);
}

function expression(text: string, at: Position, args: Record<string, Expr>): Expr {
  const fn = parsed(`contract __S { public function f() { require(${text}); } }`).functions[0];
  relocate(fn, at);
  const req = fn.body[0] as Extract<Stmt, { kind: 'require' }>;
  return substitute(req.cond, args);
}

/** Generated code reports its errors where the user's code asked for it. */
function relocate(node: unknown, at: Position): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const n of node) relocate(n, at);
    return;
  }
  const o = node as Record<string, unknown>;
  if (o.at && typeof o.at === 'object') o.at = at;
  for (const [k, v] of Object.entries(o)) if (k !== 'at') relocate(v, at);
}

/** Replaces placeholder identifiers by the caller's argument expressions. */
function substitute(e: Expr, args: Record<string, Expr>): Expr {
  if (e.kind === 'ident' && args[e.name]) return args[e.name];
  const copy: Record<string, unknown> = { ...e };
  for (const [k, v] of Object.entries(copy)) {
    if (k === 'at') continue;
    if (Array.isArray(v)) copy[k] = v.map((x) => (x && typeof x === 'object' && 'kind' in x && x.kind !== 'type' ? substitute(x as Expr, args) : x));
    else if (v && typeof v === 'object' && 'kind' in v && (v as { kind: string }).kind !== 'type') copy[k] = substitute(v as Expr, args);
  }
  return copy as unknown as Expr;
}
