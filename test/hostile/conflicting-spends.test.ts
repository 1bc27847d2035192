import assert from 'node:assert/strict';
import { it } from 'node:test';
import { P2PKH, PrivateKey } from '@bsv/sdk';
import type { ChainProvider, TxStatus } from '../../main/chain/types.js';
import type { Engine } from '../../main/engine/engine.js';
import type { Store } from '../../main/store/database.js';
import { booksUnspent, chainUnspent, engineOver, ForkableChain, spendFrom } from '../helpers/forkable-chain.js';
import { meta } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';
import { startReceiver } from '../helpers/paymail-receiver.js';
import { tempDir } from '../helpers/tmp.js';

const PHRASE = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

async function signIn(engine: Engine) {
  const s = (await engine.execute('setup', ADMIN, {}, meta)).output;
  return { authToken: s.authToken, serviceId: s.serviceId };
}

/**
 * Our unconfirmed payment X loses to a competing spend Y of the same coin that a block holds (the same wallet
 * restored elsewhere; a refused P2P payment mined instead of its cancellation). The books end where the chain
 * is: Y is booked with its whole debit and X undone. Before: Y was booked without the coin X had spent, and
 * undoing X made that coin spendable again (a phantom coin the chain does not have).
 */
it('a block holding a competing spend of a coin our unconfirmed payment spent: the books end where the chain is', async () => {
  const clock = { now: Date.parse('2026-01-01T00:00:00Z') };
  const fc = new ForkableChain(() => clock.now);
  const chain = fc.polled();
  const dataDir = tempDir();
  let { engine } = engineOver(dataDir, chain, () => clock.now);
  let store: Store;
  try {
    await engine.ready;
    const who = await signIn(engine);
    const walletId = (await engine.execute('createWallet', { walletTitle: 'Treasury', mnemonicPhrase: PHRASE }, who, meta)).output.walletID;
    const address = (await engine.execute('walletAddress', { walletId }, who, meta)).output.address;
    assert.equal((await fc.node.faucet(address, 100_000)).status, 'accepted');
    fc.node.mineBlocks(1);
    engine.close();
    ({ engine, store } = engineOver(dataDir, chain, () => clock.now));
    await engine.ready;
    assert.equal(booksUnspent(store), 100_000);

    const other = fc.fork(0);
    const pay = (e: Engine, as: typeof who, w: string, satoshis: number) =>
      e.execute(
        'pay',
        { walletId: w, outputs: [{ script: new P2PKH().lock(PrivateKey.fromRandom().toAddress()).toHex(), satoshis }] },
        as,
        meta,
      );
    const x = await pay(engine, who, walletId, 40_000);
    assert.equal(x.output.seenByChain, true);

    // The same wallet, restored in another organisation over the other branch, spends the same coin; a block holds it.
    const elsewhere = engineOver(tempDir(), fc.provider(other), () => clock.now);
    await elsewhere.engine.ready;
    const who2 = await signIn(elsewhere.engine);
    const restored = (await elsewhere.engine.execute('createWallet', { walletTitle: 'Restored', mnemonicPhrase: PHRASE }, who2, meta))
      .output;
    await elsewhere.engine.reconcile();
    const y = await pay(elsewhere.engine, who2, restored.walletID, 10_000);
    assert.notEqual(y.output.txid, x.output.txid);
    fc.nodes[other].mineBlocks(1);
    elsewhere.engine.close();

    // That branch wins; Keystead hears from it and settles.
    fc.current = other;
    engine.close();
    ({ engine, store } = engineOver(dataDir, chain, () => clock.now));
    await engine.ready;
    for (let i = 0; i < 3; i++) {
      clock.now += 120_000;
      await engine.reconcile();
    }
    assert.equal(booksUnspent(store), await chainUnspent(store, chain), 'the books hold what the chain holds');
    const history = (await engine.execute('history', { walletId }, who, meta)).output.history;
    const row = (txid: string) => history.find((h) => h.txid === txid);
    assert.equal(row(y.output.txid)?.direction, 'out', 'the winner is booked as the payment it is');
    assert.ok(row(x.output.txid)?.failureReason, 'the loser is undone, with the reason');
  } finally {
    engine.close();
    fc.close();
  }
});

