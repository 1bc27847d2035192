import type { AliasDecl, ConstDecl, ContractLike, Expr, Func, Item, Param, Program, Property, Stmt, StructDecl, TypeRef } from '../ast.js';
import type { Position } from '../diagnostics.js';
import { STDLIB_NAMES } from '../stdlib.js';

/**
 * What the semantic passes share: the program's declarations (`Env`), the semantic types, and the facts
 * one pass leaves for the next (`Facts`: which declaration each name refers to, which function each call
 * reaches). The symbols pass fills `idents`, `decls` and most of `calls`; the type checker fills in the
 * types of variables and the calls that need a type to resolve (`obj.f()`); the compile-time-constant
 * and recursion passes only read.
 */

// ---------------------------------------------------------------------------------------------------
// Types

export type Type =
  | { k: 'int'; name: string } // int, PrivKey
  | { k: 'bool' }
  | { k: 'bytes'; name: string } // bytes or one of its subtypes; PubKeyHash is stored as Ripemd160
  | { k: 'array'; elem: Type; size: bigint | null } // size null: a compile-time constant not known here (a static const parameter)
  | { k: 'struct'; decl: StructDecl; args: Map<string, Type> }
  | { k: 'object'; decl: ContractLike; args: Map<string, Type> } // an instance of a library or contract
  | { k: 'any' }; // unknown (already reported, a generic parameter, or a standard-library name we do not model)

export const ANY: Type = { k: 'any' };
export const INT: Type = { k: 'int', name: 'int' };
export const BOOL: Type = { k: 'bool' };
export const BYTES: Type = { k: 'bytes', name: 'bytes' };

/** The one list of basic type names for the whole compiler; PubKeyHash is the alias of Ripemd160. */
export const BYTES_SUBTYPES = new Set([
  'PubKey',
  'Sig',
  'Ripemd160',
  'Sha1',
  'Sha256',
  'SigHashType',
  'SigHashPreimage',
  'OpCodeType',
  'PubKeyHash',
]);
export const INT_NAMES = new Set(['int', 'PrivKey']);

/** The basic type a name denotes (`PubKeyHash` → Ripemd160), or null if the name is not a basic type. */
export function basicType(name: string): Type | null {
  if (INT_NAMES.has(name)) return { k: 'int', name };
  if (name === 'bool') return BOOL;
  if (name === 'bytes') return BYTES;
  if (BYTES_SUBTYPES.has(name)) return { k: 'bytes', name: name === 'PubKeyHash' ? 'Ripemd160' : name };
  return null;
}

/** A type for messages: `Pair<int, bytes>`, `int[2][3]`, `unknown`. */
export function show(t: Type): string {
  return typeName(t, ', ', 'unknown');
}

/**
 * A type's name; `separator` goes between generic arguments and `unknown` stands for what is not known
 * (a size shows as `?`).
 */
export function typeName(t: Type, separator: string, unknown: string): string {
  switch (t.k) {
    case 'int':
    case 'bytes':
      return t.name;
    case 'bool':
      return 'bool';
    case 'any':
      return unknown;
    case 'array': {
      const dims: string[] = [];
      let e: Type = t;
      while (e.k === 'array') {
        dims.push(`[${e.size ?? '?'}]`);
        e = e.elem;
      }
      return typeName(e, separator, unknown) + dims.join('');
    }
    case 'struct':
    case 'object': {
      const args = t.decl.generics.map((g) => t.args.get(g));
      return args.length && args.every(Boolean)
        ? `${t.decl.name}<${args.map((a) => typeName(a!, separator, unknown)).join(separator)}>`
        : t.decl.name;
    }
  }
}

/**
 * Whether a value of type `from` may be stored where `to` is expected (an assignment, an initial value, an
 * argument, a returned value, an array item or struct field). Conversions that need no cast: int ↔ PrivKey;
 * a bytes subtype → bytes. The other direction needs the cast the language reference prescribes (syntax.rst,
 * "Subtypes of bytes": "to cast a supertype bytes to them, a function of the type name must be explicitly
 * called"): `PubKey pk = b;` is refused, `PubKey pk = PubKey(b);` is not. One bytes subtype to a different
 * one (Sig → PubKey) needs an explicit cast too. Arrays need the same size and element type; structs and
 * libraries the same declaration.
 */
