import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { P2PKH, PrivateKey, SatoshisPerKilobyte, Transaction } from '@bsv/sdk';
import { LocalNodeThread, NodeThreadUnavailable } from '../../main/chain/local/node-thread.js';
import { LocalNode } from '../../main/chain/local/local-node.js';
import { LocalProvider } from '../../main/chain/local/local-provider.js';
import { tempDir } from '../helpers/tmp.js';
import { untilValue } from '../helpers/until.js';

/**
 * The local node on a thread of its own (main/chain/local/node-thread.ts), as the hosts run it: the same
 * answers as the node on the caller's thread, its transactions announced before the answer of the
 * broadcast that made them, its ledger's password checked, and a stopped thread refusing calls (a
 * broadcast then leaves the outcome open) instead of hanging them.
 */

const alice = PrivateKey.fromRandom();
const bob = PrivateKey.fromRandom();

async function payBob(source: Transaction, vout: number, satoshis: number): Promise<Transaction> {
  const tx = new Transaction();
  tx.addInput({ sourceTransaction: source, sourceOutputIndex: vout, unlockingScriptTemplate: new P2PKH().unlock(alice) });
  tx.addOutput({ lockingScript: new P2PKH().lock(bob.toAddress()), satoshis });
  tx.addOutput({ lockingScript: new P2PKH().lock(alice.toAddress()), change: true });
  await tx.fee(new SatoshisPerKilobyte(1));
  await tx.sign();
  return tx;
}

describe('the local node on its own thread', () => {
  const dataDir = tempDir();
  let node: LocalNodeThread;

  before(async () => {
    node = await LocalNodeThread.start({ dataDir, password: 'chain-pw' });
  });
  after(() => node.close());

  it('funds, accepts, announces each transaction before the answer that took it, and mines', async () => {
    const heard: string[] = [];
    node.onTransaction(({ txid, tx }) => {
      assert.equal(tx.id('hex'), txid, 'the announced transaction is the one named');
      heard.push(txid);
    });
    const blocks: number[] = [];
    node.onBlock(({ height }) => blocks.push(height));

    const funded = await node.faucet(alice.toAddress(), 50_000);
    assert.equal(funded.status, 'accepted');
    assert.ok(heard.includes(funded.txid!), 'the faucet’s transaction was announced before its answer');
    const source = Transaction.fromHex((await node.txHex(funded.txid!))!);
    const vout = source.outputs.findIndex((o) => o.satoshis === 50_000);

    const pay = await payBob(source, vout, 20_000);
    const r = await node.accept(pay.toHex());
    assert.deepEqual(r, { status: 'accepted', txid: pay.id('hex'), alreadyKnown: false });
    assert.equal(heard.at(-1), pay.id('hex'), 'announced before accept answered');
    assert.equal(await node.balance(bob.toAddress()), 20_000);
    assert.equal((await node.txStatus(pay.id('hex'))).state, 'mempool');

    const again = await node.accept(pay.toHex());
    assert.deepEqual(again, { status: 'accepted', txid: pay.id('hex'), alreadyKnown: true });

    const before = (await node.tip()).height;
    const mined = await node.mineBlocks(1);
    assert.equal(mined.height, before + 1);
    assert.deepEqual(blocks.at(-1), before + 1, 'the block was announced before mineBlocks answered');
    const status = await node.txStatus(pay.id('hex'));
    assert.equal(status.state, 'mined');
    assert.equal(status.blockHeight, before + 1);
    assert.equal(await node.mempoolSize(), 0);
    assert.equal((await node.utxos(bob.toAddress())).length, 1);
    assert.equal((await node.headerAt(before + 1))!.length, 160);
  });

  it('refuses what the node refuses, with the node’s reason: a spent coin spent again', async () => {
    const funded = await node.faucet(alice.toAddress(), 30_000);
    const source = Transaction.fromHex((await node.txHex(funded.txid!))!);
    const vout = source.outputs.findIndex((o) => o.satoshis === 30_000);
    assert.equal((await node.accept((await payBob(source, vout, 10_000)).toHex())).status, 'accepted');
    const twice = await node.accept((await payBob(source, vout, 11_000)).toHex());
    assert.equal(twice.status, 'rejected');
    assert.equal(twice.status === 'rejected' && twice.reason, 'double-spend');
    const junk = await node.accept('00ff');
    assert.equal(junk.status, 'rejected');
    assert.equal(junk.status === 'rejected' && junk.reason, 'malformed');
  });

  it('answers only the node’s calls: a name outside them is refused on the thread', async () => {
    const call = (node as unknown as { call(name: string, args: unknown[]): Promise<unknown> }).call.bind(node);
    await assert.rejects(call('close', []), /no such node call: close/);
    await assert.rejects(call('faucetKey', []), /no such node call: faucetKey/);
    await assert.rejects(call('constructor', []), /no such node call/);
    // Still serving after the refusals.
    assert.ok((await node.tip()).height >= 0);
  });
});