/**
 * A P2P receiver refuses a payment X but keeps it and gets it into a block on a branch that wins over the one
 * with Keystead's cancellation. The books end where the chain is (X booked as the payment, the cancellation
 * undone), and the payment's idempotency key, held while the cancellation was in no block, never pays twice.
 */
it('a refused payment mined instead of its cancellation: booked as paid, and its key never pays twice', async () => {
  const clock = { now: Date.parse('2026-01-01T00:00:00Z') };
  const receiver = await startReceiver();
  const fc = new ForkableChain(() => clock.now);
  const chain = fc.polled();
  const dataDir = tempDir();
  const open = () => engineOver(dataDir, chain, () => clock.now, { [receiver.domain]: receiver.url });
  let { engine } = open();
  let store: Store;
  try {
    await engine.ready;
    const who = await signIn(engine);
    const walletId = (await engine.execute('createWallet', { walletTitle: 'Ops' }, who, meta)).output.walletID;
    const address = (await engine.execute('walletAddress', { walletId }, who, meta)).output.address;
    await fc.node.faucet(address, 40_000);
    fc.node.mineBlocks(1);
    engine.close();
    ({ engine, store } = open());
    await engine.ready;

    let other = -1;
    receiver.answer(async (hex) => {
      other = fc.fork(0);
      assert.equal(fc.nodes[other].submit(hex).status, 'accepted');
      return { status: 400, body: { code: 'nope', message: 'we do not want it' } };
    });
    const uri = await engine.execute('resolveUri', { uri: `payto:${receiver.paymail}?amount=7000`, walletId }, who, meta);
    const payUnderKey = () => engine.execute('pay', { data: uri.output.data, walletId, idempotencyKey: 'k' }, who, meta);
    await assert.rejects(payUnderKey(), /cancelled on chain by transaction/);
    // Told it was cancelled, the operator retries at once: the key is held while no block holds the cancellation.
    await assert.rejects(payUnderKey(), /still in progress/);

    // The branch with X wins.
    fc.nodes[other].mineBlocks(2);
    fc.current = other;
    engine.close();
    ({ engine, store } = open());
    await engine.ready;
    for (let i = 0; i < 4; i++) {
      clock.now += 120_000;
      await engine.reconcile();
    }
    assert.equal(booksUnspent(store), await chainUnspent(store, chain), 'the books hold what the chain holds');
    // The key now answers with the payment the chain took; the receiver is paid once.
    receiver.answer((hex) => {
      fc.node.submit(hex);
      return { status: 200, body: { txid: '' } };
    });
    const again = await payUnderKey();
    fc.node.mineBlocks(1);
    assert.equal((await chain.getHistory(receiver.address)).length, 1, 'the receiver was paid once');
    assert.match(again.output.txid, /^[0-9a-f]{64}$/);
  } finally {
    engine.close();
    fc.close();
    await receiver.close();
  }
});

/**
 * A payer's unconfirmed payment of an invoice is double-spent away (the chain that wins spends its coin
 * elsewhere), while ARC still shows it as merely stored and WhatsOnChain no longer has it. ARC's "stored"
 * vouches for nothing: the payment is undone and the invoice is open again. Before: "stored" counted as seen,
 * and the books kept the coin (and the invoice paid) for ever.
 */
