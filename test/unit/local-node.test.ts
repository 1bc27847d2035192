import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LockingScript, MerklePath, OP, P2PKH, PrivateKey, SatoshisPerKilobyte, Script, Transaction, UnlockingScript } from '@bsv/sdk';
import { merkleLevels, merkleRoot } from '../../main/chain/merkle.js';
import { LocalNode } from '../../main/chain/local/local-node.js';
import { tempDir } from '../helpers/tmp.js';

const alice = PrivateKey.fromRandom();
const bob = PrivateKey.fromRandom();

/** Builds a P2PKH spend of `source:vout` owned by `key`, paying `to` and returning change to the key. */
async function spend(
  source: Transaction,
  vout: number,
  key: PrivateKey,
  payments: { to: string; satoshis: number }[],
  opts: { feeRate?: number; change?: boolean } = {},
) {
  const tx = new Transaction();
  tx.addInput({ sourceTransaction: source, sourceOutputIndex: vout, unlockingScriptTemplate: new P2PKH().unlock(key) });
  for (const p of payments) tx.addOutput({ lockingScript: new P2PKH().lock(p.to), satoshis: p.satoshis });
  if (opts.change !== false) tx.addOutput({ lockingScript: new P2PKH().lock(key.toAddress()), change: true });
  await tx.fee(new SatoshisPerKilobyte(opts.feeRate ?? 1));
  await tx.sign();
  return tx;
}

