import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { P2PKH, PrivateKey, Transaction, UnlockingScript } from '@bsv/sdk';
import { MalformedTransactionError, parseTransactionHex } from '../../main/chain/transaction-bytes.js';

function sample(): Transaction {
  const key = PrivateKey.fromRandom();
  const source = new Transaction(
    1,
    [{ sourceTXID: 'ab'.repeat(32), sourceOutputIndex: 0, unlockingScript: UnlockingScript.fromHex('51'), sequence: 0xffffffff }],
    [{ lockingScript: new P2PKH().lock(key.toAddress()), satoshis: 9_000 }],
    0,
  );
  return new Transaction(
    1,
    [
      {
        sourceTransaction: source,
        sourceTXID: source.id('hex'),
        sourceOutputIndex: 0,
        unlockingScript: UnlockingScript.fromHex(`47${'30'.repeat(71)}21${'02'.repeat(33)}`),
        sequence: 0xffffffff,
      },
    ],
    [
      { lockingScript: new P2PKH().lock(PrivateKey.fromRandom().toAddress()), satoshis: 5_000 },
      { lockingScript: new P2PKH().lock(key.toAddress()), satoshis: 3_900 },
    ],
    0,
  );
}

describe('parseTransactionHex (transactions from foreign bytes)', () => {
  it('reads a raw transaction with the id @bsv/sdk computes, and the same from Extended Format', () => {
    const tx = sample();
    const raw = parseTransactionHex(tx.toHex());
    assert.equal(raw.txid, tx.id('hex'));
    assert.equal(raw.raw, tx.toHex());
    const ef = parseTransactionHex(tx.toHexEF().toUpperCase());
    assert.equal(ef.txid, tx.id('hex'));
    assert.equal(ef.raw, tx.toHex(), 'the standard serialization, not the EF bytes');
  });

  it('refuses trailing bytes, which the SDK alone would hash into a different txid', () => {
    const hex = sample().toHex();
    assert.notEqual(Transaction.fromHex(`${hex}00`).id('hex'), Transaction.fromHex(hex).id('hex'), 'the hazard is real');
    assert.throws(
      () => parseTransactionHex(`${hex}00`),
      (e: Error) => e instanceof MalformedTransactionError && /ends 1 bytes before/.test(e.message),
    );
    assert.throws(() => parseTransactionHex(`${sample().toHexEF()}deadbeef`), MalformedTransactionError);
  });

  it('refuses a non-minimal count', () => {
    const hex = sample().toHex();
    // The input count (1) as a three-byte varint: fd 01 00.
    const padded = `${hex.slice(0, 8)}fd0100${hex.slice(10)}`;
    assert.equal(Transaction.fromHex(padded).inputs.length, 1, 'the SDK reads it');
    assert.throws(() => parseTransactionHex(padded), /canonical/);
  });

  it('refuses what is not hex or not a transaction', () => {
    for (const bad of ['', 'zz', 'abc', '00', '0100000001']) assert.throws(() => parseTransactionHex(bad), MalformedTransactionError, bad);
  });
});