export function assignable(from: Type, to: Type): boolean {
  if (from.k === 'any' || to.k === 'any') return true;
  if (from.k !== to.k) return false;
  switch (to.k) {
    case 'int':
    case 'bool':
      return true;
    case 'bytes': {
      const f = (from as { name: string }).name;
      return to.name === 'bytes' || f === to.name;
    }
    case 'array': {
      const a = from as Extract<Type, { k: 'array' }>;
      return (a.size === null || to.size === null || a.size === to.size) && assignable(a.elem, to.elem);
    }
    case 'struct':
    case 'object': {
      const s = from as Extract<Type, { k: 'struct' | 'object' }>;
      if (s.decl !== to.decl) return false;
      for (const g of to.decl.generics) {
        const x = s.args.get(g);
        const y = to.args.get(g);
        if (x && y && !sameType(x, y)) return false;
      }
      return true;
    }
  }
  return true;
}

/**
 * What to add to a "cannot assign" message when `from` is plain bytes where a subtype of bytes is expected
 * (also element by element in arrays): the explicit cast it needs. Empty otherwise.
 */
export function castHint(from: Type, to: Type): string {
  let f = from;
  let t = to;
  while (f.k === 'array' && t.k === 'array') {
    f = f.elem;
    t = t.elem;
  }
  if (f.k !== 'bytes' || t.k !== 'bytes' || f.name !== 'bytes' || t.name === 'bytes') return '';
  return `: bytes becomes ${t.name} only through an explicit cast${from.k === 'array' ? ' (of each item)' : ''}, ${t.name}(…)`;
}

/** The same type, for `==`/`!=` on arrays and structs and for generic arguments (bytes subtypes count as one family). */
export function sameType(a: Type, b: Type): boolean {
  if (a.k === 'any' || b.k === 'any') return true;
  if (a.k !== b.k) return false;
  if (a.k === 'array' && b.k === 'array') return (a.size === null || b.size === null || a.size === b.size) && sameType(a.elem, b.elem);
  if ((a.k === 'struct' || a.k === 'object') && (b.k === 'struct' || b.k === 'object')) return assignable(a, b);
  return true;
}

// ---------------------------------------------------------------------------------------------------
// Declarations

/**
 * Standard-library names the compiler provides. When the program declares one (the compiler adds the
 * standard library as ordinary `library` declarations before these passes run), the declaration is used
 * like any other. When it does not, the name is still accepted, and everything reached through it has an
 * unknown type, so a program that uses a standard feature these passes do not model is never rejected.
 */
export const STD_NAMES = new Set([
  'Tx',
  'SigHash',
  'Utils',
  'Util',
  'OpCode',
  'VarIntReader',
  'VarIntWriter',
  'Constants',
  'HashedMap',
  'HashedSet',
  'SortedItem',
  'P2PKH',
  'P2PK',
  'HashPuzzleRipemd160',
  'HashPuzzleSha1',
  'HashPuzzleSha256',
  'HashPuzzleHash160',
]);

export type Scope = Map<string, VarSymbol>;

/** A variable: parameter, local, loop induction variable. `type` is filled in by the type checker. */
export interface VarSymbol {
  kind: 'param' | 'staticParam' | 'local' | 'induction' | 'new';
  name: string;
  at: Position;
  isConst: boolean;
  type?: Type;
}

/** A static constant reached by its bare name: a file-level `static const` or a `static const` property of the enclosing contract. */
export interface ConstSymbol {
  kind: 'const';
  name: string;
  decl: ConstDecl | Property;
  owner: ContractLike | null;
}

export type Symbol = VarSymbol | ConstSymbol;

/** A call that reaches a user-defined function. */
export interface CallTarget {
  owner: ContractLike;
  fn: Func;
}

export interface Facts {
  env: Env;
  /** Identifier expressions → what they name. Missing: reported as undefined (or a type/library name used as the object of `.`). */
  idents: Map<Expr, Symbol>;
  /** Declaring nodes (a `var`/`new`/`loop` statement, a parameter) → their symbol. */
  decls: Map<Stmt | Param, VarSymbol>;
  /** Call expressions → the user function they call. */
  calls: Map<Expr, CallTarget>;
  /** Which function each call appears in, for the call graph. */
  callers: Map<Expr, CallTarget | null>;
}

