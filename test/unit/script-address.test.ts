import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import { P2PKH, PrivateKey, Utils } from '@bsv/sdk';
import { addressOfHash160, holderAddressOf, p2pkhAddressOf } from '../../main/chain/script.js';

const oracle = (hash160Hex: string) => Utils.toBase58Check(Utils.toArray(hash160Hex, 'hex'), [0]);

describe('addresses of key hashes (Base58Check by node:crypto)', () => {
  it("agrees with @bsv/sdk's toBase58Check on random hashes and on the edge cases", () => {
    const cases = ['00'.repeat(20), 'ff'.repeat(20), `0000${'ab'.repeat(18)}`, `00${'01'.repeat(19)}`];
    for (let i = 0; i < 2000; i++) cases.push(randomBytes(20).toString('hex'));
    for (const h of cases) assert.equal(addressOfHash160(h), oracle(h), h);
  });

  it("reads P2PKH scripts, and token scripts that start with one, as the key owner's address", () => {
    const key = PrivateKey.fromRandom();
    const script = new P2PKH().lock(key.toAddress()).toHex();
    assert.equal(p2pkhAddressOf(script), key.toAddress());
    assert.equal(holderAddressOf(script), null, 'a plain P2PKH output is not a token holder');
    assert.equal(holderAddressOf(`${script}6a0474657374`), key.toAddress());
    assert.equal(p2pkhAddressOf(`${script}00`), null);
    assert.equal(p2pkhAddressOf('6a0474657374'), null);
  });

  it('gives the same address when asked again, from its memory of recent scripts, past the point where that memory is emptied', () => {
    const keys = Array.from({ length: 5000 }, () => randomBytes(20).toString('hex'));
    for (const round of [0, 1])
      for (const h of keys) {
        const script = `76a914${h}88ac`;
        assert.equal(p2pkhAddressOf(script), Utils.toBase58Check(Utils.toArray(h, 'hex'), [0]), `round ${round}`);
      }
    // Fifty hex digits that are not a P2PKH script are never taken for one, before or after a P2PKH of that length.
    assert.equal(p2pkhAddressOf(`76a915${keys[0]}88ac`), null);
    assert.equal(p2pkhAddressOf(`76a914${keys[0]}88ad`), null);
  });
});
