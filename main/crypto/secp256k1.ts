import { BigNumber, Curve, ECDSA, PrivateKey, PublicKey, Signature } from '@bsv/sdk';
import { createRequire } from 'node:module';

/**
 * secp256k1 through libsecp256k1, the curve library Bitcoin nodes use, when its binding loads (the
 * `secp256k1` package's N-API build for this platform), else @bsv/sdk's JavaScript. On this project's
 * 2-core runner a signature costs 0.07 ms natively against 5 ms in JavaScript, a verification 0.09 ms
 * against 4.6 ms, and a public key from a private one 0.03 ms against 20 ms.
 *
 * Both paths give the same bytes: signing is RFC 6979 with low S in both (test/unit/secp256k1.test.ts
 * compares them on random keys and digests), and verification is plain ECDSA (high S accepted, as
 * consensus accepts it: libsecp256k1 wants low S, so the signature is normalised first, which changes no
 * verdict). Nothing here keeps a key: callers pass bytes and zero their own copies.
 */
interface Binding {
  ecdsaSign(message: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recid: number };
  ecdsaVerify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean;
  signatureNormalize(signature: Uint8Array): Uint8Array;
  publicKeyCreate(privateKey: Uint8Array, compressed?: boolean): Uint8Array;
  publicKeyTweakAdd(publicKey: Uint8Array, tweak: Uint8Array, compressed?: boolean): Uint8Array;
  publicKeyConvert(publicKey: Uint8Array, compressed?: boolean): Uint8Array;
}

function loadBinding(): Binding | null {
  if (process.env.KEYSTEAD_SECP256K1 === 'js') return null;
  try {
    // The binding alone: the package's index falls back to a JavaScript curve library we do not want.
    return createRequire(import.meta.url)('secp256k1/bindings.js') as Binding;
  } catch {
    return null;
  }
}

const native = loadBinding();

/** Whether libsecp256k1 is in use (a tests' and benchmarks' fact; every function works either way). */
export const nativeCurve = native !== null;

/** The curve order n. */
const N = BigInt('0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141');
/** The field's prime p. */
const P = BigInt('0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f');

const toBigInt = (bytes: Uint8Array) => BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);
const to32 = (n: BigNumber) => Uint8Array.from(n.toArray('be', 32));

export interface CompactSignature {
  /** 32 bytes, big-endian. */
  r: Uint8Array;
  s: Uint8Array;
}

/** Signs a 32-byte digest as it is (no further hashing): RFC 6979 nonce, low S. */
export function signDigest(digest: Uint8Array, privateKey: Uint8Array): CompactSignature {
  if (digest.length !== 32 || privateKey.length !== 32) throw new RangeError('a 32-byte digest and a 32-byte key');
  if (native) {
    const { signature } = native.ecdsaSign(digest, privateKey);
    return { r: signature.slice(0, 32), s: signature.slice(32) };
  }
  const sig = ECDSA.sign(new BigNumber([...digest]), new PrivateKey([...privateKey]), true);
  return { r: to32(sig.r), s: to32(sig.s) };
}

/**
 * Whether `signature` signs `digest` (32 bytes, used as it is) for `publicKey` (its 33- or 65-byte
 * encoding). High S is accepted; r and s outside [1, n-1] are not.
 */
export function verifyDigest(digest: Uint8Array, signature: CompactSignature, publicKey: Uint8Array): boolean {
  if (digest.length !== 32 || signature.r.length !== 32 || signature.s.length !== 32) return false;
  const r = toBigInt(signature.r);
  const s = toBigInt(signature.s);
  if (r <= 0n || r >= N || s <= 0n || s >= N) return false;
  if (native) {
    const compact = new Uint8Array(64);
    compact.set(signature.r, 0);
    compact.set(signature.s, 32);
    try {
      return native.ecdsaVerify(native.signatureNormalize(compact), digest, publicKey);
    } catch {
      // An encoding libsecp256k1 cannot parse (the checks above leave only a public key it refuses).
      return false;
    }
  }
  try {
    const key = PublicKey.fromDER([...publicKey]);
    return ECDSA.verify(new BigNumber([...digest]), new Signature(new BigNumber([...signature.r]), new BigNumber([...signature.s])), key);
  } catch {
    return false;
  }
}

/** The public key of a private key, compressed (33 bytes) unless asked otherwise. */
export function publicKeyOf(privateKey: Uint8Array, compressed = true): Uint8Array {
  if (native) return Uint8Array.from(native.publicKeyCreate(privateKey, compressed));
  return Uint8Array.from(new PrivateKey([...privateKey]).toPublicKey().encode(compressed) as number[]);
}

/**
 * `publicKey` + tweak·G (BIP32's public child derivation: Kpar + IL·G), compressed. The tweak is public
 * (anyone with the extended public key computes it), so the variable-time path of the JavaScript fallback
 * reveals nothing. Throws where BIP32 says the child is invalid (IL ≥ n, or the point at infinity).
 */
export function addTweakTimesG(publicKey: Uint8Array, tweak: Uint8Array): Uint8Array {
  if (native) return Uint8Array.from(native.publicKeyTweakAdd(publicKey, tweak, true));
  const il = new BigNumber([...tweak]);
  if (toBigInt(tweak) >= N) throw new RangeError('the tweak is not below the curve order');
  const parent = PublicKey.fromDER([...publicKey]);
  const point = new Curve().g.mul(il).add(parent);
  if (point.isInfinity()) throw new RangeError('the child is the point at infinity');
  return Uint8Array.from(new PublicKey(point.x, point.y).encode(true) as number[]);
}

/**
 * The uncompressed form (65 bytes) of a compressed public key (33 bytes), by libsecp256k1: its square root
 * costs microseconds where @bsv/sdk's BigInt one costs about 0.4 ms. `null` when libsecp256k1 is not
 * loaded or when the caller must decide another way: an x of p or more (which @bsv/sdk reduces mod p and
 * libsecp256k1 refuses). Throws for an x with no point on the curve, as @bsv/sdk does.
 */
export function decompressed(publicKey: Uint8Array): Uint8Array | null {
  if (!native || publicKey.length !== 33 || (publicKey[0] !== 2 && publicKey[0] !== 3)) return null;
  if (toBigInt(publicKey.subarray(1)) >= P) return null;
  return Uint8Array.from(native.publicKeyConvert(publicKey, false));
}
