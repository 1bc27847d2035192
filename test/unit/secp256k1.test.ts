import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import { BigNumber, Curve, ECDSA, PrivateKey, PublicKey, Signature } from '@bsv/sdk';
import { addTweakTimesG, decompressed, nativeCurve, publicKeyOf, signDigest, verifyDigest } from '../../main/crypto/secp256k1.js';

const N = BigInt('0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141');
const P = BigInt('0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f');
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const bytes32 = (n: bigint) => Uint8Array.from(Buffer.from(n.toString(16).padStart(64, '0'), 'hex'));
const big = (b: Uint8Array) => BigInt(`0x${hex(b)}`);
const sdkSign = (digest: Uint8Array, key: Uint8Array) => ECDSA.sign(new BigNumber([...digest]), new PrivateKey([...key]), true);
const sdkVerify = (digest: Uint8Array, r: Uint8Array, s: Uint8Array, pub: Uint8Array) =>
  ECDSA.verify(new BigNumber([...digest]), new Signature(new BigNumber([...r]), new BigNumber([...s])), PublicKey.fromDER([...pub]));

describe('secp256k1 (libsecp256k1 when it loads, @bsv/sdk otherwise)', () => {
  it('loads libsecp256k1 on this machine (CI runs the fast path; KEYSTEAD_SECP256K1=js forces the other)', () => {
    assert.equal(nativeCurve, process.env.KEYSTEAD_SECP256K1 !== 'js');
  });

  it('signs byte for byte as @bsv/sdk does (RFC 6979, low S), for random keys and digests', () => {
    for (let i = 0; i < 300; i++) {
      const key = randomBytes(32);
      const digest = randomBytes(32);
      const ours = signDigest(digest, key);
      const sdk = sdkSign(digest, key);
      assert.equal(hex(ours.r), hex(Uint8Array.from(sdk.r.toArray('be', 32))), `r of ${i}`);
      assert.equal(hex(ours.s), hex(Uint8Array.from(sdk.s.toArray('be', 32))), `s of ${i}`);
      assert.ok(big(ours.s) <= N / 2n, 'low S');
    }
  });

  it('verifies what @bsv/sdk verifies, and refuses what it refuses', () => {
    for (let i = 0; i < 100; i++) {
      const key = randomBytes(32);
      const digest = randomBytes(32);
      const pub = publicKeyOf(key);
      const uncompressed = publicKeyOf(key, false);
      const { r, s } = signDigest(digest, key);
      const highS = bytes32(N - big(s));
      const otherDigest = randomBytes(32);
      const otherPub = publicKeyOf(randomBytes(32));
      const cases: [string, Uint8Array, Uint8Array, Uint8Array, Uint8Array][] = [
        ['valid', digest, r, s, pub],
        ['valid, uncompressed key', digest, r, s, uncompressed],
        ['high S (consensus accepts it)', digest, r, highS, pub],
        ['another digest', otherDigest, r, s, pub],
        ['another key', digest, r, s, otherPub],
        ['r and s swapped', digest, s, r, pub],
      ];
      for (const [what, d, rr, ss, pk] of cases) {
        assert.equal(verifyDigest(d, { r: rr, s: ss }, pk), sdkVerify(d, rr, ss, pk), `${what} (${i})`);
      }
      assert.equal(verifyDigest(digest, { r, s: highS }, pub), true);
      assert.equal(verifyDigest(otherDigest, { r, s }, pub), false);
    }
  });

  it('refuses r or s of zero or of n and above, and digests or keys of the wrong length, without throwing', () => {
    const key = randomBytes(32);
    const digest = randomBytes(32);
    const pub = publicKeyOf(key);
    const { r, s } = signDigest(digest, key);
    for (const [rr, ss] of [
      [bytes32(0n), s],
      [r, bytes32(0n)],
      [bytes32(N), s],
      [r, bytes32(N + big(s) < 2n ** 256n ? N + big(s) : N)],
      [bytes32(2n ** 256n - 1n), s],
    ]) {
      assert.equal(verifyDigest(digest, { r: rr, s: ss }, pub), false);
    }
    assert.equal(verifyDigest(digest.subarray(0, 31), { r, s }, pub), false);
    assert.equal(verifyDigest(digest, { r, s }, pub.subarray(0, 32)), false);
    assert.equal(verifyDigest(digest, { r, s }, Uint8Array.from([5, ...pub.subarray(1)])), false);
  });

  it('computes public keys and BIP32 public tweaks as @bsv/sdk does', () => {
    const curve = new Curve();
    for (let i = 0; i < 50; i++) {
      const key = randomBytes(32);
      const sdkPub = new PrivateKey([...key]).toPublicKey();
      assert.equal(hex(publicKeyOf(key)), sdkPub.toString());
      assert.equal(hex(publicKeyOf(key, false)), hex(Uint8Array.from(sdkPub.encode(false) as number[])));
      const tweak = randomBytes(32);
      const point = curve.g.mul(new BigNumber([...tweak])).add(sdkPub);
      assert.equal(hex(addTweakTimesG(publicKeyOf(key), tweak)), new PublicKey(point.x, point.y).toString());
    }
    assert.throws(() => addTweakTimesG(publicKeyOf(randomBytes(32)), bytes32(N)));
  });

  it('decompresses keys as @bsv/sdk decodes them, and leaves x ≥ p to @bsv/sdk', { skip: !nativeCurve }, () => {
    for (let i = 0; i < 50; i++) {
      const pub = publicKeyOf(randomBytes(32));
      assert.equal(hex(decompressed(pub)!), hex(Uint8Array.from(PublicKey.fromDER([...pub]).encode(false) as number[])));
    }
    // x of p or more: @bsv/sdk reduces it mod p, libsecp256k1 refuses it; the caller keeps @bsv/sdk's rule.
    assert.equal(decompressed(Uint8Array.from([2, ...bytes32(P + 1n)])), null);
    // An x with no point on the curve throws, as @bsv/sdk's decoding does.
    let noPoint = 0n;
    for (let x = 1n; ; x++) {
      try {
        PublicKey.fromDER([2, ...bytes32(x)]);
      } catch {
        noPoint = x;
        break;
      }
    }
    assert.throws(() => decompressed(Uint8Array.from([2, ...bytes32(noPoint)])));
    assert.equal(decompressed(Uint8Array.from(publicKeyOf(randomBytes(32), false))), null, 'only compressed keys');
  });
});
