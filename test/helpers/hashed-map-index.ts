import { createHash } from 'node:crypto';

/**
 * Where a key sits in a HashedMap's (or HashedSet's) sorted storage, computed independently of the
 * contract and of scryptlib: keys are ordered by sha256 of their serialisation read as a little-endian
 * sign-magnitude script number, and a key not yet stored gets the place it would be inserted at.
 */
export function scriptNumberOf(h: Buffer): bigint {
  const b = Buffer.from(h);
  const neg = (b[b.length - 1] & 0x80) !== 0;
  b[b.length - 1] &= 0x7f;
  const v = BigInt(`0x${Buffer.from(b).reverse().toString('hex') || '0'}`);
  return neg ? -v : v;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest();

export function sortedIndex(keys: Buffer[], key: Buffer): bigint {
  const all = [...keys.filter((k) => !k.equals(key)), key]
    .map((k) => ({ k, n: scriptNumberOf(sha(k)) }))
    .sort((a, b) => (a.n < b.n ? -1 : a.n > b.n ? 1 : 0));
  return BigInt(all.findIndex((x) => x.k.equals(key)));
}

/** An int as a script number (the serialisation of an int key or element). */
export function scriptNumber(n: bigint): Buffer {
  if (n === 0n) return Buffer.alloc(0);
  const neg = n < 0n;
  let a = neg ? -n : n;
  const out: number[] = [];
  while (a > 0n) {
    out.push(Number(a & 0xffn));
    a >>= 8n;
  }
  if (out[out.length - 1] & 0x80) out.push(neg ? 0x80 : 0);
  else if (neg) out[out.length - 1] |= 0x80;
  return Buffer.from(out);
}
