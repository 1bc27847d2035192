import type { ContractLike, Expr, Func, Program, Property, Stmt } from '../ast.js';
import type { Diagnostics, Position } from '../diagnostics.js';
import { parse } from '../parser.js';
import { CONTRACT_BUILTINS } from '../semantics/builtins.js';
import type { Layout } from '../semantics/layout.js';
import { bodiesOf, eachExpr, eachStmt, resolveType, stmtExprs, type Facts } from '../semantics/model.js';

/**
 * Lowering of stateful contracts (`@state`), as a rewrite of the syntax tree into ordinary sCrypt that the
 * semantic passes then check again. The locking script is `code OP_RETURN data`, where scryptlib writes the
 * data part as `[isGenesis 01|00] [each state leaf] [4-byte LE length of both] [version 00]`. Values of state
 * properties start as the constructor's (baked into the code, right at deployment, when isGenesis is 01);
 * afterwards they are read from the data part of the script being spent, which the contract sees through
 * the BIP143 preimage's scriptCode:
 * - every public function with a SigHashPreimage parameter starts with a prelude that reads the state into
 *   the properties and puts the spent script's code part into the hidden property `__codePart__` (a
 *   constructor placeholder scryptlib fills with OP_0, so the deployed code does not depend on itself);
 * - `this.getStateScript()` becomes a call of a generated private function: that code part plus the
 *   current values;
 * - `this.updateState(preimage, amount)` becomes: the preimage checks out, and the spending transaction's
 *   outputs are exactly that script with `amount` satoshis (`updateStateSigHashType` with its sighash type).
 * The generated code uses the standard library's SigHash, Utils, VarIntReader and VarIntWriter.
 */
export interface StatefulLowering {
  program: Program;
  main: ContractLike;
  /**
   * The hidden property `__codePart__` (after the others): a constructor placeholder scryptlib fills with
   * OP_0, which each public function with a preimage replaces with the code part of the script it spends.
   */
  codePart: Property | null;
}

export const CODE_PART = '__codePart__';

export function lowerStateful(program: Program, main: ContractLike, facts: Facts, layout: Layout, diags: Diagnostics): StatefulLowering {
  reportMisuse(program, main, facts, diags);
  const stateProps = main.properties.filter((p) => p.state && !p.isStatic);
  if (!stateProps.length || diags.hasErrors) return { program, main, codePart: null };

  const ctx = { facts, owner: main, generics: new Map() };
  const leaves = stateProps.flatMap((p) =>
    layout.leaves(resolveType(p.type, ctx)).map((l) => ({ path: p.name + l.suffix, family: l.family, subtype: l.subtype })),
  );
  const lowered: ContractLike = structuredClone(main);
  const codePart: Property = {
    name: CODE_PART,
    type: { kind: 'type', name: 'bytes', generics: [], dims: [], at: main.at },
    state: false,
    isStatic: false,
    isConst: false,
    visibility: 'private',
    init: null,
    at: main.at,
  };
  lowered.properties.push(codePart);
  const own = new Set(main.functions.map((f) => f.name));
  for (const { body } of bodiesOf(lowered)) body.forEach((s) => rewriteCalls(s, own));
  for (const f of lowered.functions) {
    if (f.visibility !== 'public') continue;
    const preimage = f.params.find((p) => p.type.name === 'SigHashPreimage' && !p.type.dims.length);
    if (!preimage) continue;
    f.body.unshift(...preludeOf(preimage.name, leaves, f.at));
  }
  lowered.functions.push(getStateScriptFunction(leaves, main.at));
  return { program: { imports: program.imports, items: program.items.map((i) => (i === main ? lowered : i)) }, main: lowered, codePart };
}

type Leaf = { path: string; family: 'int' | 'bool' | 'bytes'; subtype?: string };

const reader = (l: Leaf) => (l.family === 'int' ? 'readInt' : l.family === 'bool' ? 'readBool' : 'readBytes');
const writer = (l: Leaf) => (l.family === 'int' ? 'writeInt' : l.family === 'bool' ? 'writeBool' : 'writeBytes');

/**
 * Loads the current state at the start of a public function, in the official shape: the spent script's
 * code part (everything before the state) goes into the `__codePart__` property; unless the data part
 * still says genesis, each state property is read from it in order.
 */
function preludeOf(preimage: string, leaves: Leaf[], at: Position): Stmt[] {
  // A subtype of bytes is read as bytes and cast to it (no code: the cast only changes the type).
  const reads = leaves
    .map((l) => `this.${l.path} = ${l.subtype ? `${l.subtype}(__scrypt_r.${reader(l)}())` : `__scrypt_r.${reader(l)}()`};`)
    .join('\n');
  return statements(
    `bytes __scrypt_sc = SigHash.scriptCode(${preimage});
     int __scrypt_ss = VarIntReader.getStateStart(__scrypt_sc);
     this.${CODE_PART} = __scrypt_sc[: __scrypt_ss];
     VarIntReader __scrypt_r = new VarIntReader(__scrypt_sc[__scrypt_ss :]);
     bool __scrypt_genesis = __scrypt_r.readBool();
     if (!__scrypt_genesis) {
       ${reads}
     }`,
    at,
  );
}

/** The next locking script: the code part, then a non-genesis data part with the current values. */
function getStateScriptFunction(leaves: Leaf[], at: Position): Func {
  const writes = leaves.map((l) => ` + VarIntWriter.${writer(l)}(this.${l.path})`).join('');
  const source = `contract __S { private function __scrypt_getStateScript() : bytes {
    bytes state = VarIntWriter.writeBool(false)${writes};
    return this.${CODE_PART} + VarIntWriter.serializeState(state);
  } }`;
  const fn = parsed(source).functions[0];
  relocate(fn, at);
  return fn;
}

