import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startHeadless, type Headless } from '../helpers/headless.js';
import { ADMIN, request } from '../helpers/http.js';
import { orgCall, setUpOrg, type Org } from '../helpers/org.js';
import { createRelysia, refusal, SdkValidationError } from '../helpers/relysia-sdk.js';
import { tempDir } from '../helpers/tmp.js';

/**
 * The public service's SDK, unchanged but for its base URL: authentication.v1, user.v1, delete.v1,
 * notification.v1, the leaderboard, and the JSON answers for paths that do not exist.
 */

const OLGA = { email: 'olga@acme.io', password: 'operator-pass-1' };
const DAN = { email: 'dan@acme.io', password: 'operator-pass-2' };

/** RFC 6238 with node:crypto only (an oracle independent of the server's own implementation). */
function totpAt(secretBase32: string, timeMs: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of secretBase32.replace(/=+$/, '').toUpperCase()) bits += alphabet.indexOf(c).toString(2).padStart(5, '0');
  const key = Buffer.from(bits.match(/.{8}/g)!.map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(timeMs / 30_000)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const o = mac[mac.length - 1] & 0x0f;
  return String((mac.readUInt32BE(o) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

describe('the RelysiaSDK against Keystead: authentication, user, delete, notification', () => {
  let host: Headless;
  let org: Org;

  before(async () => {
    host = await startHeadless({ dataDir: tempDir(), password: 'pw', args: ['--mine-interval', '0'] });
    org = await setUpOrg(host);
    for (const u of [OLGA, DAN]) {
      const r = await orgCall(org, 'POST', '/api/v1/createUser', { body: { ...u, role: 'operator' } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
  });
  after(() => host?.stop());

  it('authentication.v1.auth: token kept from data.token, sent as the authToken header; a wrong password is a 401 envelope', async () => {
    const relysia = createRelysia(host.url, {});
    const d = await relysia.authentication.v1.auth({ email: ADMIN.email, password: ADMIN.password });
    assert.equal(typeof d.token, 'string');
    assert.equal(relysia.authentication.v1.getAuthToken(), d.token);
    const wire = relysia.sent[0];
    assert.equal(wire.url, `${host.url}/v1/auth`);
    assert.equal(wire.headers['Content-Type'], 'application/json');
    assert.equal('serviceId' in wire.headers, false, 'the SDK never sends serviceId on auth');

    const wrong = createRelysia(host.url, {});
    const r = await refusal(wrong.authentication.v1.auth({ email: ADMIN.email, password: 'not-it-at-all' }), 401);
    assert.equal(typeof r.code, 'string');
    assert.equal(wrong.authentication.v1.getAuthToken(), undefined);
  });

  it('a token given to the constructor (or setAuthToken) works like one from auth', async () => {
    const first = createRelysia(host.url, {});
    const { token } = await first.authentication.v1.auth(ADMIN);
    const given = createRelysia(host.url, { authToken: token });
    const d = await given.user.v1.getUserDetails();
    assert.equal((d.userDetails ?? d).email, ADMIN.email, JSON.stringify(d));
    const none = createRelysia(host.url, {});
    await assert.rejects(none.user.v1.getUserDetails(), /You must logged In/);
    assert.equal(none.sent.length, 0, 'the SDK checks the token before sending');
    none.authentication.v1.setAuthToken(token);
    assert.ok(await none.user.v1.getUserDetails());
  });

  it("user.v1.getUserDetails: GET /v1/user answers the signed-in user's details", async () => {
    const relysia = createRelysia(host.url, {});
    await relysia.authentication.v1.auth(OLGA);
    const d = await relysia.user.v1.getUserDetails();
    const details = d.userDetails ?? d;
    assert.equal(details.email, OLGA.email, JSON.stringify(d));
    assert.equal(details.role, 'operator', JSON.stringify(d));
    assert.equal(typeof (details.uid ?? details.userId), 'string', JSON.stringify(d));
    assert.equal(JSON.stringify(d).includes(OLGA.password), false);
  });

  it('authentication.v1.signUp: 403, accounts are created by the organisation’s admins', async () => {
    const relysia = createRelysia(host.url, {});
    const r = await refusal(relysia.authentication.v1.signUp({ email: 'eve@acme.io', password: 'eve-pass-123' }), 403);
    assert.equal(r.code, 'SIGN_UP_CLOSED');
    assert.match(r.msg, /admin/i);
    assert.equal(relysia.sent[0].url, `${host.url}/v1/signUp`);
    assert.equal(relysia.authentication.v1.getAuthToken(), undefined);
    const login = await request(host.url, 'POST', '/v1/auth', { body: { email: 'eve@acme.io', password: 'eve-pass-123' } });
    assert.equal(login.status, 401, 'no account was made');
  });

  it('authentication.v1.resetPassword (sent without a token): a clear answer naming the admins; the password is unchanged', async () => {
    const relysia = createRelysia(host.url, {});
    const r = await refusal(relysia.authentication.v1.resetPassword({ email: OLGA.email }), 403);
    assert.equal(relysia.sent[0].url, `${host.url}/v1/reset/password`);
    assert.equal(r.code, 'PASSWORD_RESET_BY_ADMIN');
    assert.match(r.msg, /admin/i);
    const still = await request(host.url, 'POST', '/v1/auth', { body: OLGA });
    assert.equal(still.status, 200, JSON.stringify(still.body));
  });

  it('authentication.v1.sendOtp / validateOtp without two-step sign-in: 409 OTP_NOT_ENROLLED', async () => {
    const relysia = createRelysia(host.url, {});
    await relysia.authentication.v1.auth(ADMIN);
    const s = await refusal(relysia.authentication.v1.sendOtp({ from: 'Acme', to: ADMIN.email, message: 'Your code' }), 409);
    assert.equal(s.code, 'OTP_NOT_ENROLLED');
    const v = await refusal(relysia.authentication.v1.validateOtp({ to: ADMIN.email, otp: '123456' }), 409);
    assert.equal(v.code, 'OTP_NOT_ENROLLED');
  });

  it('authentication.v1.sendOtp / validateOtp map onto time-based codes once enrolled; sign-in then asks for a code', async () => {
    const relysia = createRelysia(host.url, {});
    const { token } = await relysia.authentication.v1.auth(OLGA);
    const start = await request(host.url, 'POST', '/api/v1/twoStep/start', { headers: { authToken: token } });
    assert.equal(start.status, 200, JSON.stringify(start.body));
    const secret = start.body.data.secret as string;
    const now = Date.now();
    const confirm = await request(host.url, 'POST', '/api/v1/twoStep/confirm', {
      headers: { authToken: token },
      body: { otp: totpAt(secret, now) },
    });
    assert.equal(confirm.status, 200, JSON.stringify(confirm.body));

    const sent = await relysia.authentication.v1.sendOtp({ from: 'Acme', to: OLGA.email, message: 'Your code is {otp}' });
    assert.equal(sent.sent, false, 'Keystead sends no codes: the authenticator app shows them');
    assert.match(sent.msg, /authenticator/i);

    const wrongCode = ['000000', '111111'].find((c) => ![-1, 0, 1, 2].some((k) => totpAt(secret, now + k * 30_000) === c))!;
    const bad = await refusal(relysia.authentication.v1.validateOtp({ to: OLGA.email, otp: wrongCode }), 403);
    assert.equal(bad.code, 'OTP_INVALID');
    // The next step's code: the confirmation used this step's, and a code is accepted once.
    const ok = await relysia.authentication.v1.validateOtp({ to: OLGA.email, otp: totpAt(secret, now + 30_000) });
    assert.equal(ok.valid, true);

    const again = createRelysia(host.url, {});
    const r = await refusal(again.authentication.v1.auth(OLGA), 401);
    assert.equal(r.code, 'OTP_REQUIRED');
    assert.equal(again.authentication.v1.getAuthToken(), undefined);
  });

  it('delete.v1.deleteUserAccount: DELETE /v1/user removes the caller; the last admin is refused with a clear error', async () => {
    // The real SDK resolves these to undefined (it does not await the request); the replay shows the answer.
    const admin = createRelysia(host.url, {});
    await admin.authentication.v1.auth(ADMIN);
    const last = await refusal(admin.delete.v1.deleteUserAccount(), 409);
    assert.match(last.msg, /admin/i);
    assert.ok(await admin.user.v1.getUserDetails(), 'the admin is still there');

    const dan = createRelysia(host.url, {});
    await dan.authentication.v1.auth(DAN);
    await dan.delete.v1.deleteUserAccount();
    assert.equal(dan.sent.at(-1)!.method, 'DELETE');
    assert.equal(dan.sent.at(-1)!.url, `${host.url}/v1/user`);
    const gone = await refusal(dan.user.v1.getUserDetails(), 401);
    assert.equal(typeof gone.code, 'string');
    const login = await request(host.url, 'POST', '/v1/auth', { body: DAN });
    assert.equal(login.status, 401);
  });

  it('delete.v1.deleteAllWallets: DELETE /v1/wallets removes every empty wallet of the caller', async () => {
    const relysia = createRelysia(host.url, {});
    await relysia.authentication.v1.auth(ADMIN);
    const a = (await relysia.wallet.v1.createWallet({ walletTitle: 'One' })).walletID;
    const b = (await relysia.wallet.v1.createWallet({ walletTitle: 'Two' })).walletID;
    const d = await relysia.delete.v1.deleteAllWallets();
    assert.deepEqual([...d.deleted].sort(), [a, b].sort());
    assert.deepEqual((await relysia.wallet.v1.wallets()).wallets, []);
  });

  it('wallet.v1.leaderboard: a 4xx envelope saying it has no meaning here and what to use instead', async () => {
    const relysia = createRelysia(host.url, {});
    await relysia.authentication.v1.auth(ADMIN);
    const r = await refusal(relysia.wallet.v1.leaderboard({ tokenId: 'abc-PTS' }), 410);
    assert.equal(r.code, 'NOT_OFFERED');
    assert.match(r.msg, /(GET )?\/v1\/(events|tokens|balance)/);
    // Its own bug: no login check, so without a token Node refuses the undefined header before sending.
    const none = createRelysia(host.url, {});
    await assert.rejects(none.wallet.v1.leaderboard({ tokenId: 'x' }), { code: 'ERR_HTTP_INVALID_HEADER_VALUE' });
    assert.equal(none.sent.length, 0);
  });

  it('notification.v1.notificationToken (PUT /v1/notificationToken/undefined) and sendNotification: 4xx pointing to the event stream', async () => {
    const relysia = createRelysia(host.url, {});
    await relysia.authentication.v1.auth(ADMIN);
    const t = await refusal(relysia.notification.v1.notificationToken({ data: { expoNotificationToken: 'ExponentPushToken[abc]' } }), 410);
    assert.equal(t.code, 'NOT_OFFERED');
    assert.equal(relysia.sent.at(-1)!.url, `${host.url}/v1/notificationToken/undefined`);
    assert.match(t.msg, /\/v1\/events|event stream/i);
    const s = await refusal(
      relysia.notification.v1.sendNotification({ data: { type: 'payment', userAddress: 'x', amount: 1, transactionType: 'credit' } }),
      410,
    );
    assert.equal(s.code, 'NOT_OFFERED');
    assert.match(s.msg, /\/v1\/events|event stream/i);
  });

  it('delete.v1.notificationToken (DELETE /admin/v1/notificationToken/undefined, no token): 410 NOT_OFFERED', async () => {
    const relysia = createRelysia(host.url, {});
    await relysia.authentication.v1.auth(ADMIN);
    const r = await refusal(relysia.delete.v1.notificationToken(), 410);
    const wire = relysia.sent.at(-1)!;
    assert.equal(wire.url, `${host.url}/admin/v1/notificationToken/undefined`);
    assert.equal('authToken' in wire.headers, false);
    assert.equal(r.code, 'NOT_OFFERED');
    await assert.rejects(relysia.delete.v1.notificationToken({ data: {} }), SdkValidationError);
  });

  it('unknown paths under /v1, /v2, /api, /rpc answer a JSON 404, never the web page', async () => {
    const { token } = await createRelysia(host.url, {}).authentication.v1.auth(ADMIN);
    for (const [method, path] of [
      ['GET', '/v1/noSuchThing'],
      ['GET', '/v2/noSuchThing'],
      ['GET', '/v2/wallets'],
      ['POST', '/v1/noSuchThing'],
      ['GET', '/api/noSuchThing'],
      ['GET', '/api/v1/noSuchThing'],
      ['GET', '/rpc/noSuchThing'],
      ['POST', '/rpc/noSuchThing'],
    ]) {
      const r = await request(host.url, method, path, { headers: { authToken: token, accept: 'application/json' } });
      assert.equal(r.status, 404, `${method} ${path}: ${String(r.body).slice(0, 100)}`);
      assert.match(r.headers.get('content-type') ?? '', /application\/json/, `${method} ${path}`);
      assert.equal(r.body.statusCode, 404, `${method} ${path}`);
      assert.equal(typeof r.body.data.code, 'string', `${method} ${path}`);
    }
  });
});
