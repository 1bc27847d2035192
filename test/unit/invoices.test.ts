import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { P2PKH, PrivateKey, SatoshisPerKilobyte, Transaction } from '@bsv/sdk';
import type { LocalNode } from '../../main/chain/local/local-node.js';
import type { Credentials } from '../../main/engine/context.js';
import type { Engine } from '../../main/engine/engine.js';
import { InvoiceBooks } from '../../main/engine/invoices/books.js';
import { invoiceUri } from '../../main/engine/invoices/present.js';
import { parsePaymentUri } from '../../main/engine/payments/uri.js';
import type { Store } from '../../main/store/database.js';
import { createRepos } from '../../main/store/repos/index.js';
import { rejectsWith } from '../helpers/assert-domain-error.js';
import { meta, testEngine } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';

const FOREIGN = PrivateKey.fromRandom().toAddress();

describe('invoice URIs', () => {
  it("are BIP-21 with the sv flag, read back exactly by Keystead's own URI reader", () => {
    const address = PrivateKey.fromRandom().toAddress();
    const uri = invoiceUri({ address, satoshis: 123_456, memo: 'Order #7 & co' });
    assert.equal(uri, `bitcoin:${address}?sv&amount=0.00123456&label=Order%20%237%20%26%20co`);
    assert.deepEqual(parsePaymentUri(uri), { kind: 'address', address, satoshis: 123_456, purpose: 'Order #7 & co', bip21: true });
    assert.deepEqual(parsePaymentUri(invoiceUri({ address, satoshis: 100_000_000, memo: null })), {
      kind: 'address',
      address,
      satoshis: 100_000_000,
      purpose: null,
      bip21: true,
    });
  });
});

