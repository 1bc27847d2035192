import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { P2PKH, PrivateKey, SatoshisPerKilobyte, Transaction } from '@bsv/sdk';
import { LocalNode } from '../../main/chain/local/local-node.js';
import { ScriptVerifier } from '../../main/chain/local/script-pool.js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../helpers/tmp.js';

const brokenWorker = (name: string) => path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/script-workers', name);

const alice = PrivateKey.fromRandom();
const bob = PrivateKey.fromRandom();

/** Spends `vouts` of `source` (all owned by `signers[i]`, default alice) to bob, change back to alice. */
async function spend(source: Transaction, vouts: number[], pay: number, signers: PrivateKey[] = []): Promise<Transaction> {
  const tx = new Transaction();
  vouts.forEach((vout, i) =>
    tx.addInput({ sourceTransaction: source, sourceOutputIndex: vout, unlockingScriptTemplate: new P2PKH().unlock(signers[i] ?? alice) }),
  );
  tx.addOutput({ lockingScript: new P2PKH().lock(bob.toAddress()), satoshis: pay });
  tx.addOutput({ lockingScript: new P2PKH().lock(alice.toAddress()), change: true });
  await tx.fee(new SatoshisPerKilobyte(1));
  await tx.sign();
  return tx;
}

/** A node's faucet coins split into ten outputs of 9,000 satoshis to alice (submitted on the caller's thread). */
async function tenCoins(node: LocalNode): Promise<Transaction> {
  const funded = await node.faucet(alice.toAddress(), 100_000);
  const ten = new Transaction();
  ten.addInput({
    sourceTransaction: Transaction.fromHex(node.txHex(funded.txid!)!),
    sourceOutputIndex: 0,
    unlockingScriptTemplate: new P2PKH().unlock(alice),
  });
  for (let i = 0; i < 10; i++) ten.addOutput({ lockingScript: new P2PKH().lock(alice.toAddress()), satoshis: 9_000 });
  await ten.fee(new SatoshisPerKilobyte(1));
  await ten.sign();
  assert.equal(node.submit(ten.toHex()).status, 'accepted');
  return ten;
}

/** The txids the node announces while `work` runs. */
async function announcedWhile(node: LocalNode, work: () => Promise<void>): Promise<string[]> {
  const heard: string[] = [];
  const listener = ({ txid }: { txid: string }) => heard.push(txid);
  node.on('tx', listener);
  try {
    await work();
  } finally {
    node.off('tx', listener);
  }
  return heard;
}

