import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import { HD } from '@bsv/sdk';
import { chainNodes, pathIndices } from '../../main/engine/wallets/bip32.js';
import { compressedPub, derivePath, masterFromSeed } from '../helpers/bip32-oracle.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('BIP32 chain nodes of an account (hardened steps without multiplications)', () => {
  it('gives the keys @bsv/sdk HD and an independent implementation give, for random seeds and paths', () => {
    const paths = ["m/44'/236'/0'", "m/44'/0'/0'", "m/0'", 'm/0', "m/44'/236'/7'/5", "m/1h/2/3'"];
    for (let i = 0; i < 12; i++) {
      const seed = randomBytes(64);
      const path = paths[i % paths.length];
      const opened = chainNodes(seed, path, [0, 1, 2]);
      opened.forEach(({ key, node }, c) => {
        const sdk = HD.fromSeed([...seed])
          .derive(path.replace(/h/g, "'"))
          .deriveChild(c);
        assert.equal(hex(key), sdk.privKey.toHex().padStart(64, '0'), `key of ${path}/${c}`);
        assert.equal(hex(node.pub), sdk.pubKey.toString(), `public key of ${path}/${c}`);
        assert.equal(hex(node.chainCode), Buffer.from(sdk.chainCode).toString('hex'), `chain code of ${path}/${c}`);
        const oracle = derivePath(masterFromSeed(seed), `${path.replace(/h/g, "'")}/${c}`);
        assert.equal(hex(key), oracle.key.toString('hex'));
        assert.equal(hex(node.pub), compressedPub(oracle.key).toString('hex'));
      });
    }
  });

  it('reads paths as BIP32 writes them and refuses anything else', () => {
    assert.deepEqual(pathIndices("m/44'/236'/0'"), [44 + 2 ** 31, 236 + 2 ** 31, 2 ** 31]);
    assert.deepEqual(pathIndices('m/0/1h'), [0, 1 + 2 ** 31]);
    for (const bad of ['44/0', "m/-1'", 'm/x', `m/${2 ** 31}`, "m/1''"]) assert.throws(() => pathIndices(bad), RangeError, bad);
  });
});