describe('engine: invoices (local node)', () => {
  let engine: Engine;
  let node: LocalNode;
  let store: Store;
  let clock: { now: number };
  let admin: Credentials;
  const run = <T>(p: Promise<{ output: T }>) => p.then((r) => r.output);
  const balance = async (walletId: string, who = admin) => {
    const w = (await run(engine.execute('listWallets', {}, who, meta))).wallets.find((x) => x.walletID === walletId)!;
    return w.balance.confirmed + w.balance.unconfirmed;
  };
  const create = (input: object, who = admin) => run(engine.execute('createInvoice', input, who, meta));
  const read = (invoiceId: string, clientId = '10.0.0.1') => run(engine.execute('paymentRequest', { invoiceId }, {}, { clientId }));

  beforeEach(async () => {
    ({ engine, node, store, clock } = testEngine());
    const s = (await engine.execute('setup', ADMIN, {}, meta)).output;
    admin = { authToken: s.authToken, serviceId: s.serviceId };
  });

  async function wallet(title: string, amounts: number[] = [], who = admin) {
    const w = await run(engine.execute('createWallet', { walletTitle: title }, who, meta));
    for (const a of amounts) await run(engine.execute('faucet', { walletId: w.walletID, satoshis: a }, admin, meta));
    return w.walletID;
  }

  async function user(email: string, role: string): Promise<Credentials> {
    await run(engine.execute('createUser', { email, password: 'user-password-1', role }, admin, meta));
    const s = await run(engine.execute('login', { email, password: 'user-password-1' }, {}, meta));
    return { authToken: (s as { authToken: string }).authToken };
  }

  it('creates an invoice for a wallet on its own fresh address; anyone with the id reads it, without the wallet', async () => {
    const shop = await wallet('Shop');
    const a = await create({ walletID: shop, satoshis: 25_000, memo: 'Order 1', expiresInMinutes: 30 });
    assert.match(a.invoiceId, /^inv_[A-Za-z0-9_-]{22}$/);
    assert.deepEqual(
      [a.state, a.satoshis, a.amount, a.memo, a.walletID, a.walletTitle, a.currency],
      ['open', 25_000, 0.00025, 'Order 1', shop, 'Shop', null],
    );
    assert.equal(a.uri, `bitcoin:${a.address}?sv&amount=0.00025&label=Order%201`);
    assert.equal(Date.parse(a.expiresAt) - Date.parse(a.createdAt), 30 * 60_000);
    assert.deepEqual(a.outputs, [{ amount: 25_000, script: new P2PKH().lock(a.address).toHex() }]);
    assert.equal(a.network, 'bitcoin-sv');
    assert.equal(a.expirationTimestamp - a.creationTimestamp, 30 * 60);
    const addresses = (await run(engine.execute('walletAddresses', { walletId: shop }, admin, meta))).addresses;
    assert.ok(!addresses.includes(a.address), 'while the invoice is open, Receive never shows its address');
    const row = store.db
      .prepare<[string], { idx: number; chain: number; used: number }>('SELECT idx, chain, used FROM addresses WHERE address = ?')
      .get(a.address);
    assert.deepEqual([row?.chain, row?.used], [0, 0], 'an unused receive address of the wallet');
    assert.ok(row!.idx < 20, 'within the gap limit');

    const b = await create({ walletID: shop, satoshis: 1_000 });
    assert.notEqual(b.address, a.address, 'each open invoice waits on an address of its own');
    assert.notEqual(b.invoiceId, a.invoiceId);
    assert.equal(Date.parse(b.expiresAt) - Date.parse(b.createdAt), 24 * 3600_000, 'a day by default');

    const seen = await read(a.invoiceId);
    const { walletID, walletTitle, createdBy, ...publicPart } = a;
    assert.ok(walletID && walletTitle && createdBy);
    assert.deepEqual(seen, publicPart, 'the public read is the invoice without its wallet or creator');
    assert.ok(!JSON.stringify(seen).includes(shop));
    await rejectsWith(read('inv_nosuchinvoice000000000'), 'NOT_FOUND');
  });

  it('prices in BSV exactly, in satoshis, or in a currency at the rate of the moment (then fixed)', async () => {
    const shop = await wallet('Shop');
    assert.equal((await create({ walletID: shop, amount: 0.0001 })).satoshis, 10_000);
    assert.equal((await create({ walletID: shop, amount: '0.00000001', type: 'BSV' })).satoshis, 1);
    assert.equal((await create({ walletID: shop, amount: '2500', type: 'sat' })).satoshis, 2_500);
    const usd = await create({ walletID: shop, amount: 2, currency: 'usd' });
    assert.deepEqual([usd.satoshis, usd.currency], [5_000_000, { code: 'USD', amount: '2', rate: 40 }], '2 USD at 40 USD/BSV');
    // The public service's SDK sends the currency as `type`.
    assert.equal((await create({ walletID: shop, amount: 1, type: 'USD' })).satoshis, 2_500_000);
    await run(engine.execute('setRate', { currency: 'USD', rate: 80 }, admin, meta));
    assert.equal((await read(usd.invoiceId)).satoshis, 5_000_000, 'fixed at creation');

    await rejectsWith(create({ walletID: shop, amount: '0.123456789' }), 'VALIDATION_FAILED', /at most 8 decimals/);
    await rejectsWith(create({ walletID: shop, amount: 1, currency: 'XYZ' }), 'VALIDATION_FAILED', /XYZ is not in the rate table/);
    await rejectsWith(create({ walletID: shop, amount: 1, satoshis: 5 }), 'VALIDATION_FAILED', /not both/);
    await rejectsWith(create({ walletID: shop, memo: 'no amount' }), 'VALIDATION_FAILED', /amount: is required/);
    await rejectsWith(create({ walletID: shop, amount: -1 }), 'VALIDATION_FAILED', /amount/);
    await rejectsWith(create({ walletID: shop, satoshis: 5, expiresInMinutes: 0 }), 'VALIDATION_FAILED', /at least 1 minute/);
  });

  it("names the wallet by one of its addresses or its paymail (the SDK's `address`), never a wallet of someone else", async () => {
    const shop = await wallet('Shop');
    const some = (await run(engine.execute('walletAddresses', { walletId: shop }, admin, meta))).addresses[3];
    const inv = await create({ address: some, amount: 0.001, expirationTimeInMinuts: 15, description: 'Tea' });
    assert.deepEqual([inv.walletID, inv.satoshis, inv.memo, inv.description], [shop, 100_000, 'Tea', 'Tea']);
    assert.equal(Date.parse(inv.expiresAt) - Date.parse(inv.createdAt), 15 * 60_000);
    await rejectsWith(create({ address: FOREIGN, amount: 0.001 }), 'VALIDATION_FAILED', /not an address or paymail of a wallet of yours/);
    const other = await wallet('Other');
    await rejectsWith(create({ address: some, walletID: other, amount: 0.001 }), 'VALIDATION_FAILED', /another wallet/);

    const bob = await user('bob@acme.io', 'operator');
    await rejectsWith(create({ address: some, amount: 0.001 }, bob), 'VALIDATION_FAILED', /not an address or paymail of a wallet of yours/);
  });

  it('is paid from another Keystead wallet through pay, once; the payment is booked and the invoice says by which txid', async () => {
    const shop = await wallet('Shop');
    const buyer = await wallet('Buyer', [100_000]);
    const inv = await create({ walletID: shop, satoshis: 30_000, memo: 'Widget' });
    await rejectsWith(
      engine.execute('payInvoice', { invoiceId: inv.invoiceId, walletID: shop }, admin, meta),
      'VALIDATION_FAILED',
      /cannot be paid from the wallet it pays/,
    );
    const paid = await run(engine.execute('payInvoice', { invoiceId: inv.invoiceId, walletID: buyer }, admin, meta));
    assert.equal(paid.state, 'paid');
    assert.equal(paid.walletID, buyer);
    assert.match(paid.txid, /^[0-9a-f]{64}$/);
    assert.equal(await balance(shop), 30_000);
    assert.equal(await balance(buyer), 100_000 - 30_000 - paid.fee!);
    const after = await read(inv.invoiceId);
    assert.deepEqual([after.state, after.paidTxid], ['paid', paid.txid]);
    const history = await run(engine.execute('history', { walletId: buyer }, admin, meta));
    assert.deepEqual([history.history[0].txid, history.history[0].memo], [paid.txid, 'Widget']);

    await rejectsWith(
      engine.execute('payInvoice', { invoiceId: inv.invoiceId, walletID: buyer }, admin, meta),
      'CONFLICT',
      new RegExp(`is paid \\(txid ${paid.txid}\\)`),
    );
    assert.equal(await balance(shop), 30_000, 'never paid twice');
  });

  it('an incoming payment to its address of at least the amount marks it paid; less leaves it open', async () => {
    const shop = await wallet('Shop');
    const inv = await create({ walletID: shop, satoshis: 20_000 });
    await node.faucet(inv.address, 5_000);
    assert.equal((await read(inv.invoiceId)).state, 'open', 'a part payment does not pay it');
    const r = await node.faucet(inv.address, 20_000);
    const now = await read(inv.invoiceId);
    assert.deepEqual([now.state, now.paidTxid], ['paid', r.txid]);
    assert.equal(await balance(shop), 25_000, 'both payments are on the books');
  });

  it('expires at its time: then neither paid, nor matched, nor cancelled', async () => {
    const shop = await wallet('Shop');
    const buyer = await wallet('Buyer', [50_000]);
    const inv = await create({ walletID: shop, satoshis: 1_000, expiresInMinutes: 10 });
    clock.now += 10 * 60_000;
    assert.equal((await read(inv.invoiceId)).state, 'open', 'open up to its expiry');
    clock.now += 1;
    assert.equal((await read(inv.invoiceId)).state, 'expired');
    await rejectsWith(engine.execute('payInvoice', { invoiceId: inv.invoiceId, walletID: buyer }, admin, meta), 'CONFLICT', /expired/);
    await rejectsWith(engine.execute('cancelInvoice', { invoiceId: inv.invoiceId }, admin, meta), 'CONFLICT', /expired/);
    await node.faucet(inv.address, 1_000);
    assert.equal((await read(inv.invoiceId)).state, 'expired', 'a late payment is booked to the wallet but does not pay it');
    assert.equal(await balance(shop), 1_000);
    const listed = await run(engine.execute('listInvoices', { state: 'expired' }, admin, meta));
    assert.deepEqual(
      listed.invoices.map((i) => i.invoiceId),
      [inv.invoiceId],
    );
  });

  it('is cancelled by its creator or an admin; others cannot, and a cancelled one is not paid', async () => {
    const bob = await user('bob@acme.io', 'operator');
    const carol = await user('carol@acme.io', 'manager');
    const bobs = await wallet('Bob', [], bob);
    const inv = await create({ walletID: bobs, satoshis: 2_000 }, bob);
    await rejectsWith(engine.execute('cancelInvoice', { invoiceId: inv.invoiceId }, carol, meta), 'NOT_FOUND');
    const cancelled = await run(engine.execute('cancelInvoice', { invoiceId: inv.invoiceId }, bob, meta));
    assert.equal(cancelled.state, 'cancelled');
    await node.faucet(inv.address, 2_000);
    assert.equal((await read(inv.invoiceId)).state, 'cancelled');

    const other = await create({ walletID: bobs, satoshis: 3_000 }, bob);
    assert.equal((await run(engine.execute('cancelInvoice', { invoiceId: other.invoiceId }, admin, meta))).state, 'cancelled');
    await rejectsWith(engine.execute('cancelInvoice', { invoiceId: other.invoiceId }, bob, meta), 'CONFLICT', /cancelled/);
  });

  it("lists the invoices of the wallets a user may see (an admin: everyone's), with their states, paged", async () => {
    const bob = await user('bob@acme.io', 'operator');
    const bobs = await wallet('Bob', [], bob);
    const mine = await wallet('Mine');
    const b1 = await create({ walletID: bobs, satoshis: 1_000 }, bob);
    clock.now += 1;
    const m1 = await create({ walletID: mine, satoshis: 2_000 });
    clock.now += 1;
    const m2 = await create({ walletID: mine, satoshis: 3_000 });
    await node.faucet(m2.address, 3_000);

    const forBob = await run(engine.execute('listInvoices', {}, bob, meta));
    assert.deepEqual(
      forBob.invoices.map((i) => i.invoiceId),
      [b1.invoiceId],
    );
    const all = await run(engine.execute('listInvoices', {}, admin, meta));
    assert.deepEqual(
      all.invoices.map((i) => [i.invoiceId, i.state]),
      [
        [m2.invoiceId, 'paid'],
        [m1.invoiceId, 'open'],
        [b1.invoiceId, 'open'],
      ],
    );
    const paged = await run(engine.execute('listInvoices', { walletID: mine, maxResults: 1 }, admin, meta));
    assert.deepEqual([paged.invoices.map((i) => i.invoiceId), paged.meta.nextPageToken], [[m2.invoiceId], 1]);
    const next = await run(engine.execute('listInvoices', { walletID: mine, maxResults: 1, nextPageToken: 1 }, admin, meta));
    assert.deepEqual([next.invoices.map((i) => i.invoiceId), next.meta.nextPageToken], [[m1.invoiceId], null]);
    const open = await run(engine.execute('listInvoices', { state: 'open' }, admin, meta));
    assert.deepEqual(
      open.invoices.map((i) => i.invoiceId),
      [m1.invoiceId, b1.invoiceId],
    );
    const viewer = await user('vic@acme.io', 'viewer');
    assert.deepEqual((await run(engine.execute('listInvoices', {}, viewer, meta))).invoices, []);
    await rejectsWith(engine.execute('createInvoice', { satoshis: 1 }, viewer, meta), 'ROLE_FORBIDDEN');
  });

  it('takes a payer-built transaction (BIP-270): checks it pays in full, broadcasts it, and marks the invoice paid', async () => {
    const shop = await wallet('Shop');
    const inv = await create({ walletID: shop, satoshis: 4_000 });
    const payer = PrivateKey.fromRandom();
    const f = await node.faucet(payer.toAddress(), 10_000);
    const source = Transaction.fromHex(node.txHex(f.txid!)!);
    const build = async (satoshis: number) => {
      const tx = new Transaction();
      tx.addInput({
        sourceTransaction: source,
        sourceOutputIndex: source.outputs.findIndex((o) => o.satoshis === 10_000),
        unlockingScriptTemplate: new P2PKH().unlock(payer),
      });
      tx.addOutput({ lockingScript: new P2PKH().lock(inv.address), satoshis });
      tx.addOutput({ lockingScript: new P2PKH().lock(payer.toAddress()), change: true });
      await tx.fee(new SatoshisPerKilobyte(1));
      await tx.sign();
      return tx;
    };
    const short = await build(3_999);
    await rejectsWith(
      engine.execute('payInvoice', { invoiceId: inv.invoiceId, transaction: short.toHex() }, admin, meta),
      'VALIDATION_FAILED',
      /pays 3999 satoshis .* asks for 4000/,
    );
    await rejectsWith(
      engine.execute('payInvoice', { invoiceId: inv.invoiceId, transaction: 'abcd' }, admin, meta),
      'VALIDATION_FAILED',
      /not a transaction/,
    );
    const tx = await build(4_000);
    const paid = await run(
      engine.execute('payInvoice', { invoiceId: inv.invoiceId, transaction: tx.toHex(), memo: 'thanks', refundTo: FOREIGN }, admin, meta),
    );
    assert.deepEqual([paid.state, paid.txid, paid.walletID, paid.fee], ['paid', tx.id('hex'), null, null]);
    assert.deepEqual(paid.payment, { transaction: tx.toHex(), memo: 'thanks', merchantData: null, refundTo: FOREIGN });
    assert.equal(await balance(shop), 4_000);
  });

  it('opens again when the transaction that paid it is undone (the chain never took it)', async () => {
    const shop = await wallet('Shop');
    const inv = await create({ walletID: shop, satoshis: 1_000 });
    const r = await node.faucet(inv.address, 1_000);
    assert.equal((await read(inv.invoiceId)).state, 'paid');
    new InvoiceBooks({ repos: createRepos(store.db), now: () => clock.now }).revert(r.txid!);
    const back = await read(inv.invoiceId);
    assert.deepEqual([back.state, back.paidTxid], ['open', null]);
  });

  it('rate-limits the read without credentials, per client', async () => {
    const shop = await wallet('Shop');
    const inv = await create({ walletID: shop, satoshis: 1_000 });
    for (let i = 0; i < 30; i++) await read(inv.invoiceId, '10.9.9.9');
    await rejectsWith(read(inv.invoiceId, '10.9.9.9'), 'RATE_LIMITED', /try again in \d+ s/);
    assert.equal((await read(inv.invoiceId, '10.9.9.10')).invoiceId, inv.invoiceId, 'another client is not held back');
  });

  it('gives each invoice an address of its own, past the gap limit too, and books a payment to one past it', async () => {
    const shop = await wallet('Shop');
    const made = [];
    for (let i = 0; i < 25; i++) made.push(await create({ walletID: shop, satoshis: 1_000 + i }));
    assert.equal(new Set(made.map((m) => m.address)).size, 25);
    const last = made[24];
    await node.faucet(last.address, last.satoshis);
    assert.equal((await read(last.invoiceId)).state, 'paid', 'the books watch an address derived past the gap');
  });
});