describe('local node: scripts checked on worker threads (accept)', () => {
  const dataDir = tempDir();
  let node: LocalNode;
  /** 120 outputs of 10,000 satoshis to alice, each spendable once by the tests below. */
  let fan: Transaction;
  let next = 0;
  const take = (n: number) => Array.from({ length: n }, () => next++);

  before(async () => {
    node = LocalNode.open({ dataDir, password: 'chain-pw' });
    const r = await node.faucet(alice.toAddress(), 1_500_000);
    assert.equal(r.status, 'accepted');
    const funding = Transaction.fromHex(node.txHex(r.txid)!);
    fan = new Transaction();
    fan.addInput({ sourceTransaction: funding, sourceOutputIndex: 0, unlockingScriptTemplate: new P2PKH().unlock(alice) });
    for (let i = 0; i < 120; i++) fan.addOutput({ lockingScript: new P2PKH().lock(alice.toAddress()), satoshis: 10_000 });
    fan.addOutput({ lockingScript: new P2PKH().lock(alice.toAddress()), change: true });
    await fan.fee(new SatoshisPerKilobyte(1));
    await fan.sign();
    assert.equal((await node.accept(fan.toHex())).status, 'accepted');
  });
  after(() => node.close());

  it('accepts a valid transaction as submit does, announces it once, and knows it on a repeat', async () => {
    const tx = await spend(fan, take(1), 5_000);
    const heard = await announcedWhile(node, async () => {
      assert.deepEqual(await node.accept(tx.toHex()), { status: 'accepted', txid: tx.id('hex'), alreadyKnown: false });
      assert.deepEqual(await node.accept(tx.toHexEF()), { status: 'accepted', txid: tx.id('hex'), alreadyKnown: true });
    });
    assert.deepEqual(heard, [tx.id('hex')]);
    assert.equal(node.txStatus(tx.id('hex')).state, 'mempool');
  });

  it('of two transactions spending one output, checked at the same time, accepts exactly one', async () => {
    // Five inputs each: more than an idle node checks on its own thread, so both go to the workers.
    for (let round = 0; round < 3; round++) {
      const [shared] = take(1);
      const a = await spend(fan, [...take(4), shared], 40_000);
      const b = await spend(fan, [shared, ...take(4)], 30_000);
      const results = await Promise.all([node.accept(a.toHex()), node.accept(b.toHex())]);
      const accepted = results.filter((r) => r.status === 'accepted');
      assert.equal(accepted.length, 1, JSON.stringify(results));
      const loser = results.find((r) => r.status === 'rejected');
      assert.ok(loser && loser.status === 'rejected' && loser.reason === 'double-spend');
      assert.deepEqual(loser.competingTxs, [accepted[0].txid]);
      const winner = accepted[0].txid!;
      const other = winner === a.id('hex') ? b.id('hex') : a.id('hex');
      assert.equal(node.txStatus(other).state, 'unknown', 'the loser left nothing in the ledger');
    }
  });

  it('the same transaction sent twice at once is recorded once', async () => {
    const tx = await spend(fan, take(5), 45_000);
    const heard = await announcedWhile(node, async () => {
      const results = await Promise.all([node.accept(tx.toHex()), node.accept(tx.toHex())]);
      assert.deepEqual(
        results.map((r) => r.status),
        ['accepted', 'accepted'],
      );
      assert.deepEqual(results.map((r) => r.status === 'accepted' && r.alreadyKnown).sort(), [false, true]);
    });
    assert.deepEqual(heard, [tx.id('hex')]);
  });

  it('refuses a bad signature, naming the first failing input of a transaction split across workers', async () => {
    const vouts = take(20);
    const signers = vouts.map((_, i) => (i === 13 || i === 17 ? bob : alice)); // bob does not own these
    const tx = await spend(fan, vouts, 150_000, signers);
    const r = await node.accept(tx.toHex());
    assert.equal(r.status, 'rejected');
    assert.equal(r.status === 'rejected' && r.reason, 'bad-signature');
    assert.match(r.status === 'rejected' ? r.message : '', /^Input 13 /);
    assert.equal(
      node.submit(tx.toHex()).status === 'rejected' && (node.submit(tx.toHex()) as { message: string }).message,
      r.message,
      'the same answer as on one thread',
    );
    // The outputs it tried to spend are still there to be spent properly.
    const fixed = await spend(fan, vouts, 150_000);
    assert.deepEqual(await node.accept(fixed.toHex()), { status: 'accepted', txid: fixed.id('hex'), alreadyKnown: false });
  });

  it('answers every other refusal without the workers, as submit does', async () => {
    const r = await node.accept('deadbeef');
    assert.equal(r.status === 'rejected' && r.reason, 'malformed');
    const unknownParent = new Transaction();
    unknownParent.addOutput({ lockingScript: new P2PKH().lock(alice.toAddress()), satoshis: 5000 });
    const orphan = await spend(unknownParent, [0], 1000);
    const m = await node.accept(orphan.toHex());
    assert.equal(m.status === 'rejected' && m.reason, 'missing-inputs');
  });

  it('accepts an Extended Format transaction checked on the workers', async () => {
    const tx = await spend(fan, take(5), 45_000);
    assert.deepEqual(await node.accept(tx.toHexEF()), { status: 'accepted', txid: tx.id('hex'), alreadyKnown: false });
    assert.equal(node.txHex(tx.id('hex')), tx.toHex(), 'the ledger keeps the standard serialization');
  });

  it('a child sent right behind its parent, while the parent is on the workers, is accepted, not refused for missing inputs', async () => {
    const parent = await spend(fan, take(5), 45_000);
    const child = await spend(parent, [1], 1_000); // the parent's change, back to alice
    const [p, c] = await Promise.all([node.accept(parent.toHex()), node.accept(child.toHex())]);
    assert.deepEqual([p.status, c.status], ['accepted', 'accepted'], JSON.stringify([p, c]));
    // A child whose parent the node never saw is still refused.
    const stranger = await spend(await spend(fan, take(5), 45_000), [1], 1_000);
    const r = await node.accept(stranger.toHex());
    assert.equal(r.status === 'rejected' && r.reason, 'missing-inputs');
  });

  it('says "unknown" (never "rejected") when the scripts cannot be checked', async () => {
    const verifier = new ScriptVerifier(1);
    await verifier.close();
    await assert.rejects(verifier.verify('00', [{ satoshis: 1, script: '51' }]), /closing/);

    const own = LocalNode.open({ dataDir: tempDir(), password: 'pw' });
    const tx = await spend(await tenCoins(own), [0, 1, 2, 3, 4], 40_000);
    const pending = own.accept(tx.toHex());
    own.close(); // the node closes while the scripts are being checked
    const r = await pending;
    assert.equal(r.status, 'unknown', JSON.stringify(r));
  });

  it('answers "unknown" once the node is closed, recording nothing', async () => {
    const own = LocalNode.open({ dataDir: tempDir(), password: 'pw' });
    const funded = await own.faucet(alice.toAddress(), 50_000);
    const tx = await spend(Transaction.fromHex(own.txHex(funded.txid!)!), [0], 10_000);
    own.close();
    const r = await own.accept(tx.toHex());
    assert.equal(r.status, 'unknown', JSON.stringify(r));
  });
});

