import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { base32Decode, totp } from '../../main/engine/auth/totp.js';
import { startHeadless, type Headless } from '../helpers/headless.js';
import { ADMIN, request } from '../helpers/http.js';
import { tempDir } from '../helpers/tmp.js';

const PASSWORD = 'second-factor-1';

/**
 * Two-step sign-in over real HTTP, in real time. Codes come from the clock as an authenticator app's
 * would: each user spends at most the current step's code and the next one's (both valid across a step
 * boundary), and recovery codes for any further sign-in. Wrong codes are counted: every test here shares
 * one client (loopback), which the throttle blocks after five.
 */
const codeAt = (secret: string, steps = 0) => totp(base32Decode(secret), Date.now() + steps * 30_000);
/** A 6-digit string that is not a valid code now (none of the three steps in the window). */
const wrongCode = (secret: string) => {
  const valid = new Set([-1, 0, 1, 2].map((s) => codeAt(secret, s)));
  return ['000000', '111111', '222222', '333333', '444444'].find((c) => !valid.has(c))!;
};

async function bootstrap(host: Headless) {
  const setup = await request(host.url, 'POST', '/api/v1/setup', { body: ADMIN });
  assert.equal(setup.status, 200, JSON.stringify(setup.body));
  const admin = { authToken: setup.body.data.authToken as string, serviceid: setup.body.data.serviceId as string };
  const addUser = async (email: string) => {
    const r = await request(host.url, 'POST', '/api/v1/createUser', {
      body: { email, password: PASSWORD, role: 'operator' },
      headers: admin,
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.data.uid as string;
  };
  return { admin, addUser };
}

const login = (host: Headless, email: string, otp?: string, path = '/api/v1/login') =>
  request(host.url, 'POST', path, { body: { email, password: PASSWORD, ...(otp === undefined ? {} : { otp }) } });

/** Start and confirm; returns the secret and recovery codes (the current step's code is spent). */
async function enrol(host: Headless, authToken: string) {
  const start = await request(host.url, 'POST', '/api/v1/twoStep/start', { headers: { authToken } });
  assert.equal(start.status, 200, JSON.stringify(start.body));
  const secret = start.body.data.secret as string;
  const confirm = await request(host.url, 'POST', '/api/v1/twoStep/confirm', { body: { otp: codeAt(secret) }, headers: { authToken } });
  assert.equal(confirm.status, 200, JSON.stringify(confirm.body));
  return { secret, recoveryCodes: confirm.body.data.recoveryCodes as string[] };
}

describe('two-step sign-in over HTTP', () => {
  let host: Headless;
  let admin: { authToken: string; serviceid: string };
  let addUser: (email: string) => Promise<string>;
  /** Everything secret the tests saw, to check none of it reached the logs. */
  const secrets: string[] = [];

  before(async () => {
    host = await startHeadless({ dataDir: tempDir(), password: 'pw' });
    ({ admin, addUser } = await bootstrap(host));
  });
  after(() => host.stop());

  it('enrols in two steps; sign-in then needs a code (otp), once each; recovery codes work once; API keys are unaffected', async () => {
    const uid = await addUser('bob@acme.io');
    const authToken = (await login(host, 'bob@acme.io')).body.data.authToken as string;
    const headers = { authToken };

    const start = await request(host.url, 'POST', '/api/v1/twoStep/start', { headers });
    assert.equal(start.status, 200, JSON.stringify(start.body));
    const { secret, otpauthUri, issuer, account, algorithm, digits, period } = start.body.data;
    secrets.push(secret);
    assert.match(secret, /^[A-Z2-7]{32}$/);
    assert.equal(base32Decode(secret).length, 20);
    assert.deepEqual([issuer, account, algorithm, digits, period], ['Keystead (Acme Ltd)', 'bob@acme.io', 'SHA1', 6, 30]);
    const uri = new URL(otpauthUri);
    assert.equal(uri.protocol, 'otpauth:');
    assert.equal(uri.searchParams.get('secret'), secret);

    // Not confirmed yet: sign-in is unchanged, so a bad scan locks nobody out.
    assert.equal((await login(host, 'bob@acme.io')).status, 200);
    const status = await request(host.url, 'GET', '/api/v1/twoStep', { headers });
    assert.deepEqual(status.body.data, {
      status: 'success',
      msg: 'Two-step sign-in status fetched successfully.',
      enabled: false,
      pending: true,
      enabledAt: null,
      recoveryCodesLeft: 0,
    });

    const wrong = await request(host.url, 'POST', '/api/v1/twoStep/confirm', { body: { otp: wrongCode(secret) }, headers }); // failure 1
    assert.equal(wrong.status, 403);
    assert.equal(wrong.body.data.code, 'OTP_INVALID');
    const first = codeAt(secret);
    const confirm = await request(host.url, 'POST', '/api/v1/twoStep/confirm', { body: { otp: first }, headers });
    assert.equal(confirm.status, 200, JSON.stringify(confirm.body));
    const codes = confirm.body.data.recoveryCodes as string[];
    secrets.push(...codes);
    assert.equal(codes.length, 10);
    assert.equal(new Set(codes).size, 10);
    for (const c of codes) assert.match(c, /^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);

    const required = await login(host, 'bob@acme.io');
    assert.equal(required.status, 401);
    assert.equal(required.body.data.code, 'OTP_REQUIRED');
    assert.equal(required.body.data.field, 'otp');
    assert.match(required.body.data.msg, /otp/);
    const badPassword = await request(host.url, 'POST', '/api/v1/login', {
      body: { email: 'bob@acme.io', password: 'not-it-1', otp: first },
    });
    assert.equal(badPassword.status, 401);
    assert.equal(badPassword.body.data.code, 'INVALID_CREDENTIALS');

    const replay = await login(host, 'bob@acme.io', first); // failure 2
    assert.equal(replay.status, 403);
    assert.equal(replay.body.data.code, 'OTP_INVALID');
    const next = await login(host, 'bob@acme.io', codeAt(secret, 1));
    assert.equal(next.status, 200, JSON.stringify(next.body));
    assert.equal(next.body.data.uid, uid);

    const byRecovery = await login(host, 'bob@acme.io', codes[0].toUpperCase());
    assert.equal(byRecovery.status, 200, JSON.stringify(byRecovery.body));
    assert.equal((await login(host, 'bob@acme.io', codes[0])).body.data.code, 'OTP_INVALID'); // failure 3
    const later = await request(host.url, 'GET', '/api/v1/twoStep', { headers });
    assert.equal(later.body.data.enabled, true);
    assert.equal(later.body.data.recoveryCodesLeft, 9);

    // API keys: made with a password sign-in, used without any code; they cannot change the second factor.
    const key = await request(host.url, 'POST', '/api/v1/apiKeys', { body: { label: 'cron' }, headers });
    assert.equal(key.status, 200);
    const byKey = { uid, apikey: key.body.data.apiKey as string };
    secrets.push(byKey.apikey);
    assert.equal((await request(host.url, 'GET', '/api/v1/me', { headers: byKey })).status, 200);
    const keyStart = await request(host.url, 'POST', '/api/v1/twoStep/start', { headers: byKey });
    assert.equal(keyStart.status, 403);
    assert.equal(keyStart.body.data.code, 'SESSION_REQUIRED');
    const again = await request(host.url, 'POST', '/api/v1/twoStep/start', { headers });
    assert.equal(again.status, 409);
  });

  it("serves the SDK's sendOtp and validateOtp as it sends them (POST /v1/sendOTP, /v1/validateOTP; authToken, serviceId)", async () => {
    const email = 'carol@acme.io';
    await addUser(email);
    // The SDK's auth(): POST /v1/auth {email, password}; it keeps body.data.token.
    const sdkHeaders = { 'content-type': 'application/json', accept: 'application/json' };
    const auth = await request(host.url, 'POST', '/v1/auth', { body: { email, password: PASSWORD }, headers: sdkHeaders });
    assert.equal(auth.status, 200);
    const headers = { ...sdkHeaders, authToken: auth.body.data.token as string, serviceId: admin.serviceid };
    const send = () => request(host.url, 'POST', '/v1/sendOTP', { body: { from: 'Acme', to: email, message: 'Your code' }, headers });

    const notYet = await send();
    assert.equal(notYet.status, 409);
    assert.equal(notYet.body.data.code, 'OTP_NOT_ENROLLED');
    assert.match(notYet.body.data.msg, /Profile/);

    const { secret, recoveryCodes } = await enrol(host, headers.authToken);
    secrets.push(secret, ...recoveryCodes);
    const sent = await send();
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.deepEqual(sent.body.data, {
      status: 'success',
      msg: 'No code was sent: Keystead uses the time-based code your authenticator app shows. Validate that code.',
      sent: false,
      method: 'totp',
      email,
    });

    const otp = codeAt(secret, 1);
    const valid = await request(host.url, 'POST', '/v1/validateOTP', { body: { to: email, otp }, headers });
    assert.equal(valid.status, 200, JSON.stringify(valid.body));
    assert.equal(valid.body.data.status, 'success');
    assert.equal(valid.body.data.msg, 'The code is valid.');
    assert.equal(valid.body.data.email, email);
    assert.equal(valid.body.data.valid, true);
    const replay = await request(host.url, 'POST', '/v1/validateOTP', { body: { to: email, otp }, headers }); // failure 4
    assert.equal(replay.status, 403);
    assert.equal(replay.body.data.code, 'OTP_INVALID');
    const other = await request(host.url, 'POST', '/v1/validateOTP', { body: { to: ADMIN.email, otp: '123456' }, headers });
    assert.equal(other.status, 403);
    assert.equal(other.body.data.code, 'FORBIDDEN');
    const noCode = await request(host.url, 'POST', '/v1/validateOTP', { body: { to: email }, headers });
    assert.equal(noCode.status, 400);
    assert.match(noCode.body.data.msg, /otp: is required/);

    // The SDK's auth() sends no code: an enrolled user gets a clear 401 naming the field.
    const sdkAuth = await request(host.url, 'POST', '/v1/auth', { body: { email, password: PASSWORD }, headers: sdkHeaders });
    assert.equal(sdkAuth.status, 401);
    assert.equal(sdkAuth.body.data.code, 'OTP_REQUIRED');
    const withCode = await login(host, email, recoveryCodes[3], '/v1/auth');
    assert.equal(withCode.status, 200);
    assert.equal(typeof withCode.body.data.token, 'string');

    // Turning it off takes a recovery code too; then the SDK's auth() works again.
    const off = await request(host.url, 'POST', '/api/v1/twoStep/disable', { body: { otp: recoveryCodes[4] }, headers });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    assert.equal(off.body.data.enabled, false);
    assert.equal((await request(host.url, 'POST', '/v1/auth', { body: { email, password: PASSWORD }, headers: sdkHeaders })).status, 200);
  });

  it("lets an admin see and reset a user's second factor, audited", async () => {
    const uid = await addUser('erin@acme.io');
    const erin = (await login(host, 'erin@acme.io')).body.data.authToken as string;
    const { secret } = await enrol(host, erin);
    secrets.push(secret);

    const list = await request(host.url, 'GET', '/api/v1/twoStep/users', { headers: admin });
    assert.equal(list.status, 200);
    assert.ok(
      list.body.data.users.some((u: { uid: string }) => u.uid === uid),
      JSON.stringify(list.body),
    );
    assert.ok(!JSON.stringify(list.body).includes(secret));

    const self = await request(host.url, 'POST', '/api/v1/twoStep/reset', { body: { userId: uid }, headers: { authToken: erin } });
    assert.equal(self.status, 403);
    assert.equal(self.body.data.code, 'ROLE_FORBIDDEN');
    const reset = await request(host.url, 'POST', '/api/v1/twoStep/reset', { body: { userId: uid }, headers: admin });
    assert.deepEqual(reset.body.data, { status: 'success', msg: 'Two-step sign-in reset.', userId: uid, reset: true });
    assert.equal((await login(host, 'erin@acme.io')).status, 200);

    const audit = await request(host.url, 'GET', '/api/v1/audit?limit=100', { headers: admin });
    const entries = audit.body.data.entries as { action: string; target: string | null; outcome: string; code: string | null }[];
    const has = (action: string, outcome: string, code: string | null, target?: string) =>
      entries.some((e) => e.action === action && e.outcome === outcome && e.code === code && (target === undefined || e.target === target));
    assert.ok(has('resetTwoStep', 'success', null, uid));
    assert.ok(has('resetTwoStep', 'error', 'ROLE_FORBIDDEN')); // refused before its input was read: no target
    assert.ok(has('confirmTwoStep', 'success', null));
    assert.ok(has('confirmTwoStep', 'error', 'OTP_INVALID'));
    assert.ok(has('disableTwoStep', 'success', null));
    assert.ok(has('validateOtp', 'success', null));
    assert.ok(has('login', 'error', 'OTP_REQUIRED', 'bob@acme.io'));
    assert.ok(has('login', 'error', 'OTP_INVALID', 'bob@acme.io'));
  });

  it('never writes a secret, recovery code or key to the logs', () => {
    const logs = host.stdout() + host.stderr();
    for (const s of secrets) assert.ok(!logs.includes(s), 'a secret reached the logs');
    assert.ok(!logs.includes(secrets[0].toLowerCase()));
  });
});

describe('two-step sign-in: wrong codes are throttled like passwords', () => {
  it('blocks further guesses after five wrong codes, with Retry-After', async () => {
    const host = await startHeadless({ dataDir: tempDir(), password: 'pw' });
    try {
      const { addUser } = await bootstrap(host);
      await addUser('frank@acme.io');
      const { secret } = await enrol(host, (await login(host, 'frank@acme.io')).body.data.authToken);
      for (let i = 0; i < 6; i++) {
        const r = await login(host, 'frank@acme.io', wrongCode(secret));
        assert.equal(r.status, 403, `guess ${i + 1}: ${JSON.stringify(r.body)}`);
        assert.equal(r.body.data.code, 'OTP_INVALID');
      }
      // Blocked now, even for the right code: it is not even checked.
      const blocked = await login(host, 'frank@acme.io', codeAt(secret, 1));
      assert.equal(blocked.status, 429, JSON.stringify(blocked.body));
      assert.equal(blocked.body.data.code, 'RATE_LIMITED');
      assert.match(blocked.body.data.msg, /Too many wrong codes/);
      assert.ok(Number(blocked.headers.get('retry-after')) >= 1);
    } finally {
      await host.stop();
    }
  });
});
