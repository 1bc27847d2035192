import { BigNumber, Curve, Hash, PrivateKey, PublicKey, type HD } from '@bsv/sdk';
import { createHash, createHmac } from 'node:crypto';
import { addressOfHash160 } from '../../chain/script.js';
import { addTweakTimesG, publicKeyOf } from '../../crypto/secp256k1.js';

const curve = new Curve();

/** A chain node (`<account>/0`, `/1`, `/2`) as child derivation needs it: its chain code and compressed public key. */
export interface ChainNodePublic {
  chainCode: Uint8Array;
  /** Compressed (33 bytes). */
  pub: Uint8Array;
}

/** A child private key that already knows its public key (signing a P2PKH input asks for it every time). */
export class ChildKey extends PrivateKey {
  private pub: PublicKey | undefined;
  private pubBytes: Uint8Array | undefined;

  /** `pub`: the key itself, or its compressed encoding (decoded only if someone asks for the point). */
  static of(key: BigNumber, pub: PublicKey | Uint8Array): ChildKey {
    const k = new ChildKey(key.toArray('be', 32));
    if (pub instanceof PublicKey) k.pub = pub;
    else k.pubBytes = pub;
    return k;
  }

  override toPublicKey(): PublicKey {
    return (this.pub ??= this.pubBytes ? PublicKey.fromDER([...this.pubBytes]) : super.toPublicKey());
  }

  /** The compressed public key without a square root, and without a multiplication when known: what a P2PKH unlocking script pushes. */
  compressedPublicKey(): Uint8Array {
    if (this.pubBytes) return this.pubBytes;
    if (this.pub) return (this.pubBytes = Uint8Array.from(this.pub.encode(true) as number[]));
    const secret = this.secretBytes();
    try {
      return (this.pubBytes = publicKeyOf(secret));
    } finally {
      secret.fill(0);
    }
  }

  /** The private key's 32 bytes, a copy the caller zeroes once used. */
  secretBytes(): Uint8Array {
    return Uint8Array.from(this.toArray('be', 32));
  }
}

/**
 * IL of BIP32's non-hardened child `idx`: the left half of HMAC-SHA512(chain code, Kpar ‖ idx). Anyone
 * holding the account's extended public key can compute it, so it is no secret.
 */
export function childTweak(node: ChainNodePublic, idx: number): Uint8Array {
  if (!Number.isInteger(idx) || idx < 0 || idx >= 0x80000000) throw new RangeError(`child index ${idx} is not a non-hardened index`);
  const index = Buffer.alloc(4);
  index.writeUInt32BE(idx);
  return createHmac('sha512', node.chainCode).update(node.pub).update(index).digest().subarray(0, 32);
}

/** The child's private key: IL + kpar (mod n), a scalar sum with no multiplication. */
export function childPrivateKey(parentKey: BigNumber, tweak: Uint8Array): BigNumber {
  return new BigNumber([...tweak]).add(parentKey).umod(curve.n);
}

/**
 * The child's compressed public key as BIP32's public derivation computes it, Kpar + IL·G (libsecp256k1,
 * or a variable-time multiplication in JavaScript: IL is public, see childTweak, so timing it reveals
 * nothing the xpub does not).
 */
export function childPublicKey(parentPub: Uint8Array, tweak: Uint8Array): Uint8Array {
  return addTweakTimesG(parentPub, tweak);
}

/** The P2PKH address of a compressed public key (SHA-256 by node:crypto; RIPEMD-160 is not in every build of it, Electron's BoringSSL). */
export function addressOfPublicKey(pub: Uint8Array): string {
  const sha = createHash('sha256').update(pub).digest();
  return addressOfHash160(Buffer.from(Hash.ripemd160([...sha])).toString('hex'));
}

/**
 * BIP32 non-hardened child `idx` of a private chain node (`<account>/0` or `/1`), with its public key,
 * for the cost of one variable-time multiplication instead of a constant-time one.
 *
 * `HD.deriveChild` computes the child's public key as k·G with the constant-time ladder, the cost that
 * matters when the scalar is secret. Here it is computed as the public derivation does (childPublicKey),
 * and the private key as the scalar sum IL + kpar (childPrivateKey). Checked against an independent BIP32
 * implementation in test/unit/child-key.test.ts.
 */
export function deriveChildKey(chainNode: HD, idx: number): ChildKey {
  const parentPub = Uint8Array.from(chainNode.pubKey.encode(true) as number[]);
  const tweak = childTweak({ chainCode: Uint8Array.from(chainNode.chainCode), pub: parentPub }, idx);
  return ChildKey.of(childPrivateKey(chainNode.privKey, tweak), childPublicKey(parentPub, tweak));
}