describe('the node thread’s edges', () => {
  it('a ledger opened with another password does not start, with the ledger’s own error', async () => {
    const dataDir = tempDir();
    const first = await LocalNodeThread.start({ dataDir, password: 'right-pw' });
    const height = (await first.tip()).height;
    await first.close();
    await first.close(); // twice is safe
    await assert.rejects(LocalNodeThread.start({ dataDir, password: 'wrong-pw' }), (e: Error) => !(e instanceof NodeThreadUnavailable));
    const again = await LocalNodeThread.start({ dataDir, password: 'right-pw' });
    assert.equal((await again.tip()).height, height, 'the ledger is intact and opens with its password');
    await again.close();
  });

  it('after close, calls are refused; twice is safe', async () => {
    const closed = await LocalNodeThread.start({ dataDir: tempDir(), password: 'pw' });
    await closed.close();
    await closed.close();
    await assert.rejects(closed.tip(), NodeThreadUnavailable);
    await assert.rejects(closed.faucet(alice.toAddress(), 1_000), NodeThreadUnavailable);
  });

  it('a thread that dies refuses what waits on it (a broadcast’s outcome stays open), then runs again on the same ledger', async () => {
    const dataDir = tempDir();
    const node = await LocalNodeThread.start({ dataDir, password: 'pw', restartDelayMs: 20 });
    // An idle node thread does not keep the process alive, nor does its restart timer: the test does.
    const keepAlive = setInterval(() => {}, 1_000);
    try {
      const provider = new LocalProvider(node, () => null);
      const funded = await node.faucet(alice.toAddress(), 40_000);
      await node.setMiningInterval(0);
      const worker = () => (node as unknown as { worker: { terminate(): Promise<number> } }).worker;
      const waiting = node.mempoolSize();
      const sending = provider.broadcast('0100000000000000000000');
      await worker().terminate();
      await assert.rejects(waiting, NodeThreadUnavailable);
      const sent = await sending;
      assert.equal(sent.status, 'unknown', 'a node that cannot answer never refuses (the transaction may be fine)');
      await assert.rejects(node.tip(), NodeThreadUnavailable, 'refused at once while the thread is down');

      const back = await untilValue(
        'the node to run again',
        () => node.txStatus(funded.txid!).catch((e: Error) => e),
        (v) => !(v instanceof Error),
      );
      assert.equal((back as { state: string }).state, 'mempool', 'the ledger kept the faucet’s transaction');
      // It dies again and comes back again; events still reach the listeners registered before.
      const heard: string[] = [];
      node.onTransaction(({ txid }) => heard.push(txid));
      await worker().terminate();
      await untilValue(
        'the node to run again',
        () => node.tip().catch((e: Error) => e),
        (v) => !(v instanceof Error),
      );
      const again = await node.faucet(bob.toAddress(), 5_000);
      assert.ok(heard.includes(again.txid!));
    } finally {
      clearInterval(keepAlive);
      await node.close();
    }
  });

  it('answers as the node on the caller’s thread does, for the same ledger', async () => {
    const dataDir = tempDir();
    const thread = await LocalNodeThread.start({ dataDir, password: 'pw' });
    const funded = await thread.faucet(alice.toAddress(), 12_345);
    await thread.mine();
    const fromThread = {
      tip: await thread.tip(),
      utxos: await thread.utxos(alice.toAddress()),
      history: await thread.history(alice.toAddress()),
      status: await thread.txStatus(funded.txid!),
      block: await thread.blockAt(1),
      spent: await thread.spentBy(funded.txid!, 0),
      unknown: await thread.spentBy('00'.repeat(32), 0),
    };
    await thread.close();
    const here = LocalNode.open({ dataDir, password: 'pw' });
    try {
      assert.deepEqual(fromThread, {
        tip: here.tip(),
        utxos: here.utxos(alice.toAddress()),
        history: here.history(alice.toAddress()),
        status: here.txStatus(funded.txid!),
        block: here.blockAt(1),
        spent: here.spentBy(funded.txid!, 0),
        unknown: undefined,
      });
    } finally {
      here.close();
    }
  });
});
