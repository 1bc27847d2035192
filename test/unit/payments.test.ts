import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { P2PKH, PrivateKey } from '@bsv/sdk';
import fc from 'fast-check';
import type { LocalNode } from '../../main/chain/local/local-node.js';
import type { Credentials } from '../../main/engine/context.js';
import type { Engine } from '../../main/engine/engine.js';
import { selectCoins } from '../../main/engine/payments/coin-select.js';
import type { LookupOutput } from '../../shared/operations.js';
import { bsvToSatoshis, parsePaymentUri } from '../../main/engine/payments/uri.js';
import { rejectsWith } from '../helpers/assert-domain-error.js';
import { meta, testEngine, withBroadcast } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';

const POLICY = { satoshis: 1, bytes: 1000, dustLimit: 1 };
const ADDR = PrivateKey.fromRandom().toAddress();

describe('payment URIs', () => {
  it('parses payto:, paymails, bitcoin: and addresses', () => {
    assert.deepEqual(parsePaymentUri('payto:Alice@Example.com?purpose=cashback&amount=10000'), {
      kind: 'paymail',
      paymail: 'alice@example.com',
      satoshis: 10000,
      purpose: 'cashback',
      multi: false,
    });
    assert.deepEqual(parsePaymentUri('bob@b.test'), {
      kind: 'paymail',
      paymail: 'bob@b.test',
      satoshis: null,
      purpose: null,
      multi: false,
    });
    assert.deepEqual(parsePaymentUri(`bitcoin:${ADDR}?amount=0.0001&message=Lunch`), {
      kind: 'address',
      address: ADDR,
      satoshis: 10000,
      purpose: 'Lunch',
      bip21: true,
    });
    assert.deepEqual(parsePaymentUri(ADDR), { kind: 'address', address: ADDR, satoshis: null, purpose: null, bip21: false });
    assert.equal(bsvToSatoshis('1'), 100_000_000);
    assert.equal(bsvToSatoshis('0.00000001'), 1);
    assert.equal(bsvToSatoshis('20999999.12345678'), 2_099_999_912_345_678);
    assert.throws(() => bsvToSatoshis('21000000.00000001'), /too large/, 'no more than all the BSV there is');
  });

  it('refuses malformed and unsupported URIs with the reason', () => {
    const cases: [string, RegExp][] = [
      ['', /is required/],
      ['payto:not a paymail', /not a paymail/],
      ['payto:a@b.test?amount=1.5', /whole number of satoshis/],
      ['bitcoin:1BadAddress?amount=1', /not a valid address/],
      [`bitcoin:${ADDR}?amount=0.123456789`, /up to 8 decimals/],
      ['mailto:a@b.test', /"mailto:" scheme is not supported/],
      ['hello world', /not a payment URI/],
    ];
    for (const [uri, msg] of cases)
      assert.throws(
        () => parsePaymentUri(uri),
        (e: Error) => msg.test(e.message),
        uri,
      );
  });
});

