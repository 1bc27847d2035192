import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import { HD, Mnemonic } from '@bsv/sdk';
import { deriveChildKey } from '../../main/engine/wallets/child-key.js';
import { compressedPub, derivePath, masterFromSeed } from '../helpers/bip32-oracle.js';

describe('deriveChildKey (one variable-time multiplication per child)', () => {
  it('gives the private and public keys an independent BIP32 implementation gives, for many seeds and indices', () => {
    for (let s = 0; s < 12; s++) {
      const seed =
        s === 0
          ? Buffer.from(Mnemonic.fromString('legal winner thank year wave sausage worth useful legal winner thank yellow').toSeed())
          : randomBytes(64);
      const chain = HD.fromSeed([...seed]).derive("m/44'/236'/0'/1");
      const oracleChain = derivePath(masterFromSeed(seed), "m/44'/236'/0'/1");
      for (const idx of [0, 1, 2, 19, 20, 1000, 2 ** 31 - 1, Math.floor(Math.random() * 2 ** 31)]) {
        const key = deriveChildKey(chain, idx);
        const oracle = derivePath(oracleChain, `m/${idx}`);
        assert.equal(key.toHex().padStart(64, '0'), oracle.key.toString('hex'), `private key of ${s}/${idx}`);
        assert.equal(key.toPublicKey().toString(), compressedPub(oracle.key).toString('hex'), `public key of ${s}/${idx}`);
        // And the same as the SDK's own derivation (its constant-time path).
        assert.equal(key.toPublicKey().toString(), chain.deriveChild(idx).pubKey.toString());
      }
    }
  });

  it('refuses hardened and invalid indices', () => {
    const chain = HD.fromSeed([...randomBytes(64)]);
    for (const bad of [-1, 2 ** 31, 1.5, Number.NaN]) assert.throws(() => deriveChildKey(chain, bad), RangeError);
  });
});
