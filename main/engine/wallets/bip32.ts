import { createHmac } from 'node:crypto';
import { publicKeyOf } from '../../crypto/secp256k1.js';
import type { ChainNodePublic } from './child-key.js';

/** The curve order n. */
const N = BigInt('0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141');
const HARDENED = 0x80000000;

/** A private BIP32 node: key and chain code, 32 bytes each. */
export interface PrivateNode {
  key: Uint8Array;
  chainCode: Uint8Array;
}

const bigOf = (bytes: Uint8Array) => BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
const bytesOf = (n: bigint) => Uint8Array.from(Buffer.from(n.toString(16).padStart(64, '0'), 'hex'));

function split(i: Buffer): { il: Uint8Array; ir: Uint8Array } {
  return { il: i.subarray(0, 32), ir: Uint8Array.from(i.subarray(32)) };
}

/** BIP32's master node of a seed. */
export function masterNode(seed: Uint8Array): PrivateNode {
  const { il, ir } = split(createHmac('sha512', 'Bitcoin seed').update(seed).digest());
  const k = bigOf(il);
  if (k === 0n || k >= N) throw new RangeError('the seed gives an invalid master key (BIP32: use another seed)');
  return { key: Uint8Array.from(il), chainCode: ir };
}

/** BIP32's CKDpriv: child `index` (≥ 2^31 for hardened) of a private node. */
export function childNode(parent: PrivateNode, index: number): PrivateNode {
  if (!Number.isInteger(index) || index < 0 || index > 0xffffffff) throw new RangeError(`child index ${index} is out of range`);
  const ser32 = Buffer.alloc(4);
  ser32.writeUInt32BE(index);
  const hmac = createHmac('sha512', parent.chainCode);
  if (index >= HARDENED) hmac.update(Buffer.from([0])).update(parent.key);
  else hmac.update(publicKeyOf(parent.key));
  const { il, ir } = split(hmac.update(ser32).digest());
  const tweak = bigOf(il);
  const key = (tweak + bigOf(parent.key)) % N;
  // Probability below 2^-127; BIP32 says to proceed with the next index, which a wallet's fixed paths cannot.
  if (tweak >= N || key === 0n) throw new RangeError(`child ${index} is invalid (BIP32: use the next index)`);
  return { key: bytesOf(key), chainCode: ir };
}

/** The indices of a path such as `m/44'/236'/0'` (accountPathFrom in keys.ts has checked its form). */
export function pathIndices(path: string): number[] {
  const parts = path.split('/');
  if (parts[0] !== 'm') throw new RangeError(`${path} is not a path from the master node`);
  return parts.slice(1).map((p) => {
    const hardened = p.endsWith("'") || p.endsWith('h');
    const n = Number(hardened ? p.slice(0, -1) : p);
    if (!Number.isInteger(n) || n < 0 || n >= HARDENED) throw new RangeError(`${path}: ${p} is not a child index`);
    return hardened ? n + HARDENED : n;
  });
}

/**
 * The chain nodes `<account>/c` of a seed: each one's private key and public parts. A hardened step
 * needs no public key, so an all-hardened account path costs one multiplication per chain, plus one for
 * the account's public key; @bsv/sdk's HD computes a public key at every level. Intermediate keys are
 * zeroed once used. Checked against @bsv/sdk's HD in test/unit/bip32.test.ts.
 */
export function chainNodes(seed: Uint8Array, accountPath: string, chains: readonly number[]): { key: Uint8Array; node: ChainNodePublic }[] {
  let node = masterNode(seed);
  for (const index of pathIndices(accountPath)) {
    const next = childNode(node, index);
    node.key.fill(0);
    node = next;
  }
  try {
    return chains.map((c) => {
      const chain = childNode(node, c);
      return { key: chain.key, node: { chainCode: chain.chainCode, pub: publicKeyOf(chain.key) } };
    });
  } finally {
    node.key.fill(0);
  }
}
