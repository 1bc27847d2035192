import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startHeadless } from '../helpers/headless.js';
import { request, requestAs } from '../helpers/http.js';
import { createOrgWallet, orgCall, setUpOrg, type Org } from '../helpers/org.js';
import { tempDir } from '../helpers/tmp.js';
import { until } from '../helpers/until.js';
import { Utils } from '@bsv/sdk';

/** The 20-byte hash a P2PKH address carries. */
const fromBase58Check = (address: string) => Utils.fromBase58Check(address).data as number[];

/**
 * The public service's SDK (vaionex/RelysiaSDK, transaction.v1) as it sends its invoice methods: axios's
 * default headers, the token as `authToken`, nothing else (no wallet id, no serviceId: the transaction
 * module drops it), the body as the method builds it.
 */
const sdkHeaders = (o: Org) => ({
  // axios spells it Content-Type; header names are case-insensitive (the test client would add a second one).
  'content-type': 'application/json',
  Accept: 'application/json',
  'User-Agent': 'axios/0.22.0',
  authToken: o.auth.authToken,
});
const sdk = {
  invoice: (o: Org, data: object) => request(o.host.url, 'POST', '/v1/invoice', { headers: sdkHeaders(o), body: data }),
  paymentRequest: (o: Org, invoiceId: string) => request(o.host.url, 'GET', `/v1/payment-request/${invoiceId}`, { headers: sdkHeaders(o) }),
  paymentRequestPay: (o: Org, invoiceId: string, data: object) =>
    request(o.host.url, 'POST', `/v1/payment-request/pay/${invoiceId}`, { headers: sdkHeaders(o), body: data }),
};

const addressOf = async (o: Org, walletID: string) => (await orgCall(o, 'GET', '/v1/address', { headers: { walletID } })).body.data.address;

async function fund(node: Org, address: string, satoshis: number): Promise<void> {
  const r = await orgCall(node, 'POST', '/chain/faucet', { body: { address, satoshis } });
  assert.equal(r.status, 200, JSON.stringify(r.body));
}

/** What anyone reads of an invoice, without credentials. */
const publicRead = (o: Org, id: string) => request(o.host.url, 'GET', `/v1/payment-request/${id}`);