describe('local node: script workers that fail', () => {
  for (const [name, file] of [
    ['throw', 'throws.mjs'],
    ['answer something other than a verdict', 'answers-nothing.mjs'],
  ]) {
    it(`when they ${name}, the node checks on its own thread: good transactions are accepted, bad ones refused`, async () => {
      const node = LocalNode.open({ dataDir: tempDir(), password: 'pw', scriptCheck: { workerFile: brokenWorker(file) } });
      try {
        const ten = await tenCoins(node);
        const forged = await spend(ten, [0, 1, 2, 3, 4], 40_000, [alice, alice, bob, alice, alice]);
        const bad = await node.accept(forged.toHex());
        assert.equal(bad.status === 'rejected' && bad.reason, 'bad-signature', JSON.stringify(bad));
        const good = await spend(ten, [0, 1, 2, 3, 4], 40_000);
        assert.deepEqual(await node.accept(good.toHex()), { status: 'accepted', txid: good.id('hex'), alreadyKnown: false });
      } finally {
        node.close();
      }
    });
  }

  it('a check past its time limit is "unknown", never run on the main thread instead', async () => {
    const node = LocalNode.open({
      dataDir: tempDir(),
      password: 'pw',
      scriptCheck: { workerFile: brokenWorker('never-answers.mjs'), limitMs: 300 },
    });
    try {
      const ten = await tenCoins(node);
      const tx = await spend(ten, [0, 1, 2, 3, 4], 40_000);
      const r = await node.accept(tx.toHex());
      assert.equal(r.status, 'unknown', JSON.stringify(r));
      assert.match(r.status === 'unknown' ? r.message : '', /longer than/);
      assert.equal(node.txStatus(tx.id('hex')).state, 'unknown', 'nothing recorded');
    } finally {
      node.close();
    }
  });

  it('a verifier never reads a worker\'s non-answer as "every script unlocks"', async () => {
    const verifier = new ScriptVerifier(1, brokenWorker('answers-nothing.mjs'));
    try {
      await assert.rejects(
        verifier.verify('00', [{ satoshis: 1, script: '51' }]),
        (err: Error & { closing?: boolean }) => err.name === 'ScriptCheckUnavailable' && err.closing === false,
      );
    } finally {
      await verifier.close();
    }
  });
});