describe('coin selection', () => {
  const out = (satoshis: number) => [{ satoshis, script: new P2PKH().lock(ADDR).toHex() }];
  it('prefers the smallest single coin that covers the payment', () => {
    const coins = [
      { txid: 'a', vout: 0, satoshis: 5000 },
      { txid: 'b', vout: 0, satoshis: 1200 },
      { txid: 'c', vout: 0, satoshis: 90_000 },
    ];
    const r = selectCoins(coins, out(1000), POLICY);
    assert.ok(r.ok);
    assert.deepEqual(
      r.selection.coins.map((c) => c.txid),
      ['b'],
    );
  });

  it('always covers outputs and fee, never leaves dust change, and says what is missing', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 200_000 }), { minLength: 0, maxLength: 30 }),
        fc.integer({ min: 1, max: 500_000 }),
        (values, amount) => {
          const coins = values.map((v, i) => ({ txid: `t${i}`, vout: 0, satoshis: v }));
          const r = selectCoins(coins, out(amount), POLICY);
          if (r.ok) {
            const s = r.selection;
            assert.equal(
              s.total,
              s.coins.reduce((x, c) => x + c.satoshis, 0),
            );
            assert.equal(s.total, amount + s.fee + s.change);
            assert.ok(s.fee >= 1);
            assert.ok(s.change === 0 || s.change >= POLICY.dustLimit);
          } else {
            assert.ok(r.missing > 0);
            assert.equal(r.needed - r.available, r.missing);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('engine: pay, fee manager, lookup, history (local node)', () => {
  let engine: Engine;
  let node: LocalNode;
  let admin: Credentials;
  const run = <T>(p: Promise<{ output: T }>) => p.then((r) => r.output);
  const balance = async (walletId: string) => {
    const w = (await run(engine.execute('listWallets', {}, admin, meta))).wallets.find((x) => x.walletID === walletId)!;
    return w.balance.confirmed + w.balance.unconfirmed;
  };

  beforeEach(async () => {
    ({ engine, node } = testEngine());
    const s = (await engine.execute('setup', ADMIN, {}, meta)).output;
    admin = { authToken: s.authToken, serviceId: s.serviceId };
  });

  /** Gives the suite an engine of its own (over a chain that behaves otherwise), set up with the test admin. */
  async function useEngine(options: Parameters<typeof testEngine>[0]) {
    const t = testEngine(options);
    ({ engine, node } = t);
    const s = (await engine.execute('setup', ADMIN, {}, meta)).output;
    admin = { authToken: s.authToken, serviceId: s.serviceId };
    return t;
  }

  async function fundedWallet(title: string, amounts: number[], extra: object = {}) {
    const w = await run(engine.execute('createWallet', { walletTitle: title, ...extra }, admin, meta));
    for (const a of amounts) await run(engine.execute('faucet', { walletId: w.walletID, satoshis: a }, admin, meta));
    return w.walletID;
  }

  it('pays an address from a resolved bitcoin: URI, with change, history and memo', async () => {
    const wallet = await fundedWallet('Ops', [100_000]);
    const req = await run(engine.execute('resolveUri', { uri: `bitcoin:${ADDR}?amount=0.0003&message=Invoice 7` }, admin, meta));
    assert.deepEqual([req.data.type, req.data.isBSV, req.data.memo, req.data.outputs[0].satoshis], ['bip21', false, 'Invoice 7', 30_000]);
    const paid = await run(engine.execute('pay', { data: req.data, walletId: wallet }, admin, meta));
    assert.match(paid.txid, /^[0-9a-f]{64}$/);
    assert.equal(paid.delivered, 'broadcast');
    assert.equal(paid.feePaidBy, 'wallet');
    assert.equal(await balance(wallet), 100_000 - 30_000 - paid.fee);
    assert.deepEqual(
      node.utxos(ADDR).map((u) => u.satoshis),
      [30_000],
    );
    const h = await run(engine.execute('history', { walletId: wallet }, admin, meta));
    assert.deepEqual(
      h.history.map((e) => [e.direction, e.amount, e.memo]),
      [
        ['out', -(30_000 + paid.fee), 'Invoice 7'],
        ['in', 100_000, null],
      ],
    );
    assert.equal(h.history[0].fee, paid.fee);
    assert.equal(h.history[0].confirmations, 0);
    node.mine();
    assert.equal((await run(engine.execute('history', { walletId: wallet }, admin, meta))).history[0].confirmations, 1);
  });

  it('quotes a payment before it is made: recipients as addresses, fee, balance after, or the shortfall in plain words', async () => {
    const wallet = await fundedWallet('Ops', [60_000]);
    const req = { outputs: [{ script: new P2PKH().lock(ADDR).toHex(), satoshis: 25_000 }], walletId: wallet };
    const q = await run(engine.execute('quotePayment', req, admin, meta));
    assert.deepEqual(q.recipients, [{ address: ADDR, script: req.outputs[0].script, satoshis: 25_000 }]);
    assert.equal(q.sufficient, true);
    assert.equal(q.feePaidBy, 'wallet');
    assert.equal(q.cost, 25_000 + q.fee);
    assert.equal(q.availableAfter, 60_000 - q.cost);
    assert.deepEqual(q.rate, { currency: 'USD', rate: 40 });
    const paid = await run(engine.execute('pay', req, admin, meta));
    assert.equal(paid.fee, q.fee, 'pay charges the fee the quote showed');
    assert.equal(await balance(wallet), q.availableAfter);
    const short = await run(
      engine.execute('quotePayment', { ...req, outputs: [{ script: req.outputs[0].script, satoshis: 90_000 }] }, admin, meta),
    );
    assert.equal(short.sufficient, false);
    assert.match(
      short.problem ?? '',
      /"Ops" has 0\.00034\d* BSV available; this payment needs 0\.0009\d* BSV including the network fee, so 0\.00055\d* BSV is missing/,
    );
    assert.equal(await balance(wallet), q.availableAfter, 'a quote reserves nothing');
  });

  it('pays a reviewed payment at the fee rate it was reviewed at: a rate raised since is 409 and nothing is paid', async () => {
    const rate = { satoshis: 1, bytes: 1000 };
    await useEngine({
      chain: (local) => Object.assign(Object.create(local) as typeof local, { getFeePolicy: async () => ({ ...rate, dustLimit: 1 }) }),
    });
    const w = await fundedWallet('Reviewed', [100_000]);
    const req = { outputs: [{ script: new P2PKH().lock(ADDR).toHex(), satoshis: 10_000 }], walletId: w };
    const q = (await engine.execute('quotePayment', req, admin, meta)).output;
    // The provider now asks fifty times as much per byte: the reviewed payment is not paid at that price.
    rate.satoshis = 50;
    await rejectsWith(
      engine.execute('pay', { ...req, reviewId: q.reviewId }, admin, meta),
      'CONFLICT',
      /not the one that was reviewed.*fee rate changed since \(now 50 satoshis per 1000 bytes\)/,
    );
    // The same rate written in other terms is the same review; then the pay charges the quoted fee.
    rate.satoshis = 2;
    rate.bytes = 2000;
    const paid = (await engine.execute('pay', { ...req, reviewId: q.reviewId }, admin, meta)).output;
    assert.equal(paid.fee, q.fee);
    assert.equal(await balance(w), 100_000 - 10_000 - q.fee);
  });

  it('says how much is missing and refuses dust', async () => {
    const wallet = await fundedWallet('Small', [5_000]);
    await rejectsWith(
      engine.execute('pay', { outputs: [{ script: new P2PKH().lock(ADDR).toHex(), satoshis: 9_000 }], walletId: wallet }, admin, meta),
      'INSUFFICIENT_FUNDS',
      /needs 9\d{3} satoshis including the fee; the wallet has 5000 spendable, \d+ satoshis missing/,
    );
    const p2pkh = new P2PKH().lock(ADDR).toHex();
    await rejectsWith(
      engine.execute('pay', { outputs: [{ script: p2pkh, satoshis: 0 }], walletId: wallet }, admin, meta),
      'VALIDATION_FAILED',
      /more than 0/,
    );
    await rejectsWith(
      engine.execute(
        'pay',
        {
          outputs: [
            { script: p2pkh, satoshis: 1000 },
            { script: p2pkh, satoshis: 0 },
          ],
          walletId: wallet,
        },
        admin,
        meta,
      ),
      'VALIDATION_FAILED',
      /outputs.1: 0 satoshis is below the dust limit/,
    );
    assert.equal(await balance(wallet), 5_000);
  });

  it('gives the coins and the change address back when the chain refuses the transaction', async () => {
    let refuse = true;
    await useEngine({
      chain: (local) =>
        withBroadcast(async (hex) =>
          refuse ? { status: 'rejected', txid: null, reason: 'fee-too-low', message: 'refused for the test' } : local.broadcast(hex),
        )(local),
    });
    const wallet = await fundedWallet('Ops', [5_000]);
    const req = { outputs: [{ script: new P2PKH().lock(ADDR).toHex(), satoshis: 1_000 }], walletId: wallet };
    await rejectsWith(engine.execute('pay', req, admin, meta), 'PAYMENT_REJECTED', /fee-too-low/);
    assert.equal(await balance(wallet), 5_000);
    refuse = false;
    const ok = await run(engine.execute('pay', req, admin, meta));
    assert.ok(ok.txid, 'the coin is spendable again');
    const entry = (await run(engine.execute('history', { walletId: wallet }, admin, meta))).history.find((e) => e.txid === ok.txid)!;
    assert.equal(entry.state, 'pending', 'a retry that signs the very same transaction is pending again, not failed');
    assert.equal(entry.seenByChain, true);
  });

  it("a provider's refusal is only its word: the coins stay reserved until the chain is seen to lack the transaction", async () => {
    // A provider that relays the transaction and answers "rejected" (or one that drops it): not the embedded node.
    let mode: 'relay-and-refuse' | 'drop' | 'honest' = 'relay-and-refuse';
    const refusal = { status: 'rejected' as const, txid: null, reason: 'fee-too-low' as const, message: 'refused, says the provider' };
    const t = await useEngine({
      chain: (local) => ({
        ...withBroadcast(async (hex) => {
          if (mode === 'drop') return refusal;
          const r = await local.broadcast(hex);
          return mode === 'honest' ? r : refusal;
        })(local),
        network: 'mainnet',
      }),
    });
    const req = (walletId: string) => ({ outputs: [{ script: new P2PKH().lock(ADDR).toHex(), satoshis: 1_000 }], walletId });

    const relayed = await fundedWallet('Relayed', [5_000]);
    await rejectsWith(engine.execute('pay', req(relayed), admin, meta), 'PAYMENT_REJECTED', /fee-too-low.*coins stay reserved/);
    // Its coin is not spent again meanwhile.
    await rejectsWith(engine.execute('pay', req(relayed), admin, meta), 'CONFLICT', /held by a payment/);
    t.clock.now += 31_000;
    await engine.reconcile();
    const sent = (await engine.execute('history', { walletId: relayed }, admin, meta)).output.history.find((e) => e.direction === 'out')!;
    assert.equal(node.txStatus(sent.txid).state, 'mempool', 'the provider did relay it');
    assert.equal(await balance(relayed), 5_000 - 1_000 - (sent.fee ?? 0), 'the chain has it: it is paid once, and booked');

    mode = 'drop';
    const dropped = await fundedWallet('Dropped', [5_000]);
    await rejectsWith(engine.execute('pay', req(dropped), admin, meta), 'PAYMENT_REJECTED', /fee-too-low/);
    await rejectsWith(engine.execute('pay', req(dropped), admin, meta), 'CONFLICT', /held by a payment/);
    await engine.reconcile(); // not within the window: still held
    await rejectsWith(engine.execute('pay', req(dropped), admin, meta), 'CONFLICT', /held by a payment/);
    t.clock.now += 31_000;
    await engine.reconcile();
    assert.equal(await balance(dropped), 5_000, 'the chain lacks it: the coins are back');
    mode = 'honest';
    assert.match((await engine.execute('pay', req(dropped), admin, meta)).output.txid, /^[0-9a-f]{64}$/);
    engine.close();
  });

  it('books a broadcast pay once, as the node accepts it, with its attempt finished and its audit entry in the same commit', async () => {
    const wallet = await fundedWallet('Ops', [20_000]);
    const req = { outputs: [{ script: new P2PKH().lock(ADDR).toHex(), satoshis: 3_000 }], walletId: wallet };
    const paid = await run(engine.execute('pay', req, admin, meta));
    assert.equal(paid.seenByChain, true);
    assert.equal(await balance(wallet), 20_000 - 3_000 - paid.fee, 'its coin spent, its change spendable');
    const h = (await run(engine.execute('history', { walletId: wallet }, admin, meta))).history;
    assert.deepEqual(
      h.filter((e) => e.txid === paid.txid).map((e) => [e.direction, e.amount, e.state]),
      [['out', -(3_000 + paid.fee), 'pending']],
      'one history row, booked (pending until mined)',
    );
    const audit = (await run(engine.execute('auditLog', { limit: 50 }, admin, meta))).entries.filter((e) => e.action === 'pay');
    assert.deepEqual(
      audit.map((e) => [e.target, e.outcome, e.code]),
      [[paid.txid, 'success', null]],
      'exactly one entry for the call, naming its transaction',
    );
    // A failed pay is still audited once, as a failure.
    await rejectsWith(
      engine.execute('pay', { ...req, outputs: [{ script: req.outputs[0].script, satoshis: 90_000 }] }, admin, meta),
      'INSUFFICIENT_FUNDS',
    );
    const after = (await run(engine.execute('auditLog', { limit: 50 }, admin, meta))).entries.filter((e) => e.action === 'pay');
    assert.deepEqual(
      after.map((e) => [e.outcome, e.code]),
      [
        ['error', 'INSUFFICIENT_FUNDS'],
        ['success', null],
      ],
    );
  });

  it('a payer stopped after the node took its transaction (not booked yet) finds it booked by the next settling, paid once', async () => {
    let stop = true;
    await useEngine({
      chain: (local) =>
        withBroadcast(async (hex) => {
          const r = await local.broadcast(hex);
          // The node has recorded and announced it; the payer goes no further (as if the process ended here).
          if (stop) throw new Error('the payer stopped after the broadcast');
          return r;
        })(local),
    });
    const wallet = await fundedWallet('Ops', [10_000]);
    const req = { outputs: [{ script: new P2PKH().lock(ADDR).toHex(), satoshis: 4_000 }], walletId: wallet };
    await assert.rejects(engine.execute('pay', req, admin, meta));
    assert.equal(node.utxos(ADDR).length, 1, 'the chain has it');
    const pending = (await run(engine.execute('history', { walletId: wallet }, admin, meta))).history[0];
    assert.equal(pending.seenByChain, false, 'recorded, not booked: the announcement is left to its payer');
    await rejectsWith(engine.execute('pay', req, admin, meta), 'CONFLICT', /held by a payment still in progress/);
    stop = false;
    await engine.reconcile();
    const booked = (await run(engine.execute('history', { walletId: wallet }, admin, meta))).history.find((e) => e.txid === pending.txid)!;
    assert.equal(booked.seenByChain, true);
    const fee = -booked.amount - 4_000;
    assert.equal(await balance(wallet), 10_000 - 4_000 - fee, 'its coin spent once, its change spendable');
    assert.deepEqual(
      node.utxos(ADDR).map((u) => [u.txid, u.satoshis]),
      [[pending.txid, 4_000]],
      'paid exactly once',
    );
  });

  it('an unclear outcome keeps the coins and the key until the chain settles it, and pays exactly once', async () => {
    let down = true;
    await useEngine({
      chain: (local) =>
        withBroadcast(async (hex) => (down ? { status: 'unknown', txid: null, message: 'ARC timed out' } : local.broadcast(hex)))(local),
    });
    const wallet = await fundedWallet('Ops', [10_000, 10_000]);
    const req = { outputs: [{ script: new P2PKH().lock(ADDR).toHex(), satoshis: 4_000 }], walletId: wallet, idempotencyKey: 'rent-may' };
    await rejectsWith(engine.execute('pay', req, admin, meta), 'CHAIN_UNAVAILABLE', /outcome is not known yet/);
    await rejectsWith(engine.execute('pay', req, admin, meta), 'CONFLICT', /still in progress/);
    await rejectsWith(
      engine.execute('pay', { ...req, outputs: [{ script: new P2PKH().lock(ADDR).toHex(), satoshis: 5_000 }] }, admin, meta),
      'CONFLICT',
      /different payment/,
    );
    await engine.reconcile();
    assert.equal(node.utxos(ADDR).length, 0, 'still down: nothing sent, nothing released');
    down = false;
    await engine.reconcile();
    const settled = await run(engine.execute('pay', req, admin, meta));
    assert.match(settled.txid, /^[0-9a-f]{64}$/);
    assert.deepEqual(
      node.utxos(ADDR).map((u) => [u.txid, u.satoshis]),
      [[settled.txid, 4_000]],
      'paid exactly once',
    );
    assert.equal(await balance(wallet), 20_000 - 4_000 - settled.fee);
  });

  it('a secure wallet pays only with its password; an idempotency key pays once', async () => {
    const wallet = await fundedWallet('Vault', [50_000], { type: 'secure', walletPassword: 'vault-pass-1' });
    const req = { outputs: [{ script: new P2PKH().lock(ADDR).toHex(), satoshis: 1_000 }], walletId: wallet };
    await rejectsWith(engine.execute('pay', req, admin, meta), 'WALLET_LOCKED');
    await rejectsWith(engine.execute('pay', { ...req, walletPassword: 'wrong-pass-1' }, admin, meta), 'WALLET_LOCKED');
    assert.equal(await balance(wallet), 50_000, 'nothing was reserved or spent');
    const first = await run(engine.execute('pay', { ...req, walletPassword: 'vault-pass-1', idempotencyKey: 'inv-1' }, admin, meta));
    const again = await run(engine.execute('pay', { ...req, walletPassword: 'vault-pass-1', idempotencyKey: 'inv-1' }, admin, meta));
    assert.deepEqual(again, first);
    assert.equal(node.utxos(ADDR).length, 1, 'paid once');
  });

  it('the fee manager pays the network fee of a payment', async () => {
    const fm = await run(engine.execute('feeManagerInit', {}, admin, meta));
    await rejectsWith(engine.execute('feeManagerInit', {}, admin, meta), 'CONFLICT');
    assert.equal((await run(engine.execute('listWallets', {}, admin, meta))).wallets.length, 0, 'the fee wallet is not a user wallet');
    await run(engine.execute('faucet', { address: fm.address, satoshis: 20_000 }, admin, meta));
    const wallet = await fundedWallet('Ops', [10_000]);
    const paid = await run(
      engine.execute('pay', { outputs: [{ script: new P2PKH().lock(ADDR).toHex(), satoshis: 10_000 }], walletId: wallet }, admin, meta),
    );
    assert.equal(paid.feePaidBy, 'feeManager');
    assert.equal(await balance(wallet), 0, 'the wallet paid exactly the amount, no fee');
    // History shows the fee and who paid it; the detail shows the inputs and outputs.
    const row = (await run(engine.execute('history', { walletId: wallet }, admin, meta))).history.find((h) => h.txid === paid.txid)!;
    assert.deepEqual([row.amount, row.fee, row.feePaidBy], [-10_000, paid.fee, 'feeManager']);
    const detail = await run(engine.execute('transactionDetail', { walletId: wallet, txid: paid.txid.toUpperCase() }, admin, meta));
    assert.equal(detail.unavailable, null);
    assert.deepEqual(
      detail.inputs!.map((i) => [i.satoshis, i.mine]),
      [
        [10_000, true],
        [20_000, false],
      ],
      "the wallet's coin, then the fee manager's",
    );
    const recipient = detail.outputs!.find((o) => o.address === ADDR)!;
    assert.deepEqual([recipient.satoshis, recipient.kind, recipient.mine, recipient.change], [10_000, 'p2pkh', false, false]);
    assert.equal(detail.outputs!.reduce((s, o) => s + (o.satoshis ?? 0), 0) + paid.fee, 30_000, 'inputs = outputs + fee');
    assert.ok(detail.size! > 0);
    await rejectsWith(
      engine.execute('transactionDetail', { walletId: wallet, txid: '00'.repeat(32) }, admin, meta),
      'NOT_FOUND',
      /no transaction/,
    );
    await rejectsWith(
      engine.execute('transactionDetail', { walletId: wallet, txid: 'xyz' }, admin, meta),
      'VALIDATION_FAILED',
      /txid: must be a transaction id/,
    );
    const metrics = await run(engine.execute('feeManagerMetrics', {}, admin, meta));
    assert.equal(metrics.totalBalance.balance, 20_000 - paid.fee);
    // Spent outputs are listed only when asked for; each output carries when its transaction was booked.
    assert.ok(!metrics.availableUtxos.some((u) => u.state === 'spent') && metrics.availableUtxos.some((u) => u.state === 'available'));
    assert.ok(
      metrics.availableUtxos.every((u) => typeof u.createdAt === 'number' && u.createdAt > 0),
      JSON.stringify(metrics.availableUtxos),
    );
    const withSpent = await run(engine.execute('feeManagerMetrics', { includeSpent: true }, admin, meta));
    assert.ok(withSpent.availableUtxos.some((u) => u.state === 'spent'));
    assert.equal(metrics.lowBalance, false);
    assert.equal((await run(engine.execute('feeManagerAddresses', {}, admin, meta))).addresses.length, 20);
  });

  it('lookup pages over more than 40 coins in a stable order', async () => {
    const key = PrivateKey.fromRandom();
    for (let i = 0; i < 45; i++) await node.faucet(key.toAddress(), 1000 + i);
    node.mine();
    const total = Array.from({ length: 45 }, (_, i) => 1000 + i).reduce((a, b) => a + b, 0);
    const compact = await run(engine.execute('lookup', { privateKey: key.toWif() }, admin, meta));
    assert.deepEqual(compact.coins, [{ protocol: 'BSV', balance: total, address: key.toAddress() }]);
    assert.equal(compact.totalBalance.currency, 'USD');
    assert.equal(compact.totalBalance.balance, (total * 40) / 1e8, 'not rounded, as the public service answers');
    assert.equal(compact.meta.nextPageToken, null);
    const seen: string[] = [];
    let token: number | null = 0;
    const sizes: number[] = [];
    while (token !== null) {
      const page: LookupOutput = await run(
        engine.execute('lookup', { privateKey: key.toHex(), compact: 'false', nextPageToken: token, currency: 'EUR' }, admin, meta),
      );
      assert.equal(page.coins[0].balance, total, 'the BSV entry comes first on every page');
      sizes.push(page.coins.length - 1);
      seen.push(...page.coins.slice(1).map((c) => `${c.txid}:${c.vout}`));
      token = page.meta.nextPageToken;
    }
    assert.deepEqual(sizes, [19, 19, 7]);
    assert.equal(new Set(seen).size, 45);
    // maxResults -1 is every entry (the public service's spelling); 0 or 1001 are refused with the reason.
    const all: LookupOutput = await run(
      engine.execute('lookup', { privateKey: key.toHex(), compact: 'false', maxResults: '-1' }, admin, meta),
    );
    assert.equal(all.coins.length - 1, 45);
    assert.equal(all.meta.nextPageToken, null);
    await rejectsWith(
      engine.execute('lookup', { privateKey: key.toWif(), maxResults: 0 }, admin, meta),
      'VALIDATION_FAILED',
      /maxResults: must be from 1 to 1000, or -1 for all/,
    );
    await rejectsWith(
      engine.execute('lookup', { privateKey: key.toWif(), nextPageToken: -1 }, admin, meta),
      'VALIDATION_FAILED',
      /nextPageToken: must not be negative/,
    );
    assert.deepEqual((await run(engine.execute('lookup', { privateKey: key.toWif(), type: 'STAS-20' }, admin, meta))).coins, []);
    await rejectsWith(engine.execute('lookup', { privateKey: 'nope' }, admin, meta), 'VALIDATION_FAILED', /privateKey/);
    await rejectsWith(engine.execute('lookup', { privateKey: key.toWif(), currency: 'XYZ' }, admin, meta), 'VALIDATION_FAILED', /XYZ/);
  });
});
