import type { AliasDecl, ContractLike, Expr, Program, StructDecl, TypeRef } from './ast.js';
import type { Position } from './diagnostics.js';

/**
 * Types as canonical strings: scalars (`int`, `bool`, `bytes`, `PubKey`, …), structs and libraries by
 * name (`Point`, `Pair<int,bytes>`), fixed arrays row-major (`int[2][3]`). Aliases are resolved away,
 * so two spellings of one type compare equal. Every value lives on the stack as its *leaves*: one slot
 * per scalar, in the order scryptlib flattens constructor arguments (`a[0]`, `p.x`, `m[1][2].y`).
 */
export const BYTES_TYPES = new Set(['bytes', 'PubKey', 'Sig', 'Ripemd160', 'Sha1', 'Sha256', 'SigHashType', 'SigHashPreimage', 'OpCodeType']);
export const INT_TYPES = new Set(['int', 'PrivKey']);
export type Family = 'int' | 'bool' | 'bytes';

export function familyOf(type: string): Family | null {
  if (INT_TYPES.has(type)) return 'int';
  if (type === 'bool') return 'bool';
  if (BYTES_TYPES.has(type)) return 'bytes';
  return null;
}

/** `Sig[2][3]` → { elem: 'Sig', dims: [2, 3] }; null for a non-array. */
export function arrayOf(type: string): { elem: string; dims: number[] } | null {
  const m = /^(.*?)((?:\[\d+\])+)$/.exec(type);
  return m ? { elem: m[1], dims: [...m[2].matchAll(/\[(\d+)\]/g)].map((x) => Number(x[1])) } : null;
}

/** The type of one element of an array: `int[2][3]` → `int[3]`. */
export function elementOf(type: string): { elem: string; size: number } | null {
  const a = arrayOf(type);
  if (!a) return null;
  return { elem: a.elem + a.dims.slice(1).map((d) => `[${d}]`).join(''), size: a.dims[0] };
}

/** `Pair<int,bytes>` → { name: 'Pair', args: ['int', 'bytes'] }. */
export function genericOf(type: string): { name: string; args: string[] } {
  const lt = type.indexOf('<');
  if (lt === -1 || !type.endsWith('>')) return { name: type, args: [] };
  const args: string[] = [];
  let depth = 0;
  let start = lt + 1;
  for (let i = start; i < type.length - 1; i++) {
    if (type[i] === '<') depth++;
    else if (type[i] === '>') depth--;
    else if (type[i] === ',' && depth === 0) {
      args.push(type.slice(start, i));
      start = i + 1;
    }
  }
  args.push(type.slice(start, type.length - 1));
  return { name: type.slice(0, lt), args };
}

export class TypeError_ extends Error {
  constructor(
    readonly at: Position,
    message: string,
  ) {
    super(message);
  }
}

export interface Leaf {
  suffix: string;
  type: string;
}

export class TypeSystem {
  readonly structs = new Map<string, StructDecl>();
  readonly libraries = new Map<string, ContractLike>();
  readonly aliases = new Map<string, AliasDecl>();
  private readonly leafCache = new Map<string, Leaf[]>();

  constructor(
    program: Program,
    /** Evaluates an array size (a compile-time constant) in the scope where the type is written. */
    private readonly constantOf: (e: Expr) => bigint | null,
  ) {
    for (const item of program.items) {
      if (item.kind === 'struct') this.structs.set(item.name, item);
      else if (item.kind === 'library') this.libraries.set(item.name, item);
      else if (item.kind === 'alias') this.aliases.set(item.name, item);
    }
  }

