import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { Credentials } from '../../main/engine/context.js';
import type { Engine } from '../../main/engine/engine.js';
import { rejectsWith } from '../helpers/assert-domain-error.js';
import { meta, testEngine } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';

const USER = {
  email: 'bob@acme.io',
  password: 'bob-password-1',
  role: 'Manager',
  firstName: 'Bob',
  lastName: 'Builder',
  title: 'Treasurer',
};

describe('engine: user management', () => {
  let engine: Engine;
  let admin: Credentials;
  let clock: { now: number };

  beforeEach(async () => {
    ({ engine, clock } = testEngine());
    const s = (await engine.execute('setup', ADMIN, {}, meta)).output;
    admin = { authToken: s.authToken, serviceId: s.serviceId };
  });

  const login = async (email: string, password: string) => (await engine.execute('login', { email, password }, {}, meta)).output;

  it('creates users with a normalised role and refuses bad input and duplicates', async () => {
    const r = await engine.execute('createUser', { ...USER, role: 'Api User' }, admin, meta);
    assert.deepEqual(Object.keys(r.output).sort(), ['email', 'role', 'uid']);
    assert.equal(r.output.role, 'api_user');
    await rejectsWith(engine.execute('createUser', { ...USER, email: 'BOB@acme.io' }, admin, meta), 'CONFLICT', /already exists/);
    await rejectsWith(engine.execute('createUser', { ...USER, email: 'x' }, admin, meta), 'VALIDATION_FAILED', /email/);
    await rejectsWith(
      engine.execute('createUser', { ...USER, email: 'c@acme.io', password: 'weak' }, admin, meta),
      'VALIDATION_FAILED',
      /password/,
    );
    await rejectsWith(
      engine.execute('createUser', { ...USER, email: 'c@acme.io', role: 'root' }, admin, meta),
      'VALIDATION_FAILED',
      /role: must be one of: admin, manager, operator, viewer, api_user/,
    );
    await rejectsWith(
      engine.execute('createUser', { ...USER, email: 'c@acme.io', role: undefined }, admin, meta),
      'VALIDATION_FAILED',
      /role: is required/,
    );
    const list = (await engine.execute('listUsers', {}, admin, meta)).output.users;
    assert.deepEqual(
      list.map((u) => [u.email, u.role]),
      [
        [ADMIN.email, 'admin'],
        [USER.email, 'api_user'],
      ],
    );
    assert.equal(JSON.stringify(list).includes('scrypt'), false, 'no password hash is listed');
  });

  it('requires the matching serviceid on enterprise operations', async () => {
    await rejectsWith(engine.execute('listUsers', {}, { authToken: admin.authToken }, meta), 'SERVICE_MISMATCH', /required/);
    await rejectsWith(engine.execute('listUsers', {}, { ...admin, serviceId: 'another-org' }, meta), 'SERVICE_MISMATCH', /does not match/);
  });

  it('updates role and details, partially', async () => {
    const { uid } = (await engine.execute('createUser', USER, admin, meta)).output;
    clock.now += 1000;
    const u = (await engine.execute('updateUser', { userId: uid, role: 'viewer', title: 'Auditor' }, admin, meta)).output;
    assert.equal(u.role, 'viewer');
    assert.equal(u.title, 'Auditor');
    assert.equal(u.firstName, 'Bob', 'untouched fields stay');
    assert.ok(u.updatedAt > u.createdAt);
    const bob = await login(USER.email, USER.password);
    assert.equal(bob.role, 'viewer');
    await rejectsWith(engine.execute('updateUser', { userId: 'nobody' }, admin, meta), 'NOT_FOUND');
    await rejectsWith(engine.execute('updateUser', { role: 'viewer' }, admin, meta), 'VALIDATION_FAILED', /userId: is required/);
  });

  it('never lets the last admin be demoted or deleted', async () => {
    const me = (await engine.execute('me', {}, admin, meta)).output;
    await rejectsWith(engine.execute('updateUser', { userId: me.uid, role: 'manager' }, admin, meta), 'CONFLICT', /at least one admin/);
    await rejectsWith(engine.execute('deleteUser', { userId: me.uid }, admin, meta), 'CONFLICT', /at least one admin/);
    const { uid } = (await engine.execute('createUser', { ...USER, role: 'admin' }, admin, meta)).output;
    await engine.execute('updateUser', { userId: me.uid, role: 'manager' }, admin, meta);
    await rejectsWith(
      engine.execute('listUsers', {}, admin, meta),
      'ROLE_FORBIDDEN',
      /Manager role may not call listUsers: only Admins may do this\./,
    );
    const bob = await login(USER.email, USER.password);
    await rejectsWith(
      engine.execute('deleteUser', { userId: uid }, { authToken: bob.authToken, serviceId: bob.serviceId }, meta),
      'CONFLICT',
    );
  });

  it('deleting a user stops their tokens and keys at once and keeps their record', async () => {
    const { uid } = (await engine.execute('createUser', USER, admin, meta)).output;
    const bob = await login(USER.email, USER.password);
    const key = (await engine.execute('createApiKey', { label: 'script' }, { authToken: bob.authToken }, meta)).output;
    await engine.execute('me', {}, { uid, apiKey: key.apiKey }, meta);
    assert.deepEqual((await engine.execute('deleteUser', { userId: uid }, admin, meta)).output, { userId: uid });
    await rejectsWith(engine.execute('me', {}, { authToken: bob.authToken }, meta), 'INVALID_CREDENTIALS');
    await rejectsWith(engine.execute('me', {}, { uid, apiKey: key.apiKey }, meta), 'INVALID_CREDENTIALS');
    await rejectsWith(engine.execute('login', { email: USER.email, password: USER.password }, {}, meta), 'INVALID_CREDENTIALS');
    await rejectsWith(engine.execute('deleteUser', { userId: uid }, admin, meta), 'NOT_FOUND', /no user/);
    // The e-mail can be given to a new account; the old record is still there for the organisation.
    const again = (await engine.execute('createUser', USER, admin, meta)).output;
    assert.notEqual(again.uid, uid);
  });

  it('API keys: shown once, work as uid + apikey, rotate and revoke, own keys only', async () => {
    const { uid } = (await engine.execute('createUser', USER, admin, meta)).output;
    const bob = await login(USER.email, USER.password);
    const bobAuth = { authToken: bob.authToken };
    const k1 = (await engine.execute('createApiKey', { label: ' ci ' }, bobAuth, meta)).output;
    assert.match(k1.apiKey, /^ksk_/);
    assert.equal(k1.label, 'ci');
    const me = (await engine.execute('me', {}, { uid, apiKey: k1.apiKey }, meta)).output;
    assert.equal(me.email, USER.email);
    const listed = (await engine.execute('listApiKeys', {}, bobAuth, meta)).output.apiKeys;
    assert.equal(listed.length, 1);
    assert.equal(JSON.stringify(listed).includes(k1.apiKey), false, 'the key itself is never listed');
    assert.ok(listed[0].lastUsedAt, 'use is recorded');

    await rejectsWith(engine.execute('me', {}, { uid: 'someone-else', apiKey: k1.apiKey }, meta), 'INVALID_CREDENTIALS');
    await rejectsWith(engine.execute('me', {}, { uid }, meta), 'INVALID_CREDENTIALS');

    const k2 = (await engine.execute('rotateApiKey', { keyId: k1.keyId }, bobAuth, meta)).output;
    assert.equal(k2.replacedKeyId, k1.keyId);
    await rejectsWith(engine.execute('me', {}, { uid, apiKey: k1.apiKey }, meta), 'INVALID_CREDENTIALS');
    await engine.execute('me', {}, { uid, apiKey: k2.apiKey }, meta);

    await rejectsWith(engine.execute('revokeApiKey', { keyId: k2.keyId }, admin, meta), 'NOT_FOUND', /no active API key/);
    await engine.execute('revokeApiKey', { keyId: k2.keyId }, bobAuth, meta);
    await rejectsWith(engine.execute('me', {}, { uid, apiKey: k2.apiKey }, meta), 'INVALID_CREDENTIALS');
    await rejectsWith(engine.execute('rotateApiKey', { keyId: k2.keyId }, bobAuth, meta), 'NOT_FOUND');
  });

  it('changing the password signs out the other sessions, revokes the API keys, and keeps this session', async () => {
    const other = await login(ADMIN.email, ADMIN.password);
    const key = (await engine.execute('createApiKey', { label: 'ci' }, admin, meta)).output;
    await rejectsWith(
      engine.execute('changePassword', { currentPassword: 'wrong-pass-1', newPassword: 'new-password-2' }, admin, meta),
      'WRONG_PASSWORD',
    );
    await rejectsWith(
      engine.execute('changePassword', { currentPassword: ADMIN.password, newPassword: 'weak' }, admin, meta),
      'VALIDATION_FAILED',
    );
    const r = await engine.execute('changePassword', { currentPassword: ADMIN.password, newPassword: 'new-password-2' }, admin, meta);
    assert.equal(r.output.signedOutSessions, 1);
    assert.deepEqual(r.output.revokedApiKeys, [{ keyId: key.keyId, label: 'ci' }]);
    await engine.execute('me', {}, admin, meta);
    await rejectsWith(engine.execute('me', {}, { authToken: other.authToken }, meta), 'INVALID_CREDENTIALS');
    await rejectsWith(engine.execute('me', {}, { uid: key.uid, apiKey: key.apiKey }, meta), 'INVALID_CREDENTIALS');
    await rejectsWith(engine.execute('login', { email: ADMIN.email, password: ADMIN.password }, {}, meta), 'INVALID_CREDENTIALS');
    await login(ADMIN.email, 'new-password-2');
  });

  it('keepApiKeys keeps the API keys through a password change', async () => {
    const key = (await engine.execute('createApiKey', { label: 'ci' }, admin, meta)).output;
    const r = await engine.execute(
      'changePassword',
      { currentPassword: ADMIN.password, newPassword: 'new-password-2', keepApiKeys: true },
      admin,
      meta,
    );
    assert.deepEqual(r.output.revokedApiKeys, []);
    await engine.execute('me', {}, { uid: key.uid, apiKey: key.apiKey }, meta);
  });

  it('a wrong current password is throttled like a login, on the same account, before the hash runs', async () => {
    const wrong = () => engine.execute('changePassword', { currentPassword: 'wrong-pass-1', newPassword: 'new-password-2' }, admin, meta);
    const outcomes = await Promise.allSettled(Array.from({ length: 40 }, wrong));
    const codes = outcomes.map((o) => (o.status === 'rejected' ? (o.reason as { code: string }).code : 'ok'));
    assert.equal(codes.filter((c) => c === 'WRONG_PASSWORD').length, 6, 'the free failures plus one, as if sent one by one');
    assert.equal(codes.filter((c) => c === 'RATE_LIMITED').length, 34);
    // The account is throttled everywhere its password is checked: login and the recovery-phrase reveal too.
    await rejectsWith(engine.execute('login', { email: ADMIN.email, password: ADMIN.password }, {}, meta), 'RATE_LIMITED');
    await rejectsWith(engine.execute('exportMnemonic', { password: ADMIN.password }, admin, meta), 'RATE_LIMITED');
  });

  it('audits user management, logins and failures, newest first, paged, without secrets', async () => {
    const { uid } = (await engine.execute('createUser', USER, admin, meta)).output;
    await rejectsWith(engine.execute('login', { email: USER.email, password: 'nope-nope-1' }, {}, meta), 'INVALID_CREDENTIALS');
    const bob = await login(USER.email, USER.password);
    await rejectsWith(
      engine.execute('createUser', { ...USER, email: 'eve@acme.io' }, { authToken: bob.authToken, serviceId: bob.serviceId }, meta),
      'ROLE_FORBIDDEN',
    );
    await engine.execute('updateUser', { userId: uid, role: 'operator' }, admin, meta);
    await engine.execute('deleteUser', { userId: uid }, admin, meta);

    const page1 = (await engine.execute('auditLog', { limit: 3 }, admin, meta)).output;
    assert.equal(page1.entries.length, 3);
    assert.deepEqual(
      page1.entries.map((e) => [e.action, e.outcome]),
      [
        ['deleteUser', 'success'],
        ['updateUser', 'success'],
        ['createUser', 'error'],
      ],
    );
    assert.equal(page1.entries[2].code, 'ROLE_FORBIDDEN');
    assert.equal(page1.entries[2].actorEmail, USER.email);
    assert.equal(page1.entries[0].target, uid);
    assert.ok(page1.meta.nextPageToken);
    const page2 = (await engine.execute('auditLog', { limit: '3', nextPageToken: String(page1.meta.nextPageToken) }, admin, meta)).output;
    assert.deepEqual(
      page2.entries.map((e) => [e.action, e.outcome, e.target]),
      [
        ['login', 'success', USER.email],
        ['login', 'error', USER.email],
        ['createUser', 'success', uid],
      ],
    );
    assert.equal(page2.entries[1].actorUid, null, 'a failed login has no actor');
    const page3 = (await engine.execute('auditLog', { limit: 3, nextPageToken: page2.meta.nextPageToken }, admin, meta)).output;
    assert.deepEqual(
      page3.entries.map((e) => e.action),
      ['setup'],
    );
    assert.equal(page3.meta.nextPageToken, null);
    const all = JSON.stringify([page1, page2, page3]);
    for (const secret of [USER.password, ADMIN.password, 'nope-nope-1', admin.authToken!]) assert.equal(all.includes(secret), false);
    await rejectsWith(engine.execute('auditLog', { limit: 0 }, admin, meta), 'VALIDATION_FAILED', /limit: must be at least 1/);
  });
});
