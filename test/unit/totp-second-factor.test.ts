import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import type { Credentials } from '../../main/engine/context.js';
import type { Engine } from '../../main/engine/engine.js';
import { base32Decode, totp } from '../../main/engine/auth/totp.js';
import { createSecondFactorRepo } from '../../main/store/repos/second-factors.js';
import { rejectsWith } from '../helpers/assert-domain-error.js';
import { meta, testEngine, type TestEngine } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';

const PASSWORD = 'bob-password-1';

/**
 * The second factor through the engine, with the test's clock: replay, drift, recovery codes and the
 * throttle are checked at exact moments (the HTTP test does the same flows in real time).
 */
describe('engine: two-step sign-in', () => {
  let t: TestEngine;
  let engine: Engine;
  let admin: Credentials;

  beforeEach(async () => {
    t = testEngine();
    engine = t.engine;
    const s = (await engine.execute('setup', ADMIN, {}, meta)).output;
    admin = { authToken: s.authToken, serviceId: s.serviceId };
  });

  const addUser = async (email: string) => {
    const { uid } = (await engine.execute('createUser', { email, password: PASSWORD, role: 'operator' }, admin, meta)).output;
    return uid;
  };
  const login = (email: string, otp?: string, clientId = meta.clientId) =>
    engine.execute('login', { email, password: PASSWORD, ...(otp === undefined ? {} : { otp }) }, {}, { clientId });
  const session = async (email: string, otp?: string) => ({ authToken: (await login(email, otp)).output.authToken });
  const codeAt = (secret: string, dt = 0) => totp(base32Decode(secret), t.clock.now + dt);

  /** Enrols the user at the current moment; returns the secret and the recovery codes. */
  async function enrol(email: string) {
    const me = await session(email);
    const { secret } = (await engine.execute('startTwoStep', {}, me, meta)).output;
    const { recoveryCodes } = (await engine.execute('confirmTwoStep', { otp: codeAt(secret) }, me, meta)).output;
    return { me, secret, recoveryCodes };
  }

  it('asks for a code at sign-in only once a first code confirmed the enrolment', async () => {
    await addUser('bob@acme.io');
    const me = await session('bob@acme.io');
    const start = (await engine.execute('startTwoStep', {}, me, meta)).output;
    assert.match(start.secret, /^[A-Z2-7]{32}$/);
    assert.ok(start.otpauthUri.startsWith('otpauth://totp/'));
    assert.ok(start.otpauthUri.includes(`secret=${start.secret}`));
    // Pending: nothing changes at sign-in yet.
    await login('bob@acme.io');
    // Starting again replaces the pending secret: a code of the old one no longer confirms.
    const again = (await engine.execute('startTwoStep', {}, me, meta)).output;
    assert.notEqual(again.secret, start.secret);
    await rejectsWith(engine.execute('confirmTwoStep', { otp: codeAt(start.secret) }, me, meta), 'OTP_INVALID');
    const confirmed = (await engine.execute('confirmTwoStep', { otp: codeAt(again.secret) }, me, meta)).output;
    assert.equal(confirmed.recoveryCodes.length, 10);
    assert.equal(new Set(confirmed.recoveryCodes).size, 10);
    assert.deepEqual((await engine.execute('twoStepStatus', {}, me, meta)).output, {
      enabled: true,
      pending: false,
      enabledAt: new Date(t.clock.now).toISOString(),
      recoveryCodesLeft: 10,
    });
    await rejectsWith(login('bob@acme.io'), 'OTP_REQUIRED', /otp/);
    await rejectsWith(engine.execute('startTwoStep', {}, me, meta), 'CONFLICT', /already on/);
    // The password is checked first: a wrong one is a wrong password, whatever the code.
    await rejectsWith(
      engine.execute('login', { email: 'bob@acme.io', password: 'wrong-password-1', otp: codeAt(again.secret) }, {}, meta),
      'INVALID_CREDENTIALS',
    );
  });

  it('accepts a code once, one step of drift either way, and no older step than the last one used', async () => {
    await addUser('bob@acme.io');
    const { secret } = await enrol('bob@acme.io'); // consumed the current step
    await rejectsWith(login('bob@acme.io', codeAt(secret)), 'OTP_INVALID', /already used/);
    await login('bob@acme.io', codeAt(secret, 30_000)); // the phone runs one step ahead
    await rejectsWith(login('bob@acme.io', codeAt(secret, 30_000)), 'OTP_INVALID');
    t.clock.now += 60_000; // two steps on; the last used is one behind now
    await rejectsWith(login('bob@acme.io', codeAt(secret, 60_000)), 'OTP_INVALID'); // two steps ahead
    await rejectsWith(login('bob@acme.io', codeAt(secret, -60_000)), 'OTP_INVALID'); // two steps behind
    await rejectsWith(login('bob@acme.io', codeAt(secret, -30_000)), 'OTP_INVALID'); // in the window, but used
    await login('bob@acme.io', codeAt(secret));
    await rejectsWith(login('bob@acme.io', codeAt(secret)), 'OTP_INVALID');
    // Six wrong codes from this client: the next guess waits (1 s); the clock moves on 90 s.
    t.clock.now += 90_000;
    await login('bob@acme.io', codeAt(secret, -30_000)); // the phone runs one step behind
  });

  it('takes each recovery code once, in any case and spacing, at sign-in and to turn it off', async () => {
    await addUser('bob@acme.io');
    const { recoveryCodes } = await enrol('bob@acme.io');
    await login('bob@acme.io', recoveryCodes[0].toUpperCase().replace(/-/g, ' '));
    await rejectsWith(login('bob@acme.io', recoveryCodes[0]), 'OTP_INVALID');
    const me = await session('bob@acme.io', recoveryCodes[1]);
    assert.equal((await engine.execute('twoStepStatus', {}, me, meta)).output.recoveryCodesLeft, 8);
    // validateOtp is the app's code only: a recovery code is not spent there.
    await rejectsWith(engine.execute('validateOtp', { otp: recoveryCodes[2] }, me, meta), 'OTP_INVALID');
    await engine.execute('disableTwoStep', { otp: recoveryCodes[2] }, me, meta);
    await login('bob@acme.io');
    assert.deepEqual((await engine.execute('twoStepStatus', {}, me, meta)).output, {
      enabled: false,
      pending: false,
      enabledAt: null,
      recoveryCodesLeft: 0,
    });
  });

  it('validates and "sends" codes only for the caller, and only once enrolled', async () => {
    const uid = await addUser('bob@acme.io');
    const plain = await session('bob@acme.io');
    await rejectsWith(engine.execute('sendOtp', { to: 'bob@acme.io' }, plain, meta), 'OTP_NOT_ENROLLED', /Profile/);
    await rejectsWith(engine.execute('validateOtp', { otp: '123456' }, plain, meta), 'OTP_NOT_ENROLLED');
    const { me, secret } = await enrol('bob@acme.io');
    assert.deepEqual((await engine.execute('sendOtp', { from: 'x', to: 'BOB@acme.io', message: 'hi' }, me, meta)).output, {
      sent: false,
      method: 'totp',
      email: 'bob@acme.io',
    });
    await rejectsWith(engine.execute('sendOtp', { to: ADMIN.email }, me, meta), 'FORBIDDEN', /own/);
    await rejectsWith(engine.execute('validateOtp', { to: ADMIN.email, otp: codeAt(secret, 30_000) }, me, meta), 'FORBIDDEN');
    const v = await engine.execute('validateOtp', { to: uid, otp: codeAt(secret, 30_000) }, me, meta);
    assert.deepEqual(v.output, { valid: true, email: 'bob@acme.io', uid });
    await rejectsWith(engine.execute('validateOtp', { otp: codeAt(secret, 30_000) }, me, meta), 'OTP_INVALID');
  });

  it('needs a password sign-in to change it (an API key cannot), and a code to turn it off', async () => {
    const uid = await addUser('bob@acme.io');
    const { me, secret } = await enrol('bob@acme.io');
    const key = (await engine.execute('createApiKey', { label: 'cron' }, me, meta)).output;
    const byKey = { uid, apiKey: key.apiKey };
    // API keys are not affected by the second factor...
    assert.equal((await engine.execute('me', {}, byKey, meta)).output.uid, uid);
    // ...and cannot change it.
    for (const op of ['startTwoStep', 'confirmTwoStep', 'disableTwoStep'] as const)
      await rejectsWith(engine.execute(op, { otp: codeAt(secret, 30_000) }, byKey, meta), 'SESSION_REQUIRED');
    await rejectsWith(engine.execute('disableTwoStep', {}, me, meta), 'VALIDATION_FAILED', /otp: is required/);
    await rejectsWith(
      engine.execute('disableTwoStep', { otp: '000000' === codeAt(secret) ? '111111' : '000000' }, me, meta),
      'OTP_INVALID',
    );
    await engine.execute('disableTwoStep', { otp: codeAt(secret, 30_000) }, me, meta);
    await login('bob@acme.io');
    await rejectsWith(engine.execute('disableTwoStep', { otp: '123456' }, me, meta), 'OTP_NOT_ENROLLED');
  });

  it("lets an admin list and reset a user's second factor, audited", async () => {
    const uid = await addUser('bob@acme.io');
    const { me } = await enrol('bob@acme.io');
    assert.deepEqual((await engine.execute('listTwoStep', {}, admin, meta)).output.users, [
      { uid, enabledAt: new Date(t.clock.now).toISOString() },
    ]);
    await rejectsWith(engine.execute('resetTwoStep', { userId: uid }, me, meta), 'ROLE_FORBIDDEN');
    assert.deepEqual((await engine.execute('resetTwoStep', { userId: uid }, admin, meta)).output, { userId: uid, reset: true });
    assert.deepEqual((await engine.execute('resetTwoStep', { userId: uid }, admin, meta)).output, { userId: uid, reset: false });
    await rejectsWith(engine.execute('resetTwoStep', { userId: 'nobody' }, admin, meta), 'NOT_FOUND');
    await login('bob@acme.io');
    assert.deepEqual((await engine.execute('listTwoStep', {}, admin, meta)).output.users, []);
    const entries = (await engine.execute('auditLog', { limit: 50 }, admin, meta)).output.entries;
    const actions = entries.map((e) => `${e.action}:${e.outcome}:${e.target ?? ''}`);
    assert.ok(actions.includes(`resetTwoStep:success:${uid}`), actions.join('\n'));
    assert.ok(actions.includes('startTwoStep:success:'), actions.join('\n'));
    assert.ok(actions.includes('confirmTwoStep:success:'), actions.join('\n'));
    assert.ok(
      actions.some((a) => a.startsWith('resetTwoStep:error')),
      'the refused reset is audited too',
    );
  });

  it('throttles wrong codes per account (from any client) and per client (for any account)', async () => {
    await addUser('bob@acme.io');
    await addUser('cy@acme.io');
    const bob = await enrol('bob@acme.io');
    const cy = await enrol('cy@acme.io');
    const wrong = (secret: string) => {
      const valid = new Set([-30_000, 0, 30_000].map((dt) => codeAt(secret, dt)));
      return ['000000', '111111', '222222', '333333'].find((c) => !valid.has(c))!;
    };
    // Five free failures for bob, each from another client; the sixth blocks his account for a while.
    for (let i = 0; i < 6; i++) await rejectsWith(login('bob@acme.io', wrong(bob.secret), `10.0.0.${i + 1}`), 'OTP_INVALID');
    await rejectsWith(login('bob@acme.io', codeAt(bob.secret, 30_000), '10.0.1.1'), 'RATE_LIMITED', /wrong codes/);
    // Not cy, from a client that made no guesses: the password throttle is apart too.
    await login('cy@acme.io', codeAt(cy.secret, 30_000), '10.0.2.1');
    for (let i = 0; i < 6; i++) await rejectsWith(login('cy@acme.io', wrong(cy.secret), '10.0.3.1'), 'OTP_INVALID');
    // Later (the failures above forgotten), three wrong codes each for two accounts from one client.
    t.clock.now += 16 * 60_000;
    for (let i = 0; i < 6; i++) {
      const [email, secret] = i % 2 ? ['cy@acme.io', cy.secret] : ['bob@acme.io', bob.secret];
      await rejectsWith(login(email, wrong(secret), '10.0.4.1'), 'OTP_INVALID');
    }
    await rejectsWith(login('cy@acme.io', codeAt(cy.secret), '10.0.4.1'), 'RATE_LIMITED');
    await login('cy@acme.io', codeAt(cy.secret), '10.0.5.1');
  });

  it('keeps the secret in the encrypted database only', async () => {
    await addUser('bob@acme.io');
    const { secret, recoveryCodes } = await enrol('bob@acme.io');
    const row = createSecondFactorRepo(t.store.db).byUid(
      (await engine.execute('me', {}, await session('bob@acme.io', recoveryCodes[9]), meta)).output.uid,
    );
    assert.equal(row?.secret, secret);
    for (const file of readdirSync(t.dataDir)) {
      const bytes = readFileSync(path.join(t.dataDir, file));
      assert.equal(bytes.includes(Buffer.from(secret)), false, `${file} holds the secret in clear`);
      for (const c of recoveryCodes) assert.equal(bytes.includes(Buffer.from(c.replace(/-/g, ''))), false, `${file} holds a recovery code`);
    }
  });
});