  /** A written type → its canonical string. `params` binds generic type parameters in scope. */
  resolve(t: TypeRef, params: ReadonlyMap<string, string> = new Map(), seen: string[] = [], constantOf: (e: Expr) => bigint | null = this.constantOf): string {
    let base: string;
    const bound = params.get(t.name);
    if (bound !== undefined) base = bound;
    else if (t.name === 'PubKeyHash') base = 'Ripemd160';
    else if (familyOf(t.name)) base = t.name;
    else if (this.aliases.has(t.name)) {
      if (seen.includes(t.name)) throw new TypeError_(t.at, `type alias ${t.name} refers to itself`);
      base = this.resolve(this.aliases.get(t.name)!.type, new Map(), [...seen, t.name]);
    } else if (this.structs.has(t.name) || this.libraries.has(t.name)) {
      const decl = this.structs.get(t.name) ?? this.libraries.get(t.name)!;
      const args = t.generics.map((g) => this.resolve(g, params, seen, constantOf));
      if (args.length && args.length !== decl.generics.length) {
        throw new TypeError_(t.at, `${t.name} takes ${decl.generics.length} type argument(s), not ${args.length}`);
      }
      base = args.length ? `${t.name}<${args.join(',')}>` : t.name;
    } else throw new TypeError_(t.at, `unknown type ${t.name}`);
    const dims = t.dims.map((d) => {
      const n = constantOf(d);
      if (n === null) throw new TypeError_(d.at, 'an array size must be a compile-time constant');
      if (n < 1n || n > 10_000n) throw new TypeError_(d.at, `an array size must be from 1 to 10000, not ${n}`);
      return `[${n}]`;
    });
    return base + dims.join('');
  }

  /** The generic bindings of a struct or library type: `Pair<int,bytes>` → K=int, V=bytes. */
  bindings(type: string): Map<string, string> {
    const { name, args } = genericOf(type);
    const decl = this.structs.get(name) ?? this.libraries.get(name);
    const map = new Map<string, string>();
    decl?.generics.forEach((g, i) => {
      if (args[i] !== undefined) map.set(g, args[i]);
    });
    return map;
  }

  /** The named parts of a struct value (its fields) or a library value (its non-static properties). */
  fieldsOf(type: string): { name: string; type: string }[] | null {
    if (arrayOf(type) || familyOf(type)) return null;
    const { name } = genericOf(type);
    const params = this.bindings(type);
    const s = this.structs.get(name);
    if (s) return s.fields.map((f) => ({ name: f.name, type: this.resolve(f.type, params) }));
    const lib = this.libraries.get(name);
    if (lib) return lib.properties.filter((p) => !p.isStatic).map((p) => ({ name: p.name, type: this.resolve(p.type, params) }));
    return null;
  }

  isLibrary(type: string): boolean {
    return !arrayOf(type) && this.libraries.has(genericOf(type).name);
  }

  /** The scalar slots of a value, in scryptlib's flattening order. */
  leaves(type: string): Leaf[] {
    const cached = this.leafCache.get(type);
    if (cached) return cached;
    let out: Leaf[];
    const el = elementOf(type);
    if (familyOf(type)) out = [{ suffix: '', type }];
    else if (el) {
      const inner = this.leaves(el.elem);
      out = [];
      for (let i = 0; i < el.size; i++) for (const l of inner) out.push({ suffix: `[${i}]${l.suffix}`, type: l.type });
    } else {
      const fields = this.fieldsOf(type);
      if (!fields) throw new Error(`no layout for ${type}`);
      out = fields.flatMap((f) => this.leaves(f.type).map((l) => ({ suffix: `.${f.name}${l.suffix}`, type: l.type })));
    }
    if (out.length > 100_000) throw new Error(`${type} is too large`);
    this.leafCache.set(type, out);
    return out;
  }

  size(type: string): number {
    return this.leaves(type).length;
  }

  /** Can a value of type `from` be stored where `to` is expected? Bytes subtypes mix, as in scryptlib. */
  assignable(from: string, to: string): boolean {
    if (from === to) return true;
    const ff = familyOf(from);
    const ft = familyOf(to);
    if (ff || ft) return ff === ft;
    const a = arrayOf(from);
    const b = arrayOf(to);
    if (a || b) {
      if (!a || !b || a.dims.join() !== b.dims.join()) return false;
      return this.assignable(a.elem, b.elem);
    }
    const ga = genericOf(from);
    const gb = genericOf(to);
    if (ga.name !== gb.name) return false;
    // A generic library written without arguments (`Box b = new Box(1)`) takes them from its value.
    if (!ga.args.length || !gb.args.length) return true;
    return ga.args.every((x, i) => this.assignable(x, gb.args[i]));
  }
}