it('a double-spent incoming payment ARC only holds as stored is undone, its invoice open again', async () => {
  const clock = { now: Date.parse('2026-01-01T00:00:00Z') };
  const fc = new ForkableChain(() => clock.now);
  const polled = fc.polled();
  const stored = new Set<string>();
  const storedStatus = (txid: string): TxStatus => ({
    txid,
    state: 'mempool',
    blockHeight: null,
    blockHash: null,
    merklePath: null,
    seenOnNetwork: false,
  });
  const chain: ChainProvider = { ...polled, getTxStatus: async (t) => (stored.has(t) ? storedStatus(t) : polled.getTxStatus(t)) };
  const dataDir = tempDir();
  let { engine } = engineOver(dataDir, chain, () => clock.now);
  let store: Store;
  try {
    await engine.ready;
    const who = await signIn(engine);
    const walletId = (await engine.execute('createWallet', { walletTitle: 'Shop' }, who, meta)).output.walletID;
    const invoice = (await engine.execute('createInvoice', { walletID: walletId, satoshis: 40_000 }, who, meta)).output;
    const payer = PrivateKey.fromRandom();
    const funding = (await fc.node.faucet(payer.toAddress(), 100_000)).txid!;
    fc.node.mineBlocks(1);
    const other = fc.fork(0);
    const paid = await spendFrom(fc.nodes[0], payer, funding, invoice.address, 40_000);
    await spendFrom(fc.nodes[other], payer, funding, PrivateKey.fromRandom().toAddress(), 40_000);
    engine.close();
    ({ engine, store } = engineOver(dataDir, chain, () => clock.now));
    await engine.ready;
    const invoiceState = async () => (await engine.execute('paymentRequest', { invoiceId: invoice.invoiceId }, {}, meta)).output.state;
    assert.equal(booksUnspent(store), 40_000, 'booked');
    assert.equal(await invoiceState(), 'paid');
    // The other branch wins; ARC still holds the payment as stored.
    fc.nodes[other].mineBlocks(2);
    fc.current = other;
    stored.add(paid);
    for (let i = 0; i < 4; i++) {
      clock.now += 120_000;
      await engine.reconcile();
    }
    assert.equal(booksUnspent(store), await chainUnspent(store, chain), 'the books hold what the chain holds');
    assert.equal(await invoiceState(), 'open');
  } finally {
    engine.close();
    fc.close();
  }
});

/**
 * Payments of ours made within one millisecond, each spending the last one's change, then dropped from the
 * mempool (the chain the node followed lost): they are sent again parent first, and every one is on the chain
 * again. Before: re-sent in txid order (their times tie), a child went before its parent, the chain refused it
 * for its missing inputs, and the books undid a payment Keystead had reported as sent.
 */
it('a chain of our payments dropped from the mempool is sent again parent first; none is undone', async () => {
  const clock = { now: Date.parse('2026-01-01T00:00:00Z') };
  const fc = new ForkableChain(() => clock.now);
  const chain = fc.polled();
  const dataDir = tempDir();
  let { engine } = engineOver(dataDir, chain, () => clock.now);
  try {
    await engine.ready;
    const who = await signIn(engine);
    const walletId = (await engine.execute('createWallet', { walletTitle: 'Payouts' }, who, meta)).output.walletID;
    const address = (await engine.execute('walletAddress', { walletId }, who, meta)).output.address;
    await fc.node.faucet(address, 100_000);
    fc.node.mineBlocks(1);
    engine.close();
    ({ engine } = engineOver(dataDir, chain, () => clock.now));
    await engine.ready;
    const other = fc.fork(0);
    const txids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const to = new P2PKH().lock(PrivateKey.fromRandom().toAddress()).toHex();
      txids.push((await engine.execute('pay', { walletId, outputs: [{ script: to, satoshis: 10_000 }] }, who, meta)).output.txid);
    }
    fc.current = other; // this branch's mempool never had them
    for (let i = 0; i < 4; i++) {
      clock.now += 120_000;
      await engine.reconcile();
    }
    for (const txid of txids) assert.notEqual(await chain.getTransactionHex(txid), null, `${txid} is on the chain again`);
    const history = (await engine.execute('history', { walletId }, who, meta)).output.history;
    assert.deepEqual(
      history.filter((h) => h.failureReason),
      [],
      'none undone',
    );
  } finally {
    engine.close();
    fc.close();
  }
});
