import { call, raw, type SExpr } from './sast.js';
import { scryptName } from './names.js';

/** A Solidity type as the transpiler understands it. */
export type SolType =
  | { k: 'int' }
  | { k: 'bool' }
  | { k: 'bytes' }
  | { k: 'string' }
  | { k: 'address' }
  | { k: 'array'; elem: SolType; size: number }
  | { k: 'struct'; name: string }
  | { k: 'mapping'; keys: SolType[]; value: SolType }
  | { k: 'unknown' };

export const INT: SolType = { k: 'int' };
export const BOOL: SolType = { k: 'bool' };
export const BYTES: SolType = { k: 'bytes' };
export const ADDRESS: SolType = { k: 'address' };
export const UNKNOWN: SolType = { k: 'unknown' };

export const ZERO_ADDRESS = call('Ripemd160', [raw(`b'${'00'.repeat(20)}'`)]);

/** Where the printed names of nested-mapping key structs come from. */
export interface KeyStructs {
  keyStructName(keys: SolType[]): string;
}

/** The sCrypt spelling: int, bool, bytes, PubKeyHash, arrays with their dimensions outermost first, HashedMap<K, V>. */
export function typeText(t: SolType, keys: KeyStructs): string {
  switch (t.k) {
    case 'int':
      return 'int';
    case 'bool':
      return 'bool';
    case 'bytes':
    case 'string':
      return 'bytes';
    case 'address':
      return 'PubKeyHash';
    case 'array': {
      const dims: number[] = [];
      let e: SolType = t;
      while (e.k === 'array') {
        dims.push(e.size);
        e = e.elem;
      }
      return `${typeText(e, keys)}${dims.map((d) => `[${d}]`).join('')}`;
    }
    case 'struct':
      return scryptName(t.name);
    case 'mapping':
      return `HashedMap<${t.keys.length === 1 ? typeText(t.keys[0], keys) : keys.keyStructName(t.keys)}, ${typeText(t.value, keys)}>`;
    case 'unknown':
      return 'auto';
  }
}

/** The value a declared but uninitialised variable starts with; null when the type has none (a mapping). */
export function defaultValue(t: SolType, structFields: (name: string) => SolType[] | null): SExpr | null {
  switch (t.k) {
    case 'int':
      return raw('0');
    case 'bool':
      return raw('false');
    case 'bytes':
      return raw("b''");
    case 'string':
      return raw('""');
    case 'address':
      return ZERO_ADDRESS;
    case 'array': {
      const d = defaultValue(t.elem, structFields);
      return d && { k: 'array', items: Array.from({ length: t.size }, () => d) };
    }
    case 'struct': {
      const fields = structFields(t.name);
      if (!fields) return null;
      const values = fields.map((f) => defaultValue(f, structFields));
      return values.every(Boolean) ? { k: 'struct', fields: values as SExpr[] } : null;
    }
    default:
      return null;
  }
}

/** Ordering of key-type lists, for printing nested-mapping key structs (sol2scrypt's: elementary types first). */
export function compareTypes(a: SolType, b: SolType): number {
  const rank = (t: SolType) => ({ bool: 0, int: 1, bytes: 2, string: 3, address: 4, unknown: 5, struct: 7, array: 8, mapping: 9 })[t.k];
  const d = rank(a) - rank(b);
  if (d) return d;
  if (a.k === 'struct' && b.k === 'struct') return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  if (a.k === 'array' && b.k === 'array') return compareTypes(a.elem, b.elem) || a.size - b.size;
  return 0;
}

export function compareTypeLists(a: SolType[], b: SolType[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = compareTypes(a[i], b[i]);
    if (d) return d;
  }
  return a.length - b.length;
}

export const sameTypes = (a: SolType[], b: SolType[]) => a.length === b.length && compareTypeLists(a, b) === 0;
