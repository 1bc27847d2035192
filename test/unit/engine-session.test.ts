import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DomainError } from '../../shared/errors.js';
import { rejectsWith } from '../helpers/assert-domain-error.js';
import { ADMIN } from '../helpers/http.js';
import { meta, testEngine } from '../helpers/engine.js';

describe('engine: first run, login, logout', () => {
  it('sets up once, signs the admin in, and refuses a second setup', async () => {
    const { engine } = testEngine();
    assert.equal((await engine.execute('appStatus', {}, {}, meta)).output.initialised, false);
    const { output, msg } = await engine.execute('setup', { ...ADMIN, email: ' Ada@ACME.io ' }, {}, meta);
    assert.match(msg, /set up/);
    assert.equal(output.role, 'admin');
    assert.match(output.serviceId, /^[0-9a-f-]{36}$/);
    const me = await engine.execute('me', {}, { authToken: output.authToken }, meta);
    assert.equal(me.output.email, 'ada@acme.io', 'e-mail stored trimmed and lower-case');
    assert.equal(me.output.organisation, 'Acme Ltd');
    assert.equal((await engine.execute('appStatus', {}, {}, meta)).output.initialised, true);
    await rejectsWith(engine.execute('setup', { ...ADMIN, email: 'eve@acme.io' }, {}, meta), 'ALREADY_SET_UP');
  });

  it('lets exactly one of two concurrent first runs win', async () => {
    const { engine } = testEngine();
    const results = await Promise.allSettled([
      engine.execute('setup', ADMIN, {}, meta),
      engine.execute('setup', { ...ADMIN, email: 'bob@acme.io' }, {}, meta),
    ]);
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
    const loser = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    assert.equal((loser.reason as DomainError).code, 'ALREADY_SET_UP');
  });

  it('validates input with clear messages and writes nothing', async () => {
    const { engine } = testEngine();
    await rejectsWith(
      engine.execute('setup', { ...ADMIN, email: 'not-an-email' }, {}, meta),
      'VALIDATION_FAILED',
      /email: is not a valid e-mail/,
    );
    await rejectsWith(
      engine.execute('setup', { ...ADMIN, password: 'short1' }, {}, meta),
      'VALIDATION_FAILED',
      /password: must be at least 10/,
    );
    await rejectsWith(engine.execute('setup', { ...ADMIN, password: 'onlyletterslong' }, {}, meta), 'VALIDATION_FAILED', /password/);
    await rejectsWith(
      engine.execute('setup', { email: ADMIN.email, password: ADMIN.password }, {}, meta),
      'VALIDATION_FAILED',
      /organisation: is required/,
    );
    await rejectsWith(
      engine.execute('setup', { ...ADMIN, organisation: 42 }, {}, meta),
      'VALIDATION_FAILED',
      /organisation: must be a string/,
    );
    await rejectsWith(engine.execute('setup', [1, 2], {}, meta), 'VALIDATION_FAILED', /input/);
    assert.equal((await engine.execute('appStatus', {}, {}, meta)).output.initialised, false);
  });

  it('logs in, rejects wrong passwords and unknown e-mails alike', async () => {
    const { engine } = testEngine();
    await engine.execute('setup', ADMIN, {}, meta);
    const ok = await engine.execute('login', { email: 'ADA@acme.io', password: ADMIN.password }, {}, meta);
    assert.equal(ok.output.role, 'admin');
    assert.ok(Date.parse(ok.output.expiresAt) > Date.parse('2026-01-01T00:00:00Z'));
    const wrong = engine.execute('login', { email: ADMIN.email, password: 'nope-nope-1' }, {}, meta);
    const unknown = engine.execute('login', { email: 'nobody@acme.io', password: 'nope-nope-1' }, {}, meta);
    let a = '';
    let b = '';
    await wrong.catch((e: DomainError) => (a = `${e.code} ${e.message}`));
    await unknown.catch((e: DomainError) => (b = `${e.code} ${e.message}`));
    assert.equal(a, b, 'same answer whether or not the e-mail exists');
    assert.match(a, /^INVALID_CREDENTIALS/);
  });

  it('throttles repeated failures with a retry time', async () => {
    const { engine, clock } = testEngine({ throttle: { freeFailures: 2, baseDelayMs: 30_000, maxDelayMs: 60_000, windowMs: 600_000 } });
    await engine.execute('setup', ADMIN, {}, meta);
    for (let i = 0; i < 3; i++)
      await rejectsWith(engine.execute('login', { email: ADMIN.email, password: 'bad-pass-1' }, {}, meta), 'INVALID_CREDENTIALS');
    await assert.rejects(engine.execute('login', { email: ADMIN.email, password: ADMIN.password }, {}, meta), (e: DomainError) => {
      assert.equal(e.code, 'RATE_LIMITED');
      assert.equal(e.details.retryAfter, 30);
      return true;
    });
    clock.now += 30_000;
    assert.equal((await engine.execute('login', { email: ADMIN.email, password: ADMIN.password }, {}, meta)).output.role, 'admin');
  });

  it('expires tokens, revokes them on logout, and demands credentials', async () => {
    const { engine, clock } = testEngine({ sessionTtlMs: 60_000 });
    const { output } = await engine.execute('setup', ADMIN, {}, meta);
    const auth = { authToken: output.authToken };
    await rejectsWith(engine.execute('me', {}, {}, meta), 'UNAUTHORIZED');
    await rejectsWith(engine.execute('me', {}, { authToken: 'kst_forged' }, meta), 'INVALID_CREDENTIALS');
    await rejectsWith(engine.execute('me', {}, { uid: output.uid, apiKey: 'nope' }, meta), 'INVALID_CREDENTIALS');
    clock.now += 59_000;
    await engine.execute('me', {}, auth, meta);
    clock.now += 1_000;
    await rejectsWith(engine.execute('me', {}, auth, meta), 'TOKEN_EXPIRED');

    const fresh = (await engine.execute('login', { email: ADMIN.email, password: ADMIN.password }, {}, meta)).output;
    assert.deepEqual((await engine.execute('logout', {}, { authToken: fresh.authToken }, meta)).output, { revoked: true });
    await rejectsWith(engine.execute('me', {}, { authToken: fresh.authToken }, meta), 'INVALID_CREDENTIALS', /signed out/);
  });
});