export class Env {
  /** Every top-level name → its first declaration. */
  readonly items = new Map<string, Item>();
  readonly contracts: ContractLike[];
  readonly main: ContractLike | null;

  constructor(readonly program: Program) {
    for (const item of program.items) if (!this.items.has(item.name)) this.items.set(item.name, item);
    this.contracts = program.items.filter((i): i is ContractLike => i.kind === 'contract');
    // The last contract; a file of libraries only (a library package) compiles its last library (its own:
    // the standard library's come first and are not candidates).
    const libraries = program.items.filter((i): i is ContractLike => i.kind === 'library' && !STDLIB_NAMES.includes(i.name));
    this.main = this.contracts[this.contracts.length - 1] ?? libraries[libraries.length - 1] ?? null;
  }

  /** A library or contract by name. */
  owner(name: string): ContractLike | null {
    const item = this.items.get(name);
    return item && (item.kind === 'contract' || item.kind === 'library') ? item : null;
  }

  /** A name that stands for a library or contract (declared, or a standard one we do not model). */
  isOwnerName(name: string): boolean {
    return this.owner(name) !== null || (!this.items.has(name) && STD_NAMES.has(name));
  }
}

export function newFacts(program: Program): Facts {
  return { env: new Env(program), idents: new Map(), decls: new Map(), calls: new Map(), callers: new Map() };
}

// ---------------------------------------------------------------------------------------------------
// Compile-time constants

/**
 * Whether an expression is a compile-time constant (ctc.rst): a literal (a negated one too), a loop
 * induction variable, a `static const` parameter, or a `static const` property / file-level constant
 * initialised with a literal, by bare name, `this.N` or `Owner.N`. `value` is null when the constant's
 * value is not known here (induction variables, static const parameters).
 */
export function constValue(
  e: Expr,
  facts: Facts,
  owner: ContractLike | null,
  seen = new Set<object>(),
  bound?: Bindings,
): { value: bigint | null } | null {
  switch (e.kind) {
    case 'int':
      return { value: e.value };
    case 'unary': {
      if (e.op !== '-') return null;
      const v = constValue(e.operand, facts, owner, seen, bound);
      return v && { value: v.value === null ? null : -v.value };
    }
    case 'ident': {
      const sym = facts.idents.get(e);
      if (!sym) return null;
      if (sym.kind === 'induction' || sym.kind === 'staticParam') {
        const v = bound?.get(sym);
        return { value: typeof v?.value === 'bigint' ? v.value : null };
      }
      if (sym.kind === 'const') return constDeclValue(sym.decl, facts, sym.owner, seen);
      return null;
    }
    case 'member': {
      let target: ContractLike | null = null;
      if (e.object.kind === 'this') target = owner;
      else if (e.object.kind === 'ident' && !facts.idents.has(e.object)) target = facts.env.owner(e.object.name);
      const p = target?.properties.find((x) => x.name === e.name && x.isStatic && x.isConst);
      return p ? constDeclValue(p, facts, target, seen) : null;
    }
    default:
      return null;
  }
}

function constDeclValue(
  decl: ConstDecl | Property,
  facts: Facts,
  owner: ContractLike | null,
  seen: Set<object>,
): { value: bigint | null } | null {
  if ('isStatic' in decl && !(decl.isStatic && decl.isConst)) return null;
  const init = 'value' in decl ? decl.value : decl.init;
  if (!init || seen.has(decl)) return null;
  seen.add(decl);
  // A literal, or (accepted as well) another such constant.
  return init.kind === 'int' || init.kind === 'unary' || init.kind === 'ident' || init.kind === 'member'
    ? constValue(init, facts, owner, seen)
    : null;
}

/** A compile-time constant value: an int, a bool, or bytes (hex); `type` is its basic type's name. */
export interface ConstVal {
  type: string;
  value: bigint | boolean | string;
}

/** Values of loop induction variables and `static const` parameters where code is being lowered. */
export type Bindings = ReadonlyMap<VarSymbol, ConstVal>;

// ---------------------------------------------------------------------------------------------------
// Type resolution

