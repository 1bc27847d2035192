import type { Position } from './diagnostics.js';

/** The syntax tree of an sCrypt program. Every node carries where it starts, for diagnostics. */
export interface Node {
  at: Position;
}

export interface TypeRef extends Node {
  kind: 'type';
  name: string;
  generics: TypeRef[];
  /** Array sizes, outermost first: `int[2][3]` → [2, 3] (compile-time constant expressions). */
  dims: Expr[];
  /** Written with the older `struct` keyword before the name (`struct Point p`): the name must be a struct. */
  tagged?: true;
}

export type Expr =
  | (Node & { kind: 'int'; value: bigint })
  | (Node & { kind: 'bool'; value: boolean })
  | (Node & { kind: 'bytes'; hex: string })
  | (Node & { kind: 'string'; value: string })
  /** `typeArgs`: a generic library named with its type arguments before a static call (`L<int>.clone(a)`). */
  | (Node & { kind: 'ident'; name: string; typeArgs?: TypeRef[] })
  | (Node & { kind: 'this' })
  | (Node & { kind: 'member'; object: Expr; name: string })
  | (Node & { kind: 'call'; callee: Expr; args: Expr[]; generics: TypeRef[] })
  | (Node & { kind: 'index'; object: Expr; index: Expr })
  | (Node & { kind: 'slice'; object: Expr; start: Expr | null; end: Expr | null })
  | (Node & { kind: 'unary'; op: '-' | '!' | '~' | '++' | '--'; operand: Expr })
  | (Node & { kind: 'postfix'; op: '++' | '--'; operand: Expr })
  | (Node & { kind: 'binary'; op: string; left: Expr; right: Expr })
  | (Node & { kind: 'ternary'; cond: Expr; then: Expr; else: Expr })
  | (Node & { kind: 'array'; items: Expr[] })
  | (Node & { kind: 'structLit'; fields: Expr[] })
  /** `new T(…)` as a value anywhere an expression goes (`return new L(x)`, `f(new G<int>(x))`, `new L(x).get()`). */
  | (Node & { kind: 'new'; type: TypeRef; args: Expr[] });

export type Stmt =
  | (Node & { kind: 'var'; type: TypeRef | 'auto'; name: string; init: Expr | null; isConst: boolean })
  | (Node & { kind: 'new'; type: TypeRef; name: string; args: Expr[] })
  /** `move`: the value is a temporary the parser made for `x = new T(…)`, consumed by the assignment. */
  | (Node & { kind: 'assign'; target: Expr; op: string; value: Expr; move?: boolean })
  | (Node & { kind: 'expr'; expr: Expr })
  | (Node & { kind: 'require'; cond: Expr })
  | (Node & { kind: 'exit'; cond: Expr })
  | (Node & { kind: 'if'; cond: Expr; then: Stmt; else: Stmt | null })
  | (Node & { kind: 'loop'; count: Expr; induction: string | null; body: Stmt })
  | (Node & { kind: 'block'; body: Stmt[] })
  | (Node & { kind: 'codesep' })
  | (Node & { kind: 'asm'; text: string })
  | (Node & { kind: 'return'; value: Expr });

export interface Param extends Node {
  name: string;
  type: TypeRef;
  /** `static const int size`: a compile-time constant parameter. */
  isStaticConst: boolean;
  /** `const int y`: the body may not assign it. */
  isConst?: boolean;
}

export interface Property extends Node {
  name: string;
  type: TypeRef;
  state: boolean;
  isStatic: boolean;
  isConst: boolean;
  visibility: 'public' | 'private' | 'default';
  init: Expr | null;
}

export interface Func extends Node {
  name: string;
  visibility: 'public' | 'private' | 'default';
  isStatic: boolean;
  params: Param[];
  returnType: TypeRef | null;
  body: Stmt[];
}

export interface ContractLike extends Node {
  kind: 'contract' | 'library';
  name: string;
  generics: string[];
  properties: Property[];
  ctor: (Node & { params: Param[]; body: Stmt[] }) | null;
  functions: Func[];
}

export interface StructDecl extends Node {
  kind: 'struct';
  name: string;
  generics: string[];
  fields: { name: string; type: TypeRef; at: Position }[];
}

export interface AliasDecl extends Node {
  kind: 'alias';
  name: string;
  type: TypeRef;
}

export interface ConstDecl extends Node {
  kind: 'const';
  name: string;
  type: TypeRef;
  value: Expr;
}

export type Item = ContractLike | StructDecl | AliasDecl | ConstDecl;

export interface Program {
  imports: { path: string; at: Position }[];
  items: Item[];
}
