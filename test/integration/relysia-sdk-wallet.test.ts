import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startHeadless, type Headless } from '../helpers/headless.js';
import { ADMIN, request } from '../helpers/http.js';
import { orgCall, setUpOrg, type Org } from '../helpers/org.js';
import { createRelysia, refusal, SdkValidationError, type Relysia } from '../helpers/relysia-sdk.js';
import { tempDir } from '../helpers/tmp.js';

/** The public service's SDK, unchanged but for its base URL: wallet.v1, wallet.v2 balance, paymail.v1, the serviceId option. */

const DEFAULT_WALLET = '0000-00000000-00000';
const FUNDED = 150_000;

describe('the RelysiaSDK against Keystead: wallets and paymail', () => {
  let host: Headless;
  let org: Org;
  let relysia: Relysia;
  let treasury: string;
  let treasuryPaymail: string;

  before(async () => {
    host = await startHeadless({ dataDir: tempDir(), password: 'pw', args: ['--mine-interval', '0', '--paymail-domain', 'acme.test'] });
    org = await setUpOrg(host);
    relysia = createRelysia(host.url, {});
    await relysia.authentication.v1.auth({ email: ADMIN.email, password: ADMIN.password });
  });
  after(() => host?.stop());

  it('wallet.v1.createWallet: a GET with its parameters in headers; the new wallet gets a paymail alias by default', async () => {
    const d = await relysia.wallet.v1.createWallet({ walletTitle: 'Treasury', walletLogo: 'https://acme.test/logo.png' });
    const wire = relysia.sent.at(-1)!;
    assert.deepEqual([wire.method, wire.url, wire.headers.walletTitle], ['GET', `${host.url}/v1/createWallet`, 'Treasury']);
    assert.match(d.walletID, /^[0-9a-f-]{36}$/);
    assert.match(d.paymail ?? '', /^[a-z0-9._-]+@acme\.test$/, `the public service gives every wallet a paymail: ${JSON.stringify(d)}`);
    treasury = d.walletID;
    treasuryPaymail = d.paymail;
    const other = await relysia.wallet.v1.createWallet({ walletTitle: 'Petty cash' });
    assert.match(other.paymail ?? '', /@acme\.test$/);
    assert.notEqual(other.paymail, treasuryPaymail, 'aliases are unique');
  });

  it("wallet.v1.createWallet without a title makes the 'default' wallet", async () => {
    const d = await relysia.wallet.v1.createWallet();
    assert.equal(relysia.sent.at(-1)!.headers.walletTitle, 'default');
    assert.equal(d.walletID, DEFAULT_WALLET);
  });

  it('wallet.v1.wallets: wallets[] with walletID and walletTitle', async () => {
    const d = await relysia.wallet.v1.wallets();
    const titles = d.wallets.map((w: { walletTitle: string }) => w.walletTitle).sort();
    assert.deepEqual(titles, ['Petty cash', 'Treasury', 'default']);
    const t = d.wallets.find((w: { walletID: string }) => w.walletID === treasury);
    assert.equal(t.paymail, treasuryPaymail);
  });

  it('wallet.v1.address and allAddresses (header walletId)', async () => {
    const one = await relysia.wallet.v1.address({ walletId: treasury });
    assert.equal(relysia.sent.at(-1)!.headers.walletId, treasury, 'sent with the SDK’s casing');
    assert.match(one.address, /^1[1-9A-HJ-NP-Za-km-z]{25,34}$/);
    assert.equal(one.paymail, treasuryPaymail);
    const all = await relysia.wallet.v1.allAddresses({ walletId: treasury });
    assert.equal(all.addresses.length, 20);
    assert.deepEqual(all.addressess, all.addresses, 'the public service’s spelling, read by its users');
    assert.equal(all.addresses[0], one.address);
  });

  it('wallet.v1.balance and wallet.v2.balance: totalBalance and coins for what the chain holds', async () => {
    const address = (await relysia.wallet.v1.address({ walletId: treasury })).address;
    const f = await orgCall(org, 'POST', '/chain/faucet', { body: { address, satoshis: FUNDED } });
    assert.equal(f.status, 200, JSON.stringify(f.body));
    for (const d of [await relysia.wallet.v1.balance({ walletId: treasury }), await relysia.wallet.v2.balance({ walletId: treasury })]) {
      assert.equal(typeof d.totalBalance, 'object', JSON.stringify(d));
      assert.equal(typeof d.totalBalance.balance, 'number');
      const bsv = d.coins.find((c: { protocol: string }) => c.protocol === 'BSV');
      assert.equal(bsv.balance, FUNDED, JSON.stringify(d.coins));
    }
    assert.equal(relysia.sent.at(-1)!.url, `${host.url}/v2/balance`);
    const usd = await relysia.wallet.v1.balance({ walletId: treasury, currency: 'USD' });
    assert.equal(usd.totalBalance.currency, 'USD');
    // Its v2 validator allows only serviceId, walletId and currency: these never reach the server.
    const before = relysia.sent.length;
    await assert.rejects(relysia.wallet.v2.balance({ walletId: treasury, type: 'BSV' }), SdkValidationError);
    assert.equal(relysia.sent.length, before);
  });

  it('wallet.v1.metrics: the balance, the unspent outputs, and counts and volumes from the books', async () => {
    const d = await relysia.wallet.v1.metrics({ walletId: treasury });
    assert.equal(relysia.sent.at(-1)!.url, `${host.url}/v1/metrics`);
    assert.equal(d.walletID, treasury);
    assert.equal(d.data.balance, FUNDED, JSON.stringify(d));
    assert.equal(d.data.userUtxos.length, 1);
    assert.equal(d.data.userUtxos[0].value, FUNDED);
    assert.equal(d.totals.received.count, 1);
    assert.equal(d.totals.received.satoshis, FUNDED);
    assert.equal(d.totals.sent.count, 0);
  });

  it('wallet.v1.mnemonic: 403 PASSWORD_REQUIRED naming the password header (the SDK cannot send one)', async () => {
    const r = await refusal(relysia.wallet.v1.mnemonic({ walletId: treasury }), 403);
    assert.equal(r.code, 'PASSWORD_REQUIRED');
    assert.match(r.msg, /password/);
    assert.match(r.msg, /header/i);
  });

  it('wallet.v1.deleteWallet: DELETE /v1/wallet with header walletId; a wallet holding coins is refused, not emptied', async () => {
    const scratch = (await relysia.wallet.v1.createWallet({ walletTitle: 'Scratch' })).walletID;
    const d = await relysia.wallet.v1.deleteWallet({ walletId: scratch });
    assert.equal(d.walletId ?? d.walletID, scratch, JSON.stringify(d));
    const ids = (await relysia.wallet.v1.wallets()).wallets.map((w: { walletID: string }) => w.walletID);
    assert.equal(ids.includes(scratch), false);
    const held = await refusal(relysia.wallet.v1.deleteWallet({ walletId: treasury }));
    assert.match(held.msg, /coin|satoshi|balance|force/i);
    assert.equal((await relysia.wallet.v1.balance({ walletId: treasury })).coins[0].balance, FUNDED);
  });

  it('paymail.v1.getPaymailDetails: GET /v1/paymail/{paymailId}', async () => {
    const d = await relysia.paymail.v1.getPaymailDetails({ paymailId: treasuryPaymail });
    assert.equal(relysia.sent.at(-1)!.url, `${host.url}/v1/paymail/${treasuryPaymail}`);
    const details = d.paymailDetails ?? d;
    assert.equal(details.paymail, treasuryPaymail, JSON.stringify(d));
    assert.equal(details.walletID ?? details.walletId, treasury, JSON.stringify(d));
    const missing = await refusal(relysia.paymail.v1.getPaymailDetails({ paymailId: 'nobody@acme.test' }), 404);
    assert.equal(typeof missing.code, 'string');
  });

  it('paymail.v1.updatePaymail: PUT /v1/paymail {newPaymailId} renames the wallet’s paymail; the paymail host answers the new one', async () => {
    await relysia.paymail.v1.updatePaymail({ walletId: treasury, data: { newPaymailId: 'vault@acme.test' } });
    assert.deepEqual([relysia.sent.at(-1)!.method, relysia.sent.at(-1)!.url], ['PUT', `${host.url}/v1/paymail`]);
    const t = (await relysia.wallet.v1.wallets()).wallets.find((w: { walletID: string }) => w.walletID === treasury);
    assert.equal(t.paymail, 'vault@acme.test');
    assert.equal((await request(host.url, 'GET', '/api/bsvalias/id/vault@acme.test')).status, 200);
    assert.equal((await request(host.url, 'GET', `/api/bsvalias/id/${treasuryPaymail}`)).status, 404);
    treasuryPaymail = 'vault@acme.test';
  });

  it('paymail.v1.activatePaymail: POST /v1/paymail/undefined {activate} turns the paymail off and on', async () => {
    await relysia.paymail.v1.activatePaymail({ walletId: treasury, data: { activate: false } });
    assert.equal(relysia.sent.at(-1)!.url, `${host.url}/v1/paymail/undefined`, 'the SDK’s own bug');
    const off = (await relysia.wallet.v1.wallets()).wallets.find((w: { walletID: string }) => w.walletID === treasury);
    assert.equal(off.paymailActive, false);
    assert.equal((await request(host.url, 'GET', `/api/bsvalias/id/${treasuryPaymail}`)).status, 404);
    await relysia.paymail.v1.activatePaymail({ walletId: treasury, data: { activate: true } });
    const on = (await relysia.wallet.v1.wallets()).wallets.find((w: { walletID: string }) => w.walletID === treasury);
    assert.equal(on.paymailActive, true);
    assert.equal((await request(host.url, 'GET', `/api/bsvalias/id/${treasuryPaymail}`)).status, 200);
    // What the SDK meant to call works too.
    const r = await orgCall(org, 'POST', '/v1/paymail/activate', { body: { activate: true }, headers: { walletId: treasury } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  });

  it("the serviceId option: the organisation's serviceId is accepted, another is refused (403 SERVICE_MISMATCH)", async () => {
    const withService = createRelysia(host.url, { serviceId: org.serviceid });
    await withService.authentication.v1.auth(ADMIN);
    const d = await withService.wallet.v1.wallets();
    assert.equal(withService.sent.at(-1)!.headers.serviceId, org.serviceid);
    assert.ok(d.wallets.length >= 3);
    const wrong = createRelysia(host.url, { serviceId: 'not-this-organisation' });
    await wrong.authentication.v1.auth(ADMIN);
    const r = await refusal(wrong.contracts.v1.redeem({ data: { dataArray: [{ tokenId: 'x', amount: 1 }] } }), 403);
    assert.equal(r.code, 'SERVICE_MISMATCH');
  });
});
