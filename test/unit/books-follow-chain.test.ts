import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { P2PKH, PrivateKey, Transaction } from '@bsv/sdk';
import type { LocalNode } from '../../main/chain/local/local-node.js';
import type { Credentials } from '../../main/engine/context.js';
import type { Engine } from '../../main/engine/engine.js';
import { openStore } from '../../main/store/database.js';
import { rejectsWith } from '../helpers/assert-domain-error.js';
import { derivePath, masterFromSeed, oracleAddress, seedFromMnemonic } from '../helpers/bip32-oracle.js';
import { meta, testEngine, withBroadcast, type TestEngine } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';
import { startReceiver, type Receiver } from '../helpers/paymail-receiver.js';

const WINDOW = 10_000;

/**
 * The books follow the chain, not the counterparty: a P2P receiver that accepts a payment and never
 * broadcasts it, names another txid, or refuses it while keeping it, cannot make Keystead's books drift
 * from what the chain holds. Each test ends by comparing the books with the chain itself.
 */
describe('the books follow the chain, not the P2P receiver', () => {
  let t: TestEngine;
  let engine: Engine;
  let node: LocalNode;
  let admin: Credentials;
  let receiver: Receiver;
  const run = <T>(p: Promise<{ output: T }>) => p.then((r) => r.output);

  async function setUp(opts: Parameters<typeof testEngine>[0] = {}) {
    t = testEngine({ broadcastWindowMs: WINDOW, paymailHosts: { [receiver.domain]: receiver.url }, ...opts });
    ({ engine, node } = t);
    const s = (await engine.execute('setup', ADMIN, {}, meta)).output;
    admin = { authToken: s.authToken, serviceId: s.serviceId };
  }

  beforeEach(async () => {
    receiver = await startReceiver();
  });
  afterEach(async () => {
    engine?.close();
    node?.close();
    await receiver.close();
  });

  async function fundedWallet(amounts: number[]): Promise<{ walletId: string; phrase: string }> {
    const w = await run(engine.execute('createWallet', { walletTitle: 'Ops' }, admin, meta));
    for (const satoshis of amounts) await run(engine.execute('faucet', { walletId: w.walletID, satoshis }, admin, meta));
    const { mnemonic } = await run(engine.execute('exportMnemonic', { walletId: w.walletID, password: ADMIN.password }, admin, meta));
    return { walletId: w.walletID, phrase: mnemonic! };
  }

  const books = async (walletId: string) => {
    const w = (await run(engine.execute('listWallets', {}, admin, meta))).wallets.find((x) => x.walletID === walletId)!;
    return w.balance.confirmed + w.balance.unconfirmed;
  };
  /** What the chain says the wallet holds: every address of both chains, asked of the node. */
  const chain = (phrase: string) => {
    let sum = 0;
    for (const c of [0, 1])
      for (let i = 0; i < 30; i++) sum += node.utxos(oracleAddress(phrase, `m/44'/236'/0'/${c}/${i}`)).reduce((s, u) => s + u.satoshis, 0);
    return sum;
  };
  const historyOf = async (walletId: string) => (await run(engine.execute('history', { walletId }, admin, meta))).history;
  /** The receiver holds exactly one payment of `satoshis`, and the wallet's books equal what the chain holds for its keys. */
  const assertPaidOnce = async (satoshis: number, walletId: string, phrase: string) => {
    assert.deepEqual(
      node.utxos(receiver.address).map((u) => u.satoshis),
      [satoshis],
      'paid exactly once',
    );
    assert.equal(await books(walletId), chain(phrase));
  };
  const payReceiver = async (walletId: string, satoshis: number, extra: object = {}) => {
    const req = await run(engine.execute('resolveUri', { uri: `payto:${receiver.paymail}?amount=${satoshis}`, walletId }, admin, meta));
    assert.equal(req.data.peerProtocol, 'paymail');
    return run(engine.execute('pay', { data: req.data, walletId, ...extra }, admin, meta));
  };

  it('a receiver that answers 200 and never broadcasts: pending, then Keystead broadcasts it itself after the window', async () => {
    await setUp();
    const { walletId, phrase } = await fundedWallet([50_000]);
    receiver.answer(() => ({ status: 200, body: { txid: 'f'.repeat(64), note: 'sure' } }));
    const paid = await payReceiver(walletId, 10_000);
    assert.deepEqual(
      [paid.state, paid.seenByChain, paid.peerTxid],
      ['pending', false, 'f'.repeat(64)],
      'not booked as done; the other txid is recorded',
    );
    assert.equal(node.txStatus(paid.txid).state, 'unknown', 'the receiver never broadcast it');
    assert.equal(await books(walletId), chain(phrase), 'the books still match the chain');
    const [entry] = await historyOf(walletId);
    assert.deepEqual([entry.txid, entry.state, entry.seenByChain, entry.peerTxid], [paid.txid, 'pending', false, 'f'.repeat(64)]);

    await engine.reconcile();
    assert.equal(node.txStatus(paid.txid).state, 'unknown', 'inside the window, the receiver still has time');
    t.clock.now += WINDOW;
    await engine.reconcile();
    assert.equal(node.txStatus(paid.txid).state, 'mempool', 'after the window Keystead broadcast the same transaction');
    assert.deepEqual(
      node.utxos(receiver.address).map((u) => [u.txid, u.satoshis]),
      [[paid.txid, 10_000]],
      'the receiver got exactly what it asked for',
    );
    assert.equal(await books(walletId), 50_000 - 10_000 - paid.fee);
    assert.equal(await books(walletId), chain(phrase));
    const [after] = await historyOf(walletId);
    assert.deepEqual([after.state, after.seenByChain, after.amount], ['pending', true, -(10_000 + paid.fee)]);
    node.mine();
    assert.deepEqual([(await historyOf(walletId))[0].state, (await historyOf(walletId))[0].confirmations], ['confirmed', 1]);
  });

  it('a payment the chain refuses after the window gives its coins back, and history says why', async () => {
    await setUp();
    const { walletId, phrase } = await fundedWallet([30_000]);
    receiver.answer((_hex, txid) => ({ status: 200, body: { txid } }));
    const paid = await payReceiver(walletId, 20_000, { idempotencyKey: 'order-9' });
    assert.equal(paid.state, 'pending');
    // Meanwhile the same coin is spent elsewhere (the phrase lives in another wallet app too).
    const coin = node.utxos(oracleAddress(phrase, "m/44'/236'/0'/0/0"))[0];
    const key = PrivateKey.fromString(derivePath(masterFromSeed(seedFromMnemonic(phrase)), "m/44'/236'/0'/0/0").key.toString('hex'), 'hex');
    const other = new Transaction();
    other.addInput({
      sourceTransaction: Transaction.fromHex(node.txHex(coin.txid)!),
      sourceOutputIndex: coin.vout,
      unlockingScriptTemplate: new P2PKH().unlock(key),
    });
    other.addOutput({ lockingScript: new P2PKH().lock(oracleAddress(phrase, "m/44'/236'/0'/0/5")), satoshis: coin.satoshis - 200 });
    await other.sign();
    assert.equal(node.submit(other.toHex()).status, 'accepted');

    t.clock.now += WINDOW;
    await engine.reconcile();
    assert.equal(node.txStatus(paid.txid).state, 'unknown', 'a double spend: the chain refused ours');
    const [mine] = (await historyOf(walletId)).filter((e) => e.txid === paid.txid);
    assert.equal(mine.state, 'failed');
    assert.match(mine.failureReason ?? '', /double-spend/);
    assert.equal(await books(walletId), chain(phrase), 'the books follow the chain: the other spend is booked, ours is not');
    assert.equal(await books(walletId), coin.satoshis - 200);
    // The idempotency key of a failed payment may be used again, and the coins really are spendable.
    const again = await run(
      engine.execute(
        'pay',
        { outputs: [{ script: new P2PKH().lock(receiver.address).toHex(), satoshis: 5_000 }], walletId, idempotencyKey: 'order-9' },
        admin,
        meta,
      ),
    );
    assert.equal(again.state, 'pending');
    assert.equal(again.seenByChain, true);
    assert.equal(await books(walletId), chain(phrase));
  });

  it('a receiver that refuses but broadcasts anyway: the chain has it, so the payment is booked', async () => {
    await setUp();
    const { walletId, phrase } = await fundedWallet([40_000]);
    receiver.answer((hex) => {
      node.submit(hex);
      return { status: 400, body: { code: 'nope', message: 'we do not want it' } };
    });
    const paid = await payReceiver(walletId, 7_000);
    assert.deepEqual([paid.state, paid.seenByChain], ['pending', true]);
    assert.equal(await books(walletId), 40_000 - 7_000 - paid.fee);
    assert.equal(await books(walletId), chain(phrase));
  });

  it('a receiver that refuses but keeps the signed payment cannot make the payer pay twice: Keystead cancels it on chain', async () => {
    await setUp();
    const { walletId, phrase } = await fundedWallet([40_000]);
    let kept = '';
    receiver.answer((hex) => {
      kept = hex;
      return { status: 400, body: { code: 'nope', message: 'we do not want it' } };
    });
    const refused = await engine.execute('resolveUri', { uri: `payto:${receiver.paymail}?amount=7000`, walletId }, admin, meta);
    await rejectsWith(
      engine.execute('pay', { data: refused.output.data, walletId, idempotencyKey: 'inv-7' }, admin, meta),
      'PAYMAIL_FAILED',
      /cancelled on chain by transaction [0-9a-f]{64}/,
    );
    // The receiver broadcasts what it refused: too late, one of its coins is spent by the cancellation.
    assert.equal(node.submit(kept).status, 'rejected');
    const cancelFee = 40_000 - (await books(walletId));
    assert.ok(cancelFee > 0 && cancelFee < 10, `a cancellation costs a small fee, not ${cancelFee}`);
    assert.equal(await books(walletId), chain(phrase));
    const history = await historyOf(walletId);
    const original = history.find((e) => e.state === 'failed')!;
    assert.match(original.failureReason ?? '', /receiver refused it.*cancelled on chain by/);
    assert.match(history.find((e) => e.direction === 'self')!.memo ?? '', /^Cancels /);
    // Until a block holds the cancellation the refused payment could still be mined instead: its key stays held.
    await rejectsWith(
      engine.execute('pay', { data: refused.output.data, walletId, idempotencyKey: 'inv-7' }, admin, meta),
      'CONFLICT',
      /still in progress/,
    );
    node.mine();
    await engine.reconcile();
    // The payment failed for good, so its key may pay again; the receiver is paid exactly once in all.
    receiver.answer((hex) => {
      node.submit(hex);
      return { status: 200, body: { txid: Transaction.fromHex(hex).id('hex') } };
    });
    await run(engine.execute('pay', { data: refused.output.data, walletId, idempotencyKey: 'inv-7' }, admin, meta));
    await assertPaidOnce(7_000, walletId, phrase);
  });

  it('a cancellation ARC only stored is no cancellation: the coins and the key stay held until a node takes one or the other', async () => {
    // An ARC that answers "accepted" for the cancellation and shows it as stored, but never gives it to a node.
    const stored = new Set<string>();
    let storeOnly = true;
    await setUp({
      chain: (local) => ({
        ...withBroadcast(async (hex) => {
          if (!storeOnly) return local.broadcast(hex);
          const txid = Transaction.fromHex(hex).id('hex');
          stored.add(txid);
          return { status: 'accepted', txid, alreadyKnown: false };
        })(local),
        getTxStatus: async (t) =>
          stored.has(t) && node.txStatus(t).state === 'unknown'
            ? { txid: t, state: 'mempool', blockHeight: null, blockHash: null, merklePath: null, seenOnNetwork: false }
            : local.getTxStatus(t),
      }),
    });
    const { walletId, phrase } = await fundedWallet([40_000]);
    let kept = '';
    receiver.answer((hex) => {
      kept = hex;
      return { status: 400, body: { code: 'nope', message: 'we do not want it' } };
    });
    const req = await run(engine.execute('resolveUri', { uri: `payto:${receiver.paymail}?amount=7000`, walletId }, admin, meta));
    const pay = () => engine.execute('pay', { data: req.data, walletId, idempotencyKey: 'inv-8' }, admin, meta);
    await rejectsWith(pay(), 'PAYMAIL_FAILED', /Keystead is cancelling it on chain/);
    assert.equal(stored.size, 1, 'the cancellation went to ARC');
    t.clock.now += WINDOW;
    await engine.reconcile(); // ARC still only holds it: nothing is given back
    await rejectsWith(pay(), 'CONFLICT', /still in progress/);
    assert.equal(await books(walletId), chain(phrase));
    assert.notEqual((await historyOf(walletId)).find((e) => e.direction === 'out')!.state, 'failed', 'the payment is not undone');
    // The receiver broadcasts the payment it refused; the chain takes it, so it is paid, once.
    assert.equal(node.submit(kept).status, 'accepted');
    await engine.reconcile();
    storeOnly = false;
    const paid = await run(pay());
    assert.equal(paid.seenByChain, true);
    await assertPaidOnce(7_000, walletId, phrase);
  });

  it('a receiver that refuses and broadcasts while the status route is down: the books wait for the chain', async () => {
    let statusDown = false;
    await setUp({
      chain: (local) => ({
        ...withBroadcast((hex) => local.broadcast(hex))(local),
        getTxStatus: (t) => (statusDown ? Promise.reject(new Error('ARC down')) : local.getTxStatus(t)),
      }),
    });
    const { walletId, phrase } = await fundedWallet([40_000]);
    receiver.answer((hex) => {
      node.submit(hex);
      return { status: 400, body: { code: 'nope', message: 'we do not want it' } };
    });
    statusDown = true;
    await rejectsWith(payReceiver(walletId, 7_000), 'PAYMAIL_FAILED', /Keystead is cancelling it on chain/);
    assert.equal(await books(walletId), chain(phrase), "nothing was given back on the receiver's word");
    statusDown = false;
    t.clock.now += WINDOW;
    await engine.reconcile();
    node.mine();
    await engine.reconcile();
    assert.equal(await books(walletId), chain(phrase));
    assert.equal(node.utxos(receiver.address).length, 1, 'the receiver broadcast it, so it is paid');
    assert.equal((await historyOf(walletId)).find((e) => e.direction === 'out')!.state, 'confirmed');
  });

  it('a receiver that answers 200 with no body: the outcome is open, the key stays bound, and it is paid once', async () => {
    await setUp();
    const { walletId, phrase } = await fundedWallet([40_000]);
    receiver.answer(() => ({ status: 200, body: null }));
    const req = await run(engine.execute('resolveUri', { uri: `payto:${receiver.paymail}?amount=9000`, walletId }, admin, meta));
    await rejectsWith(
      engine.execute('pay', { data: req.data, walletId, idempotencyKey: 'k1' }, admin, meta),
      'CHAIN_UNAVAILABLE',
      /not known yet/,
    );
    await rejectsWith(
      engine.execute('pay', { data: req.data, walletId, idempotencyKey: 'k1' }, admin, meta),
      'CONFLICT',
      /still in progress/,
    );
    await engine.reconcile(); // an unclear delivery is broadcast by Keystead at once
    const settled = await run(engine.execute('pay', { data: req.data, walletId, idempotencyKey: 'k1' }, admin, meta));
    assert.equal(settled.seenByChain, true);
    await assertPaidOnce(9_000, walletId, phrase);
  });

  it("throttles guesses at a secure wallet's password", async () => {
    await setUp();
    const w = await run(
      engine.execute('createWallet', { walletTitle: 'Vault', type: 'secure', walletPassword: 'vault-pass-1' }, admin, meta),
    );
    const out = { outputs: [{ script: new P2PKH().lock(receiver.address).toHex(), satoshis: 1_000 }], walletId: w.walletID };
    const codes: string[] = [];
    for (let i = 0; i < 8; i++) {
      await engine
        .execute('pay', { ...out, walletPassword: `wrong-guess-${i}` }, admin, meta)
        .catch((e: { code: string }) => codes.push(e.code));
    }
    assert.deepEqual(codes.slice(0, 6), Array(6).fill('WALLET_LOCKED'));
    assert.deepEqual(codes.slice(6), ['RATE_LIMITED', 'RATE_LIMITED']);
  });

  it('an unclear delivery that the chain later refuses releases its change address too', async () => {
    let refuse = false;
    await setUp({
      chain: (local) =>
        withBroadcast(async (hex) =>
          refuse ? { status: 'rejected', txid: null, reason: 'fee-too-low', message: 'refused for the test' } : local.broadcast(hex),
        )(local),
    });
    const { walletId, phrase } = await fundedWallet([40_000]);
    receiver.answer(() => ({ status: 503, body: { code: 'down', message: 'try later' } }));
    await rejectsWith(payReceiver(walletId, 7_000), 'CHAIN_UNAVAILABLE', /not known yet/);
    const store = openStore({ dataDir: t.dataDir, password: 'test-password' });
    const usedChange = () =>
      store.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM addresses WHERE chain = 1 AND used = 1').get()!.n;
    try {
      assert.equal(usedChange(), 1, 'the payment claimed a change address');
      refuse = true;
      await engine.reconcile();
      assert.equal(usedChange(), 0, 'settled as refused: the change address is free again');
      assert.equal(await books(walletId), chain(phrase));
      assert.equal((await historyOf(walletId))[0].state, 'failed');
    } finally {
      store.close();
    }
  });

  it('repairs books that say a coin was spent by a transaction the chain never saw', async () => {
    await setUp();
    const { walletId, phrase } = await fundedWallet([25_000]);
    // Books written by an earlier Keystead that trusted a receiver's 200: coin spent by a phantom txid.
    const phantom = 'a'.repeat(64);
    const store = openStore({ dataDir: t.dataDir, password: 'test-password' });
    try {
      store.db.prepare("UPDATE utxos SET status = 'spent', spent_by = ?").run(phantom);
      const row = store.db.prepare<[], { wallet_row: number }>('SELECT wallet_row FROM utxos LIMIT 1').get()!;
      store.db
        .prepare(
          "INSERT INTO wallet_txs (wallet_row, txid, direction, amount, fee, height, time, state) VALUES (?, ?, 'out', -25000, 100, NULL, ?, 'seen')",
        )
        .run(row.wallet_row, phantom, t.clock.now);
    } finally {
      store.close();
    }
    assert.equal(await books(walletId), 0, 'the drifted books');
    await engine.reconcile();
    assert.equal(await books(walletId), 0, 'one check is not proof: the chain may lag');
    t.clock.now += WINDOW;
    await engine.reconcile();
    assert.equal(await books(walletId), 25_000, 'the coin is back');
    assert.equal(await books(walletId), chain(phrase));
    const phantomEntry = (await historyOf(walletId)).find((e) => e.txid === phantom)!;
    assert.equal(phantomEntry.state, 'failed');
  });
});
