import type { ContractLike, TypeRef } from '../ast.js';
import { evaluate } from './constants.js';
import { basicType, genericsOf, resolveType, typeName, type Facts, type Type } from './model.js';

/**
 * How values of the semantic types are laid out on the stack: every value occupies one slot per scalar
 * *leaf*, in the order scryptlib flattens constructor arguments (`a[0]`, `p.x`, `m[1][2].y`). Also the
 * canonical name of a type (`int`, `Pair<int,bytes>`, `int[2][3]`), as the ABI writes it.
 */

export type Family = 'int' | 'bool' | 'bytes';

export interface Leaf {
  /** The leaf's path inside the value: '' for a scalar, `[1]`, `.x`, `[0].y`. */
  suffix: string;
  family: Family;
  /** A bytes leaf of a subtype (`PubKey`, `Ripemd160`, …): its name; read back from bytes with a cast. */
  subtype?: string;
}

/** The most leaves one value may have: more would not fit any script. */
export const MAX_LEAVES = 100_000;

export class LayoutTooLarge extends Error {
  constructor(readonly type: string) {
    super(`${type} has more than ${MAX_LEAVES} scalar values`);
  }
}

export function familyOf(t: Type): Family | null {
  return t.k === 'int' || t.k === 'bool' || t.k === 'bytes' ? t.k : null;
}

/** The canonical name: aliases resolved, PubKeyHash as Ripemd160, generic arguments without spaces, sizes evaluated. */
export function typeKey(t: Type): string {
  return typeName(t, ',', '?');
}

export class Layout {
  private readonly cache = new Map<string, Leaf[]>();

  constructor(private readonly facts: Facts) {}

  /** The named parts of a struct value (its fields) or a library value (its non-static properties), with their types. */
  fields(t: Type): { name: string; type: Type }[] | null {
    if (t.k === 'struct') {
      const ctx = { facts: this.facts, owner: null, generics: genericsOf(t.decl, t.args) };
      return t.decl.fields.map((f) => ({ name: f.name, type: resolveType(f.type, ctx) }));
    }
    if (t.k === 'object') {
      const ctx = { facts: this.facts, owner: t.decl, generics: genericsOf(t.decl, t.args) };
      return t.decl.properties.filter((p) => !p.isStatic).map((p) => ({ name: p.name, type: resolveType(p.type, ctx) }));
    }
    return null;
  }

  /** Where a field starts among the value's leaves, and its type. */
  field(t: Type, name: string): { offset: number; type: Type } | null {
    let offset = 0;
    for (const f of this.fields(t) ?? []) {
      if (f.name === name) return { offset, type: f.type };
      offset += this.size(f.type);
    }
    return null;
  }

  /** The scalar leaves of a value, in scryptlib's flattening order. Every size must be known. */
  leaves(t: Type): Leaf[] {
    const key = typeKey(t);
    const cached = this.cache.get(key);
    if (cached) return cached;
    let out: Leaf[];
    const family = familyOf(t);
    if (family) out = [{ suffix: '', family, ...(t.k === 'bytes' && t.name !== 'bytes' ? { subtype: t.name } : {}) }];
    else if (t.k === 'array') {
      if (t.size === null) throw new Error(`the size of ${key} is not known`);
      const inner = this.leaves(t.elem);
      if (BigInt(inner.length) * t.size > BigInt(MAX_LEAVES)) throw new LayoutTooLarge(key);
      out = [];
      for (let i = 0; i < Number(t.size); i++) for (const l of inner) out.push({ ...l, suffix: `[${i}]${l.suffix}` });
    } else {
      const fields = this.fields(t);
      if (!fields) throw new Error(`${key} has no layout`);
      out = fields.flatMap((f) => this.leaves(f.type).map((l) => ({ ...l, suffix: `.${f.name}${l.suffix}` })));
      if (out.length > MAX_LEAVES) throw new LayoutTooLarge(key);
    }
    this.cache.set(key, out);
    return out;
  }

  size(t: Type): number {
    return this.leaves(t).length;
  }
}

/**
 * A declared type as the ABI and the artifact write it: like `typeKey`, except that the generic
 * parameters of the declaration it appears in stay as written (`T`, `Pair<K,V>`). `owner` is where the
 * type is written (its array sizes may name that library's or contract's static consts).
 */
export function abiTypeName(ref: TypeRef, facts: Facts, generics: readonly string[] = [], owner: ContractLike | null = null): string {
  const { base, dims } = abiParts(ref, facts, generics, owner);
  return base + dims.map((d) => `[${d}]`).join('');
}

function abiParts(ref: TypeRef, facts: Facts, generics: readonly string[], owner: ContractLike | null): { base: string; dims: string[] } {
  const dims = ref.dims.map((d) => {
    const v = evaluate(d, { facts, owner });
    return v && typeof v.value === 'bigint' ? String(v.value) : '?';
  });
  const item = facts.env.items.get(ref.name);
  const basic = basicType(ref.name);
  if (generics.includes(ref.name)) return { base: ref.name, dims };
  if (basic) return { base: basic.k === 'int' || basic.k === 'bytes' ? basic.name : 'bool', dims };
  if (item?.kind === 'alias') {
    // `type Row = int[3]; Row[2] m` is two rows of three: int[2][3].
    const inner = abiParts(item.type, facts, [], null);
    return { base: inner.base, dims: [...dims, ...inner.dims] };
  }
  if (ref.generics.length)
    return { base: `${ref.name}<${ref.generics.map((g) => abiTypeName(g, facts, generics, owner)).join(',')}>`, dims };
  return { base: ref.name, dims };
}