describe('local ledger node', () => {
  const dataDir = tempDir();
  let node: LocalNode;
  let funding: Transaction;

  before(async () => {
    node = LocalNode.open({ dataDir, password: 'chain-pw' });
    const r = await node.faucet(alice.toAddress(), 100_000);
    assert.equal(r.status, 'accepted');
    funding = Transaction.fromHex(node.txHex(r.txid)!);
  });
  after(() => node.close());

  it('starts with a genesis block and funds addresses from its faucet', () => {
    // The genesis coinbase pays the faucet enough that funding needs no further block.
    assert.equal(node.tip().height, 0);
    assert.equal(node.blockAt(0)!.txCount, 1, 'genesis holds its coinbase only');
    assert.equal(node.blockAt(0)!.prevHash, '00'.repeat(32));
    const u = node.utxos(alice.toAddress());
    assert.deepEqual(
      u.map((x) => [x.satoshis, x.height]),
      [[100_000, null]],
    );
    assert.equal(node.balance(alice.toAddress()), 100_000);
  });

  it('accepts a valid spend and says "already known" on a repeat', async () => {
    const tx = await spend(funding, 0, alice, [{ to: bob.toAddress(), satoshis: 10_000 }]);
    assert.deepEqual(node.submit(tx.toHex()), { status: 'accepted', txid: tx.id('hex'), alreadyKnown: false });
    assert.deepEqual(
      node.submit(tx.toHexEF()),
      { status: 'accepted', txid: tx.id('hex'), alreadyKnown: true },
      'Extended Format is accepted too',
    );
    funding = tx;
  });

  it('rejects each kind of bad transaction with its own reason', async () => {
    const reason = (hex: string) => {
      const r = node.submit(hex);
      return r.status === 'rejected' ? r.reason : 'accepted';
    };
    assert.equal(reason('deadbeef'), 'malformed');
    // A valid spend with bytes after it: the SDK alone would accept it under a txid no other node computes.
    const trailing = await spend(
      funding,
      funding.outputs.findIndex((o) => o.change),
      alice,
      [{ to: bob.toAddress(), satoshis: 1000 }],
    );
    assert.equal(reason(`${trailing.toHex()}00`), 'malformed');
    assert.equal(node.txHex(Transaction.fromHex(`${trailing.toHex()}00`).id('hex')), null, 'nothing recorded under the wrong id');
    assert.equal(node.txStatus(trailing.id('hex')).state, 'unknown', 'nor under the right one');

    const unknownParent = new Transaction();
    unknownParent.addOutput({ lockingScript: new P2PKH().lock(alice.toAddress()), satoshis: 5000 });
    assert.equal(reason((await spend(unknownParent, 0, alice, [{ to: bob.toAddress(), satoshis: 1000 }])).toHex()), 'missing-inputs');

    const change = funding.outputs.findIndex((o) => o.change);
    const badSig = await spend(funding, change, bob, [{ to: bob.toAddress(), satoshis: 1000 }]); // signed by the wrong key
    assert.equal(reason(badSig.toHex()), 'bad-signature');

    const tampered = await spend(funding, change, alice, [{ to: bob.toAddress(), satoshis: 1000 }]);
    tampered.outputs[0].satoshis = 500; // the signature no longer covers the outputs
    assert.equal(reason(tampered.toHex()), 'bad-signature');

    const greedy = await spend(funding, change, alice, [{ to: bob.toAddress(), satoshis: 1000 }], { change: false });
    greedy.outputs[0].satoshis = 10_000_000;
    await greedy.sign();
    assert.equal(reason(greedy.toHex()), 'outputs-exceed-inputs');

    const dust = await spend(funding, change, alice, [{ to: bob.toAddress(), satoshis: 0 }]);
    assert.equal(reason(dust.toHex()), 'dust');

    const cheap = new Transaction();
    cheap.addInput({ sourceTransaction: funding, sourceOutputIndex: change, unlockingScriptTemplate: new P2PKH().unlock(alice) });
    cheap.addOutput({ lockingScript: new P2PKH().lock(bob.toAddress()), satoshis: funding.outputs[change].satoshis! });
    await cheap.sign();
    assert.equal(reason(cheap.toHex()), 'fee-too-low');

    const first = await spend(funding, change, alice, [{ to: bob.toAddress(), satoshis: 2000 }]);
    const second = await spend(funding, change, alice, [{ to: alice.toAddress(), satoshis: 3000 }]);
    assert.equal(node.submit(first.toHex()).status, 'accepted');
    const ds = node.submit(second.toHex());
    assert.equal(ds.status === 'rejected' && ds.reason, 'double-spend');
    assert.deepEqual(ds.status === 'rejected' && ds.competingTxs, [first.id('hex')]);
    funding = first;
  });

  it('lets data carriers carry no satoshis', async () => {
    const change = funding.outputs.findIndex((o) => o.change);
    const tx = new Transaction();
    tx.addInput({ sourceTransaction: funding, sourceOutputIndex: change, unlockingScriptTemplate: new P2PKH().unlock(alice) });
    tx.addOutput({
      lockingScript: new LockingScript([{ op: OP.OP_FALSE }, { op: OP.OP_RETURN }, { op: 4, data: [1, 2, 3, 4] }]),
      satoshis: 0,
    });
    tx.addOutput({ lockingScript: new P2PKH().lock(alice.toAddress()), change: true });
    await tx.fee(new SatoshisPerKilobyte(1));
    await tx.sign();
    assert.equal(node.submit(tx.toHex()).status, 'accepted');
    funding = tx;
  });

  it('validates non-P2PKH scripts through the interpreter (a hash puzzle)', async () => {
    const change = funding.outputs.findIndex((o) => o.change);
    const lockTx = await spend(funding, change, alice, []);
    lockTx.outputs.unshift({ lockingScript: Script.fromASM('OP_2 OP_ADD OP_5 OP_EQUAL') as LockingScript, satoshis: 700 });
    lockTx.outputs[1].satoshis! -= 700;
    await lockTx.sign();
    assert.equal(node.submit(lockTx.toHex()).status, 'accepted');
    const solve = (n: number) => {
      const t = new Transaction();
      t.addInput({ sourceTransaction: lockTx, sourceOutputIndex: 0, unlockingScript: UnlockingScript.fromASM(`OP_${n}`) });
      t.addOutput({ lockingScript: new P2PKH().lock(bob.toAddress()), satoshis: 600 });
      return t.toHex();
    };
    const wrong = node.submit(solve(2));
    assert.equal(wrong.status === 'rejected' && wrong.reason, 'bad-signature');
    assert.equal(node.submit(solve(3)).status, 'accepted');
    funding = lockTx;
  });

  it('mines the mempool into a block whose merkle root and paths @bsv/sdk verifies', async () => {
    const before = node.mempoolSize();
    // The faucet's payment, the spend to bob, the first of the double spend, the data carrier, the hash puzzle and its solution.
    assert.equal(before, 6);
    const block = node.mine();
    assert.equal(node.mempoolSize(), 0);
    assert.equal(block.txids.length, before + 1, 'coinbase + mempool');
    const info = node.blockAt(block.height)!;
    assert.equal(info.merkleRoot, merkleRoot(block.txids));
    const tracker = {
      isValidRootForHeight: async (root: string, h: number) => node.blockAt(h)?.merkleRoot === root,
      currentHeight: async () => node.tip().height,
    };
    for (const txid of block.txids) {
      const status = node.txStatus(txid);
      assert.equal(status.state, 'mined');
      const path = MerklePath.fromHex(status.merklePath!);
      assert.equal(path.computeRoot(txid), info.merkleRoot, txid);
      assert.equal(await path.verify(txid, tracker), true);
    }
    assert.deepEqual(
      node.utxos(bob.toAddress()).every((u) => u.height === block.height),
      true,
    );
    // BEEF (SPV) can be built from what the node returns.
    const tx = Transaction.fromHex(node.txHex(block.txids[1])!);
    tx.merklePath = MerklePath.fromHex(node.txStatus(block.txids[1]).merklePath!);
    assert.equal(await tx.verify(tracker), true);
  });

  it('computes Bitcoin merkle roots for odd and even counts', () => {
    const ids = ['11', '22', '33'].map((b) => b.repeat(32));
    const levels = merkleLevels(ids);
    assert.deepEqual(
      levels.map((l) => l.length),
      [3, 2, 1],
    );
    assert.equal(merkleRoot([ids[0]]), ids[0], 'a single tx is its own root');
  });

  it('survives a restart with its blocks, mempool and unspent outputs', async () => {
    const tip = node.tip();
    const pending = await node.faucet(bob.toAddress(), 1234);
    node.close();
    node = LocalNode.open({ dataDir, password: 'chain-pw' });
    assert.deepEqual(node.tip(), tip);
    assert.equal(node.txStatus(pending.txid!).state, 'mempool');
    assert.ok(node.utxos(bob.toAddress()).some((u) => u.satoshis === 1234));
    assert.equal(
      node.balance(bob.toAddress()),
      node.utxos(bob.toAddress()).reduce((s, u) => s + u.satoshis, 0),
      'the sum agrees with the list',
    );
    // Paid to bob: 10,000 by the first spend, 2,000 by the double spend's winner, 600 by the hash puzzle, 1,234 by the faucet.
    assert.equal(node.history(bob.toAddress()).length, 4);
  });
});
