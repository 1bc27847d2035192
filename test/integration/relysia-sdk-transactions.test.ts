import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PrivateKey, Transaction } from '@bsv/sdk';
import { startHeadless, type Headless } from '../helpers/headless.js';
import { ADMIN, request } from '../helpers/http.js';
import { orgCall, setUpOrg, type Org } from '../helpers/org.js';
import { createRelysia, refusal, type Relysia } from '../helpers/relysia-sdk.js';
import { tempDir } from '../helpers/tmp.js';

/**
 * The public service's SDK, unchanged but for its base URL: transaction.v1 (send, rawtx, drop, inspect, pay,
 * invoices, offers and swaps), wallet.v1 history and wallet.v2 history, utility.v1. transaction.v1 can never
 * send a walletId header (its validators refuse the key its code reads), so payments leave the default wallet.
 */

const DEFAULT_WALLET = '0000-00000000-00000';
const FUNDED = 500_000;

interface Histories {
  txId: string;
  from: unknown;
  to: unknown;
  timestamp: string | number;
  balance_change: number;
  type: string;
  notes?: unknown;
}

describe('the RelysiaSDK against Keystead: transactions, history, utilities', () => {
  let host: Headless;
  let org: Org;
  let relysia: Relysia;
  let fundTxid: string;
  let sendTxid: string;
  const outside = PrivateKey.fromRandom().toAddress();

  const chainHex = async (txid: string): Promise<string> => {
    const r = await request(host.url, 'GET', `/chain/woc/v1/bsv/local/tx/${txid}/hex`);
    assert.equal(r.status, 200, `the local chain has no ${txid}`);
    return r.body as string;
  };
  const satsOf = async (walletId: string) =>
    (await relysia.wallet.v1.balance({ walletId })).coins.find((c: { protocol: string }) => c.protocol === 'BSV').balance as number;

  before(async () => {
    host = await startHeadless({ dataDir: tempDir(), password: 'pw', args: ['--mine-interval', '0', '--paymail-domain', 'acme.test'] });
    org = await setUpOrg(host);
    relysia = createRelysia(host.url, {});
    await relysia.authentication.v1.auth({ email: ADMIN.email, password: ADMIN.password });
    assert.equal((await relysia.wallet.v1.createWallet()).walletID, DEFAULT_WALLET);
    const address = (await relysia.wallet.v1.address({ walletId: DEFAULT_WALLET })).address;
    const f = await orgCall(org, 'POST', '/chain/faucet', { body: { address, satoshis: FUNDED } });
    assert.equal(f.status, 200, JSON.stringify(f.body));
    fundTxid = f.body.data.txid;
  });
  after(() => host?.stop());

  it('transaction.v1.send: pays an address from the default wallet; the chain has the transaction', async () => {
    const d = await relysia.transaction.v1.send({ data: { dataArray: [{ to: outside, amount: 0.0002 }] } });
    const wire = relysia.sent.at(-1)!;
    assert.equal('walletId' in wire.headers, false);
    assert.equal(d.txIds.length, 1, JSON.stringify(d));
    sendTxid = d.txIds[0];
    const tx = Transaction.fromHex(await chainHex(sendTxid));
    assert.ok(
      tx.outputs.some((o) => o.satoshis === 20_000),
      'the 0.0002 BSV output',
    );
    assert.ok((await satsOf(DEFAULT_WALLET)) < FUNDED - 20_000);
  });

  it('wallet.v1.history: histories[] with txId, from, to, timestamp, balance_change (BSV), type; Keystead’s history beside it', async () => {
    const d = await relysia.wallet.v1.history();
    assert.ok(Array.isArray(d.histories), `no histories[]: ${JSON.stringify(d).slice(0, 300)}`);
    assert.ok('meta' in d && 'nextPageToken' in d.meta, 'the paging token');
    const [out, inc] = d.histories as Histories[];
    assert.deepEqual([out.txId, out.type], [sendTxid, 'debit']);
    assert.ok(JSON.stringify(out.to).includes(outside), JSON.stringify(out));
    assert.ok(out.from !== undefined && out.from !== null, 'from');
    assert.ok(
      Math.abs(out.balance_change) >= 0.0002 && Math.abs(out.balance_change) < 0.001,
      `balance_change in BSV: ${out.balance_change}`,
    );
    assert.deepEqual([inc.txId, inc.type, inc.balance_change], [fundTxid, 'credit', FUNDED / 1e8]);
    for (const h of [out, inc]) {
      assert.ok(!Number.isNaN(new Date(h.timestamp).getTime()), `timestamp ${h.timestamp}`);
      assert.ok('notes' in h, `notes: ${JSON.stringify(h)}`);
    }
    assert.ok(Array.isArray(d.history), 'Keystead’s own entries stay beside');
    assert.equal(d.history[0].txid, sendTxid);
  });

  it('wallet.v1.history honours type (debit, credit, all)', async () => {
    const debit = await relysia.wallet.v1.history({ type: 'debit' });
    assert.equal(relysia.sent.at(-1)!.headers.type, 'debit');
    assert.deepEqual(
      debit.histories.map((h: Histories) => [h.txId, h.type]),
      [[sendTxid, 'debit']],
    );
    const credit = await relysia.wallet.v1.history({ type: 'credit' });
    assert.deepEqual(
      credit.histories.map((h: Histories) => [h.txId, h.type]),
      [[fundTxid, 'credit']],
    );
    const all = await relysia.wallet.v1.history({ type: 'all' });
    assert.equal(all.histories.length, 2);
  });

  it('wallet.v1.history pages with the nextPageToken header', async () => {
    const first = await relysia.wallet.v1.history();
    assert.equal(first.histories.length, 2);
    const token = first.meta.nextPageToken;
    assert.ok(token === null || token === undefined || token === '' || typeof token === 'number' || typeof token === 'string');
    if (token !== null && token !== undefined && token !== '') {
      const next = await relysia.wallet.v1.history({ nextPageToken: String(token) });
      assert.deepEqual(next.histories, []);
    }
  });

  it('wallet.v2.history: the SDK throws before sending (its own bug); GET /v2/history as written answers the same', async () => {
    const n = relysia.sent.length;
    await assert.rejects(relysia.wallet.v2.history(), /this\.validator\.history is not a function/);
    assert.equal(relysia.sent.length, n);
    const d = await relysia.wallet.v2.historyAsWritten({ walletId: DEFAULT_WALLET });
    assert.equal(relysia.sent.at(-1)!.url, `${host.url}/v2/history`);
    assert.deepEqual(
      d.histories.map((h: Histories) => h.txId),
      [sendTxid, fundTxid],
    );
  });

  it('transaction.v1.rawtx ({dataArray: [{to, amount}]}: sign without sending): refused with the reason', async () => {
    const r = await refusal(relysia.transaction.v1.rawtx({ data: { dataArray: [{ to: outside, amount: 0.0001 }] } }));
    assert.match(r.msg, /txid|transaction/i);
  });

  it('transaction.v1.inspect: decodes a raw transaction, inputs with their previous outputs, outputs with addresses', async () => {
    const hex = await chainHex(sendTxid);
    const d = await relysia.transaction.v1.inspect({ data: { dataArray: [{ swapHex: hex }] } });
    const t = d.transactions[0];
    assert.equal(t.txid, sendTxid);
    const paid = t.outputs.find((o: { address: string | null }) => o.address === outside);
    assert.equal(paid.satoshis, 20_000);
    assert.ok(
      t.inputs.every((i: { previous: unknown }) => i.previous !== null),
      'the previous outputs are on the books',
    );
    assert.equal(typeof t.fee, 'number');
  });

  it('transaction.v1.pay: pays the request the resolver answered (utility.v1.uri); the chain has it', async () => {
    // The real SDK's uri() resolves to undefined (not awaited); a script gets the request elsewhere. The replay shows the answer.
    const resolved = await relysia.utility.v1.uri({ uri: `bitcoin:${outside}?sv&amount=0.0001` });
    assert.equal(relysia.sent.at(-1)!.url, `${host.url}/v1/URI`);
    assert.equal(resolved.data.outputs[0].satoshis, 10_000);
    const d = await relysia.transaction.v1.pay({ data: resolved.data });
    assert.match(d.txid, /^[0-9a-f]{64}$/);
    await chainHex(d.txid);
  });

  it('transaction.v1.drop: sweeps a private key (header privateKey) into the default wallet; the key is left empty', async () => {
    const key = PrivateKey.fromRandom();
    const keyAddress = key.toAddress();
    const f = await orgCall(org, 'POST', '/chain/faucet', { body: { address: keyAddress, satoshis: 60_000 } });
    assert.equal(f.status, 200, JSON.stringify(f.body));
    const before = await satsOf(DEFAULT_WALLET);
    const d = await relysia.transaction.v1.drop({ privateKey: key.toWif(), data: { dataArray: [{ amount: 0.0006 }] } });
    assert.equal(d.address, keyAddress);
    assert.equal(d.bsv.satoshis, 60_000);
    assert.ok(d.bsv.received > 59_000 && d.bsv.received <= 60_000);
    await chainHex(d.bsv.txid);
    assert.equal(await satsOf(DEFAULT_WALLET), before + d.bsv.received);
    const left = (await request(host.url, 'GET', `/chain/woc/v1/bsv/local/address/${keyAddress}/unspent`)).body as unknown[];
    assert.deepEqual(left, []);
  });

  it('transaction.v1.invoice, paymentRequest and paymentRequestPay: an invoice for a wallet, read by id, paid from the default wallet', async () => {
    const shop = (await relysia.wallet.v1.createWallet({ walletTitle: 'Shop' })).walletID;
    const shopAddress = (await relysia.wallet.v1.address({ walletId: shop })).address;
    const inv = await relysia.transaction.v1.invoice({
      data: { amount: 0.0003, address: shopAddress, description: 'Order 42', memo: 'Order 42', setExpirationMinutes: 60 },
    });
    assert.equal(typeof inv.invoiceId, 'string', JSON.stringify(inv));
    assert.deepEqual([inv.state, inv.satoshis, inv.walletID], ['open', 30_000, shop]);
    assert.match(inv.uri, /^bitcoin:/);

    const read = await relysia.transaction.v1.paymentRequest({ invoiceId: inv.invoiceId });
    assert.equal(relysia.sent.at(-1)!.url, `${host.url}/v1/payment-request/${inv.invoiceId}`);
    assert.deepEqual([read.state, read.satoshis, read.memo], ['open', 30_000, 'Order 42']);

    const paid = await relysia.transaction.v1.paymentRequestPay({ invoiceId: inv.invoiceId, data: { memo: 'Paying order 42' } });
    assert.equal(relysia.sent.at(-1)!.url, `${host.url}/v1/payment-request/pay/${inv.invoiceId}`);
    assert.equal(paid.state, 'paid');
    await chainHex(paid.txid);
    const after = await relysia.transaction.v1.paymentRequest({ invoiceId: inv.invoiceId });
    assert.deepEqual([after.state, after.paidTxid], ['paid', paid.txid]);
    assert.equal(await satsOf(shop), 30_000);
  });

  it('transaction.v1.invoice with the host option (it replaces the Host header): refused, 403 HOST_FORBIDDEN, as any foreign Host is', async () => {
    const shop = (await relysia.wallet.v1.wallets()).wallets.find((w: { walletTitle: string }) => w.walletTitle === 'Shop').walletID;
    const address = (await relysia.wallet.v1.address({ walletId: shop })).address;
    const r = await refusal(relysia.transaction.v1.invoice({ host: 'pay.acme.test', data: { amount: 0.0001, address } }), 403);
    assert.equal(relysia.sent.at(-1)!.headers.host, 'pay.acme.test');
    assert.equal(r.code, 'HOST_FORBIDDEN');
    assert.match(r.msg, /127\.0\.0\.1|localhost/);
  });

  // Swaps are offered (issue 30 §2; the whole flow is test/integration/swaps.test.ts): a malformed call is a JSON
  // answer that says what is wrong, never the unknown-route 404 nor the old 410.
  for (const [name, body, status, code] of [
    ['offer', { dataArray: [{ type: 'BSV', amount: 0.0001 }] }, 400, 'VALIDATION_FAILED'],
    ['swap', { dataArray: [{ swapHex: '00' }] }, 400, 'VALIDATION_FAILED'],
    ['exchangeOffer', { dataArray: [{ type: 'BSV', amount: 0.0001 }] }, 400, 'VALIDATION_FAILED'],
    ['exchangeSwap', { dataArray: [{ swapId: 'abc' }] }, 404, 'NOT_FOUND'],
  ] as const) {
    it(`transaction.v1.${name}: the route exists and answers a malformed call with ${status} ${code}`, async () => {
      const fn = relysia.transaction.v1[name] as (o: object) => Promise<unknown>;
      const r = await refusal(fn({ data: body }), status);
      assert.equal(r.code, code, r.msg);
    });
  }

  it('utility.v1.post: writes the notes on chain from the wallet named by the walletID header', async () => {
    // The real SDK resolves post/upload to undefined (not awaited); the replay shows the answer.
    const d = await relysia.utility.v1.post({
      walletID: DEFAULT_WALLET,
      serviceid: org.serviceid,
      data: { dataArray: [{ notes: ['hello from a script', { order: 42 }] }] },
    });
    assert.equal(relysia.sent.at(-1)!.headers.walletID, DEFAULT_WALLET);
    const tx = Transaction.fromHex(await chainHex(d.txid));
    const data = tx.outputs[d.vout];
    assert.equal(data.satoshis, 0);
    assert.ok(Buffer.from(data.lockingScript.toHex(), 'hex').includes(Buffer.from('hello from a script')));
  });

  it('utility.v1.upload: writes a file in the B:// layout', async () => {
    const d = await relysia.utility.v1.upload({
      walletID: DEFAULT_WALLET,
      serviceid: org.serviceid,
      data: { fileUrl: `data:text/plain;base64,${Buffer.from('a small file').toString('base64')}`, fileName: 'note.txt' },
    });
    assert.equal(d.contentType, 'text/plain');
    const script = Buffer.from(Transaction.fromHex(await chainHex(d.txid)).outputs[d.vout].lockingScript.toHex(), 'hex');
    for (const part of ['19HxigV4QyBv3tHpQVcUEQyq1pzZVdoAut', 'a small file', 'text/plain', 'note.txt'])
      assert.ok(script.includes(Buffer.from(part)), part);
  });

  it('utility.v1.currencyConversion: headers satoshis and currency, at the rate table’s rate', async () => {
    const rate = await orgCall(org, 'POST', '/v1/rates', { body: { currency: 'USD', rate: 40 } });
    assert.equal(rate.status, 200, JSON.stringify(rate.body));
    const d = await relysia.utility.v1.currencyConversion({ satoshis: '250000000', currency: 'USD' });
    assert.equal(relysia.sent.at(-1)!.headers.satoshis, '250000000');
    assert.deepEqual([d.currency, d.balance], ['USD', 100]);
  });

  it('utility.v1.compile sends no body (its own bug): 400 naming sourceCode', async () => {
    const r = await refusal(relysia.utility.v1.compile({ sourceCode: 'contract A {}' }), 400);
    assert.equal(relysia.sent.at(-1)!.body, '');
    assert.equal(relysia.sent.at(-1)!.headers['Content-Length'], '0');
    assert.match(r.msg, /sourceCode/);
  });

  it('utility.v1.transpile: Solidity to sCrypt, header force keeps the output despite errors', async () => {
    const src = Buffer.from('contract A {\n  uint x;\n  function f() public { x = block.number; }\n}\n').toString('base64');
    const failed = await refusal(relysia.utility.v1.transpile({ data: { sourceCode: src } }), 400);
    assert.equal(failed.code, 'TRANSPILE_FAILED');
    const d = await relysia.utility.v1.transpile({ force: true, data: { sourceCode: src } });
    assert.equal(relysia.sent.at(-1)!.headers.force, 'true');
    assert.match(d.scrypt, /contract A/);
  });
});