/**
 * Whether a call is one of the stateful-contract built-ins: `this.name(…)`, unless the contract declares a
 * function of that name (its own `updateState` is called like any function, as the symbols pass resolved it).
 */
function isBuiltinCall(e: Expr, own: ReadonlySet<string>): e is Expr & { kind: 'call'; callee: { kind: 'member'; name: string } } {
  return (
    e.kind === 'call' &&
    e.callee.kind === 'member' &&
    e.callee.object.kind === 'this' &&
    e.callee.name in CONTRACT_BUILTINS &&
    !own.has(e.callee.name)
  );
}

/** `this.getStateScript()`, `this.updateState(p, amount)`, `this.updateStateSigHashType(p, amount, t)` → ordinary sCrypt. */
function rewrite(e: Expr, own: ReadonlySet<string>): Expr | null {
  if (!isBuiltinCall(e, own)) return null;
  const [p, a, t] = e.args;
  switch (e.callee.name) {
    case 'getStateScript':
      return expression('this.__scrypt_getStateScript()', e.at, {});
    case 'updateState':
      return expression(
        'Tx.checkPreimage(__P) && hash256(Utils.buildOutput(this.__scrypt_getStateScript(), __A)) == SigHash.hashOutputs(__P)',
        e.at,
        { __P: p, __A: a },
      );
    case 'updateStateSigHashType':
      return expression(
        'Tx.checkPreimageSigHashType(__P, __T) && hash256(Utils.buildOutput(this.__scrypt_getStateScript(), __A)) == SigHash.hashOutputs(__P)',
        e.at,
        { __P: p, __A: a, __T: t },
      );
    default:
      return null;
  }
}

/** Replaces, in place, every stateful-contract built-in call inside a statement (the tree is a private copy). */
function rewriteCalls(root: Stmt, own: ReadonlySet<string>): void {
  eachStmt(root, (s) => {
    for (const e of stmtExprs(s)) replaceIn(s as unknown as Record<string, unknown>, e, own);
  });
}

function replaceIn(parent: Record<string, unknown>, child: Expr, own: ReadonlySet<string>): void {
  const replaced = rewrite(child, own);
  if (replaced) {
    for (const [k, v] of Object.entries(parent)) {
      if (v === child) parent[k] = replaced;
      else if (Array.isArray(v)) v.forEach((x, i) => x === child && (v[i] = replaced));
    }
  }
  // The arguments moved into the replacement may hold more built-in calls.
  const node = (replaced ?? child) as unknown as Record<string, unknown>;
  for (const v of Object.values(node)) {
    if (Array.isArray(v)) v.forEach((x) => isExpr(x) && replaceIn(node, x, own));
    else if (isExpr(v)) replaceIn(node, v, own);
  }
}

const isExpr = (x: unknown): x is Expr => !!x && typeof x === 'object' && 'kind' in x && (x as { kind: string }).kind !== 'type';

/**
 * The built-ins work where the state is known: in the main contract (the only one compiled), in a
 * public function with a SigHashPreimage parameter (the prelude reads the current state from it), or in
 * a function such a public function calls.
 */
function reportMisuse(program: Program, main: ContractLike, facts: Facts, diags: Diagnostics): void {
  const uses = new Map<Func | null, Position>(); // the functions of main that use a built-in, directly, and where
  for (const item of program.items) {
    if (item.kind !== 'contract') continue;
    const own = new Set(item.functions.map((f) => f.name));
    for (const { fn, body } of bodiesOf(item)) {
      for (const s of body) {
        for (const x of collect(s)) {
          if (!isBuiltinCall(x, own)) continue;
          if (item !== main) diags.error(x.at, `this.${x.callee.name}() works only in the contract being compiled (${main.name})`);
          else if (!uses.has(fn)) uses.set(fn, x.at);
        }
      }
    }
  }
  if (!uses.size) return;
  const reaches = (fn: Func | null, seen: Set<Func | null>): boolean => {
    if (uses.has(fn)) return true;
    if (seen.has(fn)) return false;
    seen.add(fn);
    for (const [call, caller] of facts.callers) {
      const callee = facts.calls.get(call);
      if (caller?.fn === fn && caller.owner === main && callee?.owner === main && reaches(callee.fn, seen)) return true;
    }
    return false;
  };
  for (const { fn } of bodiesOf(main)) {
    if (fn && fn.visibility !== 'public') continue;
    const hasPreimage = fn?.params.some((p) => p.type.name === 'SigHashPreimage' && !p.type.dims.length);
    if (!hasPreimage && reaches(fn, new Set())) {
      diags.error(
        fn?.at ?? main.ctor!.at,
        `${fn ? `public function ${fn.name}` : 'the constructor'} uses the contract's state (getStateScript or updateState), which is read from a SigHashPreimage parameter; add one`,
      );
    }
  }
}

function collect(s: Stmt): Expr[] {
  const out: Expr[] = [];
  eachStmt(s, (x) => stmtExprs(x).forEach((e) => eachExpr(e, (y) => out.push(y))));
  return out;
}

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
    if (Array.isArray(v)) copy[k] = v.map((x) => (isExpr(x) ? substitute(x, args) : x));
    else if (isExpr(v)) copy[k] = substitute(v, args);
  }
  return copy as unknown as Expr;
}