export interface TypeContext {
  facts: Facts;
  /** The library or contract whose members are being checked (for `static const` sizes and generic parameters). */
  owner: ContractLike | null;
  /** Generic parameters in scope → their substitution (any inside the generic declaration itself). */
  generics: Map<string, Type>;
  /** Reports unknown type names; the type checker resolves silently (the symbols pass has reported them). */
  report?: (at: Position, message: string) => void;
  /** Where code is lowered, the values of induction variables and static const parameters (array sizes). */
  bound?: Bindings;
}

/** A declared type → a semantic type. Unknown names become `any`. */
export function resolveType(ref: TypeRef, ctx: TypeContext, seen: Set<AliasDecl> = new Set()): Type {
  let base = resolveBase(ref, ctx, seen);
  for (let i = ref.dims.length - 1; i >= 0; i--) {
    const v = constValue(ref.dims[i], ctx.facts, ctx.owner, new Set(), ctx.bound);
    // An invalid size (reported by the constants pass) counts as unknown, so it does not cascade.
    const size = v && v.value !== null && v.value >= 1n ? v.value : null;
    base = { k: 'array', elem: base, size };
  }
  return base;
}

function resolveBase(ref: TypeRef, ctx: TypeContext, seen: Set<AliasDecl>): Type {
  const generic = ctx.generics.get(ref.name);
  if (generic) return generic;
  const basic = basicType(ref.name);
  if (basic) {
    if (ref.generics.length) ctx.report?.(ref.at, `${ref.name} takes no type arguments`);
    return basic;
  }
  const item = ctx.facts.env.items.get(ref.name);
  if (!item) {
    if (STD_NAMES.has(ref.name)) return ANY;
    ctx.report?.(ref.at, `unknown type ${ref.name}`);
    return ANY;
  }
  switch (item.kind) {
    case 'alias': {
      if (seen.has(item)) {
        ctx.report?.(ref.at, `type alias ${item.name} refers to itself`);
        return ANY;
      }
      seen.add(item);
      if (ref.generics.length) ctx.report?.(ref.at, `${ref.name} takes no type arguments`);
      return resolveType(item.type, { ...ctx, owner: null, generics: new Map(), report: undefined }, seen);
    }
    case 'struct':
    case 'library':
    case 'contract': {
      const args = new Map<string, Type>();
      if (ref.generics.length && ref.generics.length !== item.generics.length) {
        ctx.report?.(
          ref.at,
          item.generics.length
            ? `${item.name} takes ${item.generics.length} type argument(s), not ${ref.generics.length}`
            : `${item.name} takes no type arguments`,
        );
      } else ref.generics.forEach((g, i) => args.set(item.generics[i], resolveType(g, ctx, seen)));
      return item.kind === 'struct' ? { k: 'struct', decl: item, args } : { k: 'object', decl: item, args };
    }
    case 'const':
      ctx.report?.(ref.at, `'${ref.name}' is a constant, not a type`);
      return ANY;
  }
}

/** The substitution of a struct's or library's generic parameters: the given arguments, `any` for the rest. */
export function genericsOf(decl: StructDecl | ContractLike, args: Map<string, Type> = new Map()): Map<string, Type> {
  return new Map(decl.generics.map((g) => [g, args.get(g) ?? ANY]));
}

// ---------------------------------------------------------------------------------------------------
// Walking

/** Where an expression begins in the source (a binary expression's `at` is its operator, a call's its `(`). */
export function startOf(e: Expr): Position {
  switch (e.kind) {
    case 'member':
    case 'index':
    case 'slice':
      return startOf(e.object);
    case 'call':
      return startOf(e.callee);
    case 'postfix':
      return startOf(e.operand);
    case 'binary':
      return startOf(e.left);
    case 'ternary':
      return startOf(e.cond);
    default:
      return e.at;
  }
}

/** The callee's name for messages: `f`, `this.f`, `Lib.f`. */
export function calleeName(e: Expr): string {
  if (e.kind === 'ident') return e.name;
  if (e.kind === 'member')
    return e.object.kind === 'this' ? `this.${e.name}` : e.object.kind === 'ident' ? `${e.object.name}.${e.name}` : e.name;
  return 'expression';
}

