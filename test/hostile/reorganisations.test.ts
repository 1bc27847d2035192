import assert from 'node:assert/strict';
import { it } from 'node:test';
import { P2PKH, PrivateKey } from '@bsv/sdk';
import { booksUnspent, chainUnspent, forkedOrg as org, fundedPayer, historyRow, spendFrom } from '../helpers/forkable-chain.js';
import { meta } from '../helpers/engine.js';

/**
 * A block is the chain's last word only until the chain replaces it. Each test builds two branches of one
 * chain (test/helpers/forkable-chain.ts), lets Keystead book a transaction into a block of the first, then
 * makes the second, longer branch the chain and lets Keystead scan and reconcile (as its polling would). The
 * books must end where the chain is. Before: a height once booked was never looked at again, so a payment
 * double-spent in the winning branch stayed on the books as confirmed coins for ever.
 */

it('a received payment in a block the chain replaces, double-spent in the winning branch: undone, the books end where the chain is', async () => {
  const o = await org();
  try {
    const { payer, funding } = await fundedPayer(o);
    const other = o.fc.fork(0);

    const paid = await spendFrom(o.fc.nodes[0], payer, funding, o.address, 40_000);
    o.fc.nodes[0].mineBlocks(1);
    await o.rescan();
    assert.equal((await historyRow(o, paid))?.height, o.fc.nodes[0].tip().height, 'booked into its block');
    assert.equal(booksUnspent(o.store), 40_000);

    // The payer spends the same coin elsewhere on the other branch, which grows longer and becomes the chain.
    await spendFrom(o.fc.nodes[other], payer, funding, PrivateKey.fromRandom().toAddress(), 90_000);
    o.fc.nodes[other].mineBlocks(2);
    o.fc.current = other;
    await o.rescan();

    assert.equal(booksUnspent(o.store), await chainUnspent(o.store, o.chain), 'the books hold what the chain holds');
    assert.equal(booksUnspent(o.store), 0);
    const row = await historyRow(o, paid);
    assert.equal(row?.height, null, 'no block holds it');
    assert.ok(row?.failureReason, 'undone, with the reason');
  } finally {
    o.close();
  }
});

it('our payment in a replaced block the winning branch lacks: unconfirmed, sent again, and dated into its new block', async () => {
  const o = await org();
  try {
    await o.fc.node.faucet(o.address, 100_000);
    o.fc.node.mineBlocks(1);
    await o.rescan();
    const other = o.fc.fork(0);

    const to = PrivateKey.fromRandom().toAddress();
    const pay = await o.engine.execute(
      'pay',
      { walletId: o.walletId, outputs: [{ script: new P2PKH().lock(to).toHex(), satoshis: 10_000 }] },
      o.who,
      meta,
    );
    o.fc.nodes[0].mineBlocks(1);
    await o.rescan();
    const first = o.fc.nodes[0].tip().height;
    assert.equal((await historyRow(o, pay.output.txid))?.height, first);

    // The other branch never saw the payment; it grows two empty blocks and becomes the chain.
    o.fc.nodes[other].mineBlocks(2);
    o.fc.current = other;
    await o.rescan();
    const row = await historyRow(o, pay.output.txid);
    assert.equal(row?.height, null, 'no block holds it any more');
    assert.equal(row?.failureReason ?? null, null, 'not undone: it is ours, and the chain took it again');
    assert.equal((await o.chain.getTxStatus(pay.output.txid)).state, 'mempool', 'sent again to the chain that won');

    o.fc.node.mineBlocks(1);
    await o.rescan();
    assert.equal((await historyRow(o, pay.output.txid))?.height, o.fc.node.tip().height, 'dated into its new block');
    assert.notEqual(o.fc.node.tip().height, first);
    assert.equal(booksUnspent(o.store), await chainUnspent(o.store, o.chain));
    assert.equal((await o.chain.getHistory(to)).length, 1, 'the payee was paid once');
  } finally {
    o.close();
  }
});

it('a payment mined in both branches at other heights keeps its coins and takes its new height', async () => {
  const o = await org();
  try {
    const { payer, funding } = await fundedPayer(o);
    const other = o.fc.fork(0);
    const paid = await spendFrom(o.fc.nodes[0], payer, funding, o.address, 40_000);
    o.fc.nodes[0].mineBlocks(1);
    await o.rescan();
    const first = o.fc.nodes[0].tip().height;
    assert.equal((await historyRow(o, paid))?.height, first);

    // The other branch mines a block of its own first, then the same payment, and grows longer.
    await o.fc.nodes[other].faucet(PrivateKey.fromRandom().toAddress(), 1_000);
    o.fc.nodes[other].mineBlocks(1);
    assert.equal(o.fc.nodes[other].submit(o.fc.nodes[0].txHex(paid)!).status, 'accepted');
    o.fc.nodes[other].mineBlocks(2);
    o.fc.current = other;
    await o.rescan();
    assert.equal((await historyRow(o, paid))?.height, first + 1, 'proved again in its block of the winning branch');
    assert.equal(booksUnspent(o.store), 40_000);
    assert.equal(booksUnspent(o.store), await chainUnspent(o.store, o.chain));
  } finally {
    o.close();
  }
});

it('a provider that does not have a booked block yet (behind the others) undoes nothing', async () => {
  let behind = false;
  const o = await org((fc) => {
    const polled = fc.polled();
    return { ...polled, getMerkleRoot: async (h) => (behind ? null : polled.getMerkleRoot(h)) };
  });
  try {
    const { payer, funding } = await fundedPayer(o);
    const paid = await spendFrom(o.fc.node, payer, funding, o.address, 40_000);
    o.fc.node.mineBlocks(1);
    await o.rescan();
    const height = o.fc.node.tip().height;
    behind = true;
    o.fc.node.mineBlocks(1); // a new tip, so the books look again
    await o.rescan();
    assert.equal((await historyRow(o, paid))?.height, height);
    assert.equal(booksUnspent(o.store), 40_000);
  } finally {
    o.close();
  }
});
