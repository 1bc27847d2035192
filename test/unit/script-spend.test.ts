import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import {
  BigNumber,
  Hash,
  LockingScript,
  OP,
  P2PKH,
  PrivateKey,
  PublicKey,
  Spend,
  Transaction,
  TransactionSignature,
  UnlockingScript,
} from '@bsv/sdk';
import { ScriptSpend, signatureChecks } from '../../main/chain/script-spend.js';
import { nativeCurve } from '../../main/crypto/secp256k1.js';

const N = BigInt('0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141');
const SCOPE = TransactionSignature.SIGHASH_ALL | TransactionSignature.SIGHASH_FORKID;

/** A funding transaction with one output locked by `lock`, and a transaction spending it. */
function spending(lock: LockingScript, satoshis = 10_000): { source: Transaction; tx: Transaction } {
  const source = new Transaction();
  source.addInput({ sourceTXID: randomBytes(32).toString('hex'), sourceOutputIndex: 0, unlockingScript: new UnlockingScript() });
  source.addOutput({ lockingScript: lock, satoshis });
  const tx = new Transaction();
  tx.addInput({ sourceTransaction: source, sourceOutputIndex: 0, unlockingScript: new UnlockingScript() });
  tx.addOutput({ lockingScript: new P2PKH().lock(PrivateKey.fromRandom().toAddress()), satoshis: satoshis - 500 });
  return { source, tx };
}

/** The checksig-format signature of input 0 by `key`, with S replaced by n - S when asked. */
function signature(tx: Transaction, source: Transaction, key: PrivateKey, highS = false): number[] {
  const preimage = TransactionSignature.format({
    sourceTXID: source.id('hex'),
    sourceOutputIndex: 0,
    sourceSatoshis: source.outputs[0].satoshis!,
    transactionVersion: tx.version,
    otherInputs: [],
    inputIndex: 0,
    outputs: tx.outputs,
    inputSequence: tx.inputs[0].sequence ?? 0xffffffff,
    subscript: source.outputs[0].lockingScript,
    lockTime: tx.lockTime,
    scope: SCOPE,
  });
  const sig = key.sign(Hash.sha256(preimage));
  const s = highS ? new BigNumber((N - BigInt(`0x${sig.s.toHex()}`)).toString(16), 16) : sig.s;
  return new TransactionSignature(sig.r, s, SCOPE).toChecksigFormat();
}

const push = (data: number[]) => ({ op: data.length, data });

function verdict(C: typeof Spend, tx: Transaction, source: Transaction, unlocking: UnlockingScript, flags?: string[]): boolean {
  try {
    return new C({
      sourceTXID: source.id('hex'),
      sourceOutputIndex: 0,
      sourceSatoshis: source.outputs[0].satoshis!,
      lockingScript: source.outputs[0].lockingScript,
      transactionVersion: tx.version,
      otherInputs: [],
      unlockingScript: unlocking,
      inputSequence: tx.inputs[0].sequence ?? 0xffffffff,
      inputIndex: 0,
      outputs: tx.outputs,
      lockTime: tx.lockTime,
      ...(flags ? { verifyFlags: flags } : {}),
    }).validate();
  } catch {
    return false;
  }
}

/** Both interpreters' verdicts, which must agree; returns the verdict. */
function agreed(tx: Transaction, source: Transaction, unlocking: UnlockingScript, flags?: string[]): boolean {
  const sdk = verdict(Spend, tx, source, unlocking, flags);
  const ours = verdict(ScriptSpend, tx, source, unlocking, flags);
  assert.equal(ours, sdk, 'ScriptSpend and @bsv/sdk Spend disagree');
  return ours;
}

describe('ScriptSpend (@bsv/sdk Spend, signatures verified by libsecp256k1)', () => {
  it('agrees with @bsv/sdk Spend on P2PKH spends: valid, tampered, another key, compressed and uncompressed keys', () => {
    const before = signatureChecks.count;
    for (let i = 0; i < 20; i++) {
      const key = PrivateKey.fromRandom();
      for (const compressed of [true, false]) {
        const pub = key.toPublicKey().encode(compressed) as number[];
        const lock = new LockingScript([
          { op: OP.OP_DUP },
          { op: OP.OP_HASH160 },
          push(Hash.hash160(pub)),
          { op: OP.OP_EQUALVERIFY },
          { op: OP.OP_CHECKSIG },
        ]);
        const { source, tx } = spending(lock);
        const sig = signature(tx, source, key);
        assert.equal(agreed(tx, source, new UnlockingScript([push(sig), push(pub)])), true, 'valid');
        const other = signature(tx, source, PrivateKey.fromRandom());
        assert.equal(agreed(tx, source, new UnlockingScript([push(other), push(pub)])), false, 'another key');
        tx.outputs[0].satoshis! -= 1;
        assert.equal(agreed(tx, source, new UnlockingScript([push(sig), push(pub)])), false, 'tampered amount');
      }
    }
    if (nativeCurve) assert.ok(signatureChecks.count - before >= 60, 'the native check is the one that ran');
  });

  it('agrees on high S: refused under the default (strict) rules, accepted where LOW_S is not asked', () => {
    const key = PrivateKey.fromRandom();
    const pub = key.toPublicKey().encode(true) as number[];
    const { source, tx } = spending(new P2PKH().lock(key.toAddress()));
    const high = new UnlockingScript([push(signature(tx, source, key, true)), push(pub)]);
    assert.equal(agreed(tx, source, high), false);
    assert.equal(agreed(tx, source, high, ['STRICTENC', 'SIGHASH_FORKID', 'UTXO_AFTER_GENESIS']), true);
  });

  it('agrees on 2-of-3 CHECKMULTISIG: right keys, wrong order, a missing signature', () => {
    const keys = [PrivateKey.fromRandom(), PrivateKey.fromRandom(), PrivateKey.fromRandom()];
    const lock = new LockingScript([
      { op: OP.OP_2 },
      ...keys.map((k) => push(k.toPublicKey().encode(true) as number[])),
      { op: OP.OP_3 },
      { op: OP.OP_CHECKMULTISIG },
    ]);
    const { source, tx } = spending(lock);
    const [a, , c] = keys.map((k) => signature(tx, source, k));
    const unlock = (...sigs: number[][]) => new UnlockingScript([{ op: OP.OP_0 }, ...sigs.map(push)]);
    assert.equal(agreed(tx, source, unlock(a, c)), true);
    assert.equal(agreed(tx, source, unlock(c, a)), false);
    assert.equal(agreed(tx, source, unlock(a, signature(tx, source, PrivateKey.fromRandom()))), false);
  });

  it('agrees on keys @bsv/sdk decodes its own way (x ≥ p, no point on the curve) and restores PublicKey.fromDER', () => {
    const original = PublicKey.fromDER;
    const key = PrivateKey.fromRandom();
    const { source, tx } = spending(new LockingScript([{ op: OP.OP_CHECKSIG }]));
    const sig = signature(tx, source, key);
    const xAboveP = [2, ...Buffer.from('fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc30', 'hex')];
    const offCurve = [2, ...Buffer.alloc(31), 5];
    for (const pub of [xAboveP, offCurve, [3, ...Buffer.alloc(32)]]) {
      agreed(tx, source, new UnlockingScript([push(sig), push(pub)]));
      assert.equal(PublicKey.fromDER, original);
    }
    agreed(tx, source, new UnlockingScript([push(sig), push(key.toPublicKey().encode(true) as number[])]));
    assert.equal(PublicKey.fromDER, original, 'restored after a run that succeeded');
  });
});
