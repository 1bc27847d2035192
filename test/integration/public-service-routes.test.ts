import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HD, Mnemonic, PrivateKey } from '@bsv/sdk';
import { startHeadless, type Headless } from '../helpers/headless.js';
import { ADMIN, request } from '../helpers/http.js';
import { tempDir } from '../helpers/tmp.js';

const PHRASE = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const PASSWORD = 'operator-pass-1';

/**
 * The public service's routes as its SDK and scripts call them: JSON answers on every API path, the `/v1`
 * forms of enterprise operations, history in the service's shape, paymail, the account routes, and the
 * methods that mean nothing here, which answer why.
 */
describe("the public service's routes", () => {
  let host: Headless;
  let admin: Record<string, string>;
  let serviceid: string;
  const post = (path: string, body: unknown, headers: Record<string, string> = admin) => request(host.url, 'POST', path, { body, headers });
  const get = (path: string, headers: Record<string, string> = admin) => request(host.url, 'GET', path, { headers });

  async function userOf(role: string, email: string): Promise<Record<string, string>> {
    const made = await post('/api/v1/createUser', { email, password: PASSWORD, role }, { ...admin, serviceid });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const s = await post('/v1/auth', { email, password: PASSWORD }, {});
    return { authToken: s.body.data.token };
  }

  before(async () => {
    host = await startHeadless({ dataDir: tempDir(), password: 'pw', args: ['--paymail-domain', 'acme.test'] });
    const s = await post('/api/v1/setup', ADMIN, {});
    admin = { authToken: s.body.data.authToken };
    serviceid = s.body.data.serviceId;
  });
  after(() => host.stop());

  it('answers a JSON 404 for every unknown path, never the web page', async () => {
    for (const [method, path] of [
      ['GET', '/v2/nothing'],
      ['GET', '/v1/nothing'],
      ['GET', '/api/v1/nothing'],
      ['POST', '/rpc/nothing'],
      ['GET', '/somewhere/else'],
      ['DELETE', '/v2/history'],
    ]) {
      const r = await request(host.url, method, path, { headers: admin });
      assert.equal(r.status, 404, `${method} ${path}`);
      assert.match(r.headers.get('content-type') ?? '', /application\/json/, `${method} ${path}`);
      assert.equal(r.body.data.code, 'NOT_FOUND', `${method} ${path}`);
    }
  });

  it('serves the enterprise operations on /v1 without serviceid, and still refuses a wrong one; /api/v1 still requires it', async () => {
    const init = await get('/v1/initBeta');
    assert.equal(init.status, 200, JSON.stringify(init.body));
    const state = await get('/v1/feeUtxoState');
    assert.equal(state.status, 200, JSON.stringify(state.body));
    assert.deepEqual(state.body.data.totalBalance, { availableBalance: 0, dustBalance: 0, failedBalance: 0 });
    assert.deepEqual(state.body.data.allUtxos, { availableUtxos: [], dustUtxos: [], failedUtxos: [] });
    for (const path of ['/v1/feeMetricesBeta', '/v1/feeAddressBeta']) assert.equal((await get(path)).status, 200, path);
    const wrong = await get('/v1/feeUtxoState', { ...admin, serviceId: 'not-ours' });
    assert.equal(wrong.status, 403);
    assert.equal(wrong.body.data.code, 'SERVICE_MISMATCH');
    const strict = await get('/api/v1/feeUtxoState');
    assert.equal(strict.status, 403, 'the spec’s enterprise path keeps requiring serviceid');
    assert.equal((await get('/api/v1/feeUtxoState', { ...admin, serviceid })).status, 200);
    const token = await get('/v1/token/no-such-token');
    assert.equal(token.status, 404, 'token details by the credential alone: found or not, never a serviceid refusal');
  });

  it('answers history in the service shape, filters by type, prices in a currency, on /v1 and /v2', async () => {
    const wallet = (await post('/v1/createWallet', { walletTitle: 'Books' })).body.data.walletID;
    const funded = await post('/chain/faucet', { walletId: wallet, satoshis: 200_000 });
    assert.equal(funded.status, 200, JSON.stringify(funded.body));
    const to = PrivateKey.fromRandom().toAddress();
    const sent = await request(host.url, 'POST', '/v1/send', {
      body: { dataArray: [{ to, amount: 0.0005 }] },
      headers: { ...admin, walletID: wallet },
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const [txid] = sent.body.data.txIds;

    const all = await get('/v1/history', { ...admin, walletID: wallet });
    assert.equal(all.status, 200);
    assert.equal(all.body.data.history.length, 2, "Keystead's own shape stays beside");
    const fee = all.body.data.history[0].fee;
    assert.ok(fee > 0);
    const [debit, credit] = all.body.data.histories;
    assert.equal(debit.txId, txid);
    assert.equal(debit.type, 'debit');
    assert.equal(debit.balance_change, -(50_000 + fee) / 1e8);
    assert.deepEqual(debit.to, [{ to, amount: 0.0005, protocol: 'BSV' }]);
    assert.equal(debit.totalAmount, 0.0005);
    assert.equal(debit.fee, fee / 1e8);
    assert.equal(credit.type, 'credit');
    assert.equal(credit.txId, funded.body.data.txid);
    assert.equal(credit.balance_change, 0.002);
    assert.ok(!Number.isNaN(Date.parse(credit.timestamp)));

    const credits = await get('/v1/history', { ...admin, walletID: wallet, type: 'credit' });
    assert.deepEqual(
      credits.body.data.histories.map((h: any) => h.type),
      ['credit'],
    );
    const debits = await get(`/v2/history?type=debit`, { ...admin, walletID: wallet });
    assert.deepEqual(
      debits.body.data.histories.map((h: any) => h.txId),
      [txid],
    );
    const paged = await get('/v1/history', { ...admin, walletID: wallet, maxResults: '1', nextPageToken: '1' });
    assert.deepEqual(
      paged.body.data.histories.map((h: any) => h.txId),
      [funded.body.data.txid],
    );
    const rated = await get('/v1/history', { ...admin, walletID: wallet, currency: 'usd' });
    const usd = rated.body.data.histories[1].currencyValue;
    assert.equal(usd.currency, 'USD');
    assert.equal(usd.amount, (200_000 * usd.rate) / 1e8);
    const unknown = await get('/v1/history', { ...admin, walletID: wallet, currency: 'XYZ' });
    assert.equal(unknown.status, 400);
    const badType = await get('/v1/history', { ...admin, walletID: wallet, type: 'sideways' });
    assert.equal(badType.status, 400);
    assert.equal((await get('/v2/balance', { ...admin, walletID: wallet })).body.data.coins[0].balance, 200_000 - 50_000 - fee);
  });

  it('reads, renames and turns paymail on and off as the SDK sends it; only your own wallets are found', async () => {
    const made = await post('/v1/createWallet', { walletTitle: 'Ops', paymail: 'ops' });
    const wallet = made.body.data.walletID;
    assert.equal(made.body.data.paymail, 'ops@acme.test');
    for (const id of ['ops@acme.test', 'ops', 'OPS@acme.test']) {
      const r = await get(`/v1/paymail/${encodeURIComponent(id)}`);
      assert.equal(r.status, 200, `${id}: ${JSON.stringify(r.body)}`);
      assert.deepEqual(r.body.data.paymailDetails, { walletID: wallet, paymailId: 'ops', paymail: 'ops@acme.test', active: true });
    }
    const operator = await userOf('operator', 'olive@acme.io');
    assert.equal((await get('/v1/paymail/ops@acme.test', operator)).status, 404, "another user's wallet is not found");

    const renamed = await request(host.url, 'PUT', '/v1/paymail', {
      body: { newPaymailId: 'treasury' },
      headers: { ...admin, walletId: wallet },
    });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.equal(renamed.body.data.paymail, 'treasury@acme.test');
    assert.equal((await get('/v1/paymail/ops')).status, 404, 'the old alias is gone');
    assert.equal((await get('/api/bsvalias/id/treasury@acme.test', {})).status, 200, 'the new one resolves at once');
    assert.equal((await get('/api/bsvalias/id/ops@acme.test', {})).status, 404);

    const other = (await post('/v1/createWallet', { walletTitle: 'Other', paymail: 'other' })).body.data.walletID;
    const taken = await request(host.url, 'PUT', '/v1/paymail', {
      body: { newPaymailId: 'treasury' },
      headers: { ...admin, walletId: other },
    });
    assert.equal(taken.status, 409);
    const foreign = await request(host.url, 'PUT', '/v1/paymail', {
      body: { newPaymailId: 'x@elsewhere.com' },
      headers: { ...admin, walletId: other },
    });
    assert.equal(foreign.status, 400);

    // The SDK's activate puts an undefined into the path; the body says what to do.
    const off = await post('/v1/paymail/undefined', { activate: false }, { ...admin, walletId: wallet });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    assert.deepEqual([off.body.data.paymail, off.body.data.active], ['treasury@acme.test', false]);
    assert.equal(
      (await get('/v1/address', { ...admin, walletID: wallet })).body.data.paymail,
      null,
      'an inactive paymail does not receive',
    );
    assert.equal((await get('/api/bsvalias/id/treasury@acme.test', {})).status, 404);
    const on = await post('/v1/paymail/activate', { activate: true }, { ...admin, walletId: wallet });
    assert.equal(on.body.data.active, true);
    const quiet = (await post('/v1/createWallet', { walletTitle: 'Quiet', paymailActivate: false })).body.data;
    assert.equal(quiet.paymail, null, 'no paymail when the request says so');
    const woken = await post('/v1/paymail/undefined', { activate: true }, { ...admin, walletId: quiet.walletID });
    assert.match(woken.body.data.paymail, /^\d+@acme\.test$/, 'turning on a wallet without an alias gives it a numeric one');
    const missing = await post('/v1/paymail/undefined', {}, { ...admin, walletId: wallet });
    assert.equal(missing.status, 400);
  });

  it('the account routes: details, deletion, password reset and sign-up as an organisation does them', async () => {
    const me = await get('/v1/user');
    assert.equal(me.body.data.email, ADMIN.email);
    const signUp = await post('/v1/signUp', { email: 'new@acme.io', password: 'whatever-1' }, {});
    assert.equal(signUp.status, 403);
    assert.equal(signUp.body.data.code, 'SIGN_UP_CLOSED');
    assert.match(signUp.body.data.msg, /admins/);
    const reset = await post('/v1/reset/password', { email: ADMIN.email }, {});
    assert.equal(reset.status, 403);
    assert.equal(reset.body.data.code, 'PASSWORD_RESET_BY_ADMIN');

    const leaver = await userOf('manager', 'leaver@acme.io');
    const uid = (await get('/v1/user', leaver)).body.data.uid;
    const byAdmin = await post('/api/v1/resetPassword', { userId: uid });
    assert.equal(byAdmin.status, 200, JSON.stringify(byAdmin.body));
    assert.equal((await get('/v1/user', leaver)).status, 401, 'their sessions end');
    assert.equal((await post('/v1/auth', { email: 'leaver@acme.io', password: PASSWORD }, {})).status, 401, 'the old password is gone');
    const fresh = await post('/v1/auth', { email: 'leaver@acme.io', password: byAdmin.body.data.temporaryPassword }, {});
    assert.equal(fresh.status, 200);
    const session = { authToken: fresh.body.data.token };
    assert.equal((await post('/api/v1/resetPassword', { userId: uid }, session)).status, 403, 'only admins reset passwords');

    const key = (await post('/api/v1/apiKeys', { label: 'cron' }, session)).body.data;
    const byKey = await request(host.url, 'DELETE', '/v1/user', { headers: { uid: key.uid, apikey: key.apiKey } });
    assert.equal(byKey.status, 403);
    assert.equal(byKey.body.data.code, 'SESSION_REQUIRED');
    const gone = await request(host.url, 'DELETE', '/v1/user', { headers: { ...session, 'content-type': 'application/json' } });
    assert.equal(gone.status, 200, JSON.stringify(gone.body));
    assert.equal((await get('/v1/user', session)).status, 401);
    assert.equal((await post('/v1/auth', { email: 'leaver@acme.io', password: byAdmin.body.data.temporaryPassword }, {})).status, 401);
    const last = await request(host.url, 'DELETE', '/v1/user', { headers: admin });
    assert.equal(last.status, 409, 'the last admin stays');
  });

  it('the methods with no meaning here answer why, in JSON', async () => {
    for (const [method, path] of [
      ['GET', '/v1/leaderboard'],
      ['PUT', '/v1/notificationToken/undefined'],
      ['DELETE', '/admin/v1/notificationToken/undefined'],
      ['POST', '/v1/sendNotification'],
    ]) {
      const r = await request(host.url, method, path, { headers: { ...admin, 'content-type': 'application/json' } });
      assert.equal(r.status, 410, `${method} ${path}`);
      assert.equal(r.body.data.code, 'NOT_OFFERED');
      assert.match(r.body.data.msg, /Keystead/);
    }
  });

  it('the recovery phrase needs the password header, and says so', async () => {
    const r = await get('/v1/mnemonic');
    assert.equal(r.status, 403);
    assert.equal(r.body.data.code, 'PASSWORD_REQUIRED');
    assert.match(r.body.data.msg, /`password` header/);
  });

  it('an imported phrase without a derivation path is found where its coins are', async () => {
    // Funds under the common BIP44 Bitcoin path, not the service's own m/44'/236'/0'.
    const account = HD.fromSeed(Mnemonic.fromString(PHRASE).toSeed()).derive("m/44'/0'/0'");
    const address = account.deriveChild(0).deriveChild(3).privKey.toAddress();
    assert.equal((await post('/chain/faucet', { address, satoshis: 12_345 })).status, 200);
    const made = await post('/v1/createWallet', { walletTitle: 'Imported', mnemonicPhrase: PHRASE });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    assert.equal(made.body.data.derivationPath, "m/44'/0'/0'");
    const balance = await get('/v1/balance', { ...admin, walletID: made.body.data.walletID });
    assert.equal(balance.body.data.coins[0].balance, 12_345);
  });
});