describe('invoices over HTTP, as the SDK sends them, between two instances on one local chain', () => {
  let a: Org;
  let b: Org;
  let shop: string;
  let bob: string;

  before(async () => {
    a = await setUpOrg(await startHeadless({ dataDir: tempDir(), password: 'pw-a', args: ['--mine-interval', '0'] }));
    b = await setUpOrg(
      await startHeadless({
        dataDir: tempDir(),
        password: 'pw-b',
        args: ['--network', 'remote', '--remote-url', a.host.url, '--sync-interval', '1'],
      }),
    );
    shop = await createOrgWallet(a, { walletTitle: 'Shop' });
    bob = await createOrgWallet(b, { walletTitle: 'Bob' });
    await fund(a, await addressOf(b, bob), 300_000);
    await until('B to see its funds', async () => {
      const w = (await orgCall(b, 'GET', '/v1/wallets')).body.data.wallets.find((x: { walletID: string }) => x.walletID === bob);
      return w.balance.confirmed + w.balance.unconfirmed === 300_000 ? true : undefined;
    });
  });
  after(async () => {
    await b?.host.stop();
    await a?.host.stop();
  });

  it('invoice(): creates it from the body the SDK builds (address names the wallet), with an id and a payment URI', async () => {
    const r = await sdk.invoice(a, {
      type: 'BSV',
      amount: 0.0002,
      address: await addressOf(a, shop),
      description: 'Two coffees',
      setExpirationMinutes: 60,
      memo: 'Table 4',
      merchantData: '{"order":17}',
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const d = r.body.data;
    assert.deepEqual([r.body.statusCode, d.status, d.msg], [200, 'success', 'Invoice created successfully.']);
    assert.match(d.invoiceId, /^inv_/);
    assert.deepEqual(
      [d.state, d.satoshis, d.amount, d.memo, d.description, d.merchantData, d.walletID],
      ['open', 20_000, 0.0002, 'Table 4', 'Two coffees', '{"order":17}', shop],
    );
    assert.equal(d.uri, `bitcoin:${d.address}?sv&amount=0.0002&label=Table%204`);
    assert.equal(Date.parse(d.expiresAt) - Date.parse(d.createdAt), 60 * 60_000);
  });

  it('paymentRequest(): anyone with the id reads it, credentials or not, and learns nothing of the wallet', async () => {
    const inv = (await orgCall(a, 'POST', '/v1/invoice', { body: { walletID: shop, satoshis: 12_345, memo: 'Rent' } })).body.data;
    const viaSdk = await sdk.paymentRequest(a, inv.invoiceId);
    assert.equal(viaSdk.status, 200, JSON.stringify(viaSdk.body));
    const anon = await publicRead(a, inv.invoiceId);
    assert.equal(anon.status, 200, JSON.stringify(anon.body));
    assert.deepEqual(anon.body, viaSdk.body);
    const d = anon.body.data;
    assert.deepEqual(
      [d.invoiceId, d.state, d.satoshis, d.address, d.memo, d.uri, d.expiresAt],
      [inv.invoiceId, 'open', 12_345, inv.address, 'Rent', inv.uri, inv.expiresAt],
    );
    assert.equal(d.walletID, undefined);
    assert.equal(d.walletTitle, undefined);
    assert.ok(!JSON.stringify(anon.body).includes(shop), 'no wallet id anywhere in the public answer');
    const missing = await publicRead(a, 'inv_doesnotexist0000000000');
    assert.deepEqual([missing.status, missing.body.data.code], [404, 'NOT_FOUND']);
  });

  it("is paid from another instance through Keystead's own pay-from-URI flow; the payee's books mark it paid", async () => {
    const inv = (await orgCall(a, 'POST', '/v1/invoice', { body: { walletID: shop, satoshis: 40_000, memo: 'Invoice 9' } })).body.data;
    const resolved = await orgCall(b, 'POST', '/v1/URI', { body: { uri: inv.uri } });
    assert.equal(resolved.status, 200, JSON.stringify(resolved.body));
    assert.deepEqual([resolved.body.data.data.outputs[0].satoshis, resolved.body.data.data.memo], [40_000, 'Invoice 9']);
    const paid = await orgCall(b, 'POST', '/v1/pay', { body: resolved.body.data, headers: { walletID: bob } });
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    const seen = await until('A to mark the invoice paid', async () => {
      const r = await publicRead(a, inv.invoiceId);
      return r.body.data.state === 'paid' ? r.body.data : undefined;
    });
    assert.equal(seen.paidTxid, paid.body.data.txid);
  });

  it("an invoice of the remote instance is paid from the node's instance; the remote one sees it by polling", async () => {
    const inv = (await orgCall(b, 'POST', '/v1/invoice', { body: { walletID: bob, amount: '0.0005' } })).body.data;
    const alice = await createOrgWallet(a, { walletTitle: 'Alice' });
    await fund(a, await addressOf(a, alice), 100_000);
    const resolved = await orgCall(a, 'GET', '/v1/URI', { headers: { uri: inv.uri } });
    const paid = await orgCall(a, 'POST', '/v1/pay', { body: resolved.body.data, headers: { walletID: alice } });
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    const seen = await until('B to mark its invoice paid', async () => {
      const r = await publicRead(b, inv.invoiceId);
      return r.body.data.state === 'paid' ? r.body.data : undefined;
    });
    assert.equal(seen.paidTxid, paid.body.data.txid);
    const listed = await orgCall(b, 'GET', '/v1/invoices?state=paid');
    assert.deepEqual(
      listed.body.data.invoices.map((i: { invoiceId: string }) => i.invoiceId),
      [inv.invoiceId],
    );
  });

  it('paymentRequestPay(): pays from the caller’s default wallet (the SDK sends no wallet id), once', async () => {
    const inv = (await orgCall(a, 'POST', '/v1/invoice', { body: { walletID: shop, satoshis: 7_000 } })).body.data;
    const before = await sdk.paymentRequestPay(a, inv.invoiceId, { memo: 'from the script', merchantData: '{"order":18}' });
    assert.equal(before.status, 400, 'the default wallet is empty yet');
    assert.equal(before.body.data.code, 'INSUFFICIENT_FUNDS');
    await fund(a, await addressOf(a, '0000-00000000-00000'), 50_000);
    const r = await sdk.paymentRequestPay(a, inv.invoiceId, { memo: 'from the script', merchantData: '{"order":18}' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const d = r.body.data;
    assert.deepEqual([d.status, d.msg, d.invoiceId, d.state], ['success', 'Invoice paid successfully.', inv.invoiceId, 'paid']);
    assert.deepEqual(d.payment, { transaction: null, memo: 'from the script', merchantData: '{"order":18}', refundTo: null });
    assert.match(d.txid, /^[0-9a-f]{64}$/);
    assert.equal((await publicRead(a, inv.invoiceId)).body.data.paidTxid, d.txid);
    const again = await sdk.paymentRequestPay(a, inv.invoiceId, {});
    assert.deepEqual([again.status, again.body.data.code], [409, 'CONFLICT']);
  });

  it('lists invoices with their states, and cancels an open one', async () => {
    const inv = (await orgCall(a, 'POST', '/v1/invoice', { body: { walletID: shop, satoshis: 3_000 } })).body.data;
    const cancelled = await orgCall(a, 'DELETE', `/v1/invoice/${inv.invoiceId}`);
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    assert.equal(cancelled.body.data.state, 'cancelled');
    const twice = await orgCall(a, 'DELETE', `/v1/invoice/${inv.invoiceId}`);
    assert.deepEqual([twice.status, twice.body.data.code], [409, 'CONFLICT']);
    const list = await orgCall(a, 'GET', '/v1/invoices', { headers: { walletID: shop } });
    assert.equal(list.status, 200, JSON.stringify(list.body));
    const states = list.body.data.invoices.map((i: { state: string }) => i.state);
    assert.equal(states[0], 'cancelled', 'newest first');
    assert.ok(states.includes('paid') && states.includes('open'), JSON.stringify(states));
    const viaRpc = await orgCall(a, 'POST', '/rpc/listInvoices', { body: { walletId: shop, state: 'cancelled' } });
    assert.deepEqual(
      viaRpc.body.data.invoices.map((i: { invoiceId: string }) => i.invoiceId),
      [inv.invoiceId],
    );
  });

  it('an address an open invoice waits on is handed out for nothing else: Receive, the paymail host', async () => {
    const held = (await orgCall(a, 'POST', '/v1/invoice', { body: { walletID: shop, satoshis: 7_000, memo: 'Held' } })).body.data;
    const all = (await orgCall(a, 'GET', '/v1/allAddresses', { headers: { walletID: shop } })).body.data.addresses;
    assert.ok(!all.includes(held.address), 'the Receive view never shows it');
    assert.notEqual(await addressOf(a, shop), held.address);
    const paymail = (await orgCall(a, 'GET', '/v1/wallets')).body.data.wallets.find(
      (w: { walletID: string }) => w.walletID === shop,
    ).paymail;
    const heldScript = `76a914${Buffer.from(fromBase58Check(held.address)).toString('hex')}88ac`;
    for (let i = 0; i < 25; i++) {
      const r = await request(a.host.url, 'POST', `/api/bsvalias/p2p-payment-destination/${paymail}`, { body: { satoshis: 1000 } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      for (const o of r.body.outputs) assert.notEqual(o.script, heldScript, 'a stranger is never given it');
    }
    await orgCall(a, 'DELETE', `/v1/invoice/${held.invoiceId}`);
  });

  it('refuses what it cannot do with a JSON error: no amount, a foreign address, no credentials, a Host header of its own', async () => {
    const noAmount = await sdk.invoice(a, { address: await addressOf(a, shop) });
    assert.deepEqual([noAmount.status, noAmount.body.data.code], [400, 'VALIDATION_FAILED']);
    const foreign = await sdk.invoice(a, { amount: 0.001, address: await addressOf(b, bob) });
    assert.deepEqual([foreign.status, foreign.body.data.code], [400, 'VALIDATION_FAILED']);
    assert.match(foreign.body.data.msg, /not an address or paymail of a wallet of yours/);
    const anon = await request(a.host.url, 'POST', '/v1/invoice', { body: { walletID: shop, satoshis: 1_000 } });
    assert.equal(anon.status, 401);
    // The SDK's `host` option replaces the Host header, which this server answers only for loopback names.
    const hosted = await requestAs('shop.example', a.host.url, 'POST', '/v1/invoice', {
      headers: { authToken: a.auth.authToken },
      body: { amount: 0.001, address: await addressOf(a, shop) },
    });
    assert.deepEqual([hosted.status, hosted.body.data.code], [403, 'HOST_FORBIDDEN']);
  });
});