/** Calls `f` on every expression inside `e`, `e` included, outermost first. */
export function eachExpr(e: Expr, f: (e: Expr) => void): void {
  f(e);
  switch (e.kind) {
    case 'member':
      eachExpr(e.object, f);
      break;
    case 'call':
      eachExpr(e.callee, f);
      e.args.forEach((a) => eachExpr(a, f));
      break;
    case 'index':
      eachExpr(e.object, f);
      eachExpr(e.index, f);
      break;
    case 'slice':
      eachExpr(e.object, f);
      if (e.start) eachExpr(e.start, f);
      if (e.end) eachExpr(e.end, f);
      break;
    case 'unary':
    case 'postfix':
      eachExpr(e.operand, f);
      break;
    case 'binary':
      eachExpr(e.left, f);
      eachExpr(e.right, f);
      break;
    case 'ternary':
      eachExpr(e.cond, f);
      eachExpr(e.then, f);
      eachExpr(e.else, f);
      break;
    case 'array':
      e.items.forEach((x) => eachExpr(x, f));
      break;
    case 'structLit':
      e.fields.forEach((x) => eachExpr(x, f));
      break;
    case 'new':
      e.args.forEach((x) => eachExpr(x, f));
      break;
    default:
      break;
  }
}

/** Calls `f` on every statement inside `s`, `s` included. */
export function eachStmt(s: Stmt, f: (s: Stmt) => void): void {
  f(s);
  if (s.kind === 'block') s.body.forEach((x) => eachStmt(x, f));
  else if (s.kind === 'if') {
    eachStmt(s.then, f);
    if (s.else) eachStmt(s.else, f);
  } else if (s.kind === 'loop') eachStmt(s.body, f);
}

/** The expressions directly inside a statement (not those of nested statements). */
export function stmtExprs(s: Stmt): Expr[] {
  switch (s.kind) {
    case 'var':
      return s.init ? [s.init] : [];
    case 'new':
      return s.args;
    case 'assign':
      return [s.target, s.value];
    case 'expr':
      return [s.expr];
    case 'require':
    case 'exit':
    case 'if':
      return [s.cond];
    case 'loop':
      return [s.count];
    case 'return':
      return [s.value];
    default:
      return [];
  }
}

/** What `walkProgram` calls back with. */
export interface ProgramVisitor {
  /** Before each top-level item: the library or contract it is, or null. */
  enter?(owner: ContractLike | null): void;
  /** Every type written outside function bodies (fields, aliases, constants, properties, parameters, return types). */
  type(ref: TypeRef): void;
  /** Initialisers: of file-level constants and of properties. */
  expr(e: Expr): void;
  /** The top-level statements of every constructor and function body. */
  stmt(s: Stmt): void;
  /** A file-level constant or a static property, after its type and value. */
  constant?(decl: ConstDecl | Property): void;
  /** Each function, after its parameter and return types. */
  fn?(f: Func): void;
}

/** Visits the parts of every declaration of a program, in source order. */
export function walkProgram(program: Program, v: ProgramVisitor): void {
  for (const item of program.items) {
    const owner = item.kind === 'contract' || item.kind === 'library' ? item : null;
    v.enter?.(owner);
    switch (item.kind) {
      case 'struct':
        item.fields.forEach((f) => v.type(f.type));
        break;
      case 'alias':
        v.type(item.type);
        break;
      case 'const':
        v.type(item.type);
        v.expr(item.value);
        v.constant?.(item);
        break;
      default:
        for (const p of item.properties) {
          v.type(p.type);
          if (p.init) v.expr(p.init);
          if (p.init && p.isStatic) v.constant?.(p);
        }
        for (const params of [item.ctor?.params ?? [], ...item.functions.map((f) => f.params)]) params.forEach((p) => v.type(p.type));
        for (const f of item.functions) {
          if (f.returnType) v.type(f.returnType);
          v.fn?.(f);
        }
        for (const { body } of bodiesOf(item)) body.forEach((s) => v.stmt(s));
    }
  }
}

/** Every function-like body of a library or contract: the constructor and the functions. */
export function bodiesOf(c: ContractLike): { fn: Func | null; body: Stmt[] }[] {
  return [...(c.ctor ? [{ fn: null, body: c.ctor.body }] : []), ...c.functions.map((fn) => ({ fn, body: fn.body }))];
}

/** A function of a library or contract by name, the one taking `arity` arguments where several share the name. */
export function functionFor(c: ContractLike | null | undefined, name: string, arity: number): Func | undefined {
  const named = c?.functions.filter((f) => f.name === name) ?? [];
  return named.find((f) => f.params.length === arity) ?? named[0];
}
