import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { PrivateKey } from '@bsv/sdk';
import type { Credentials } from '../../main/engine/context.js';
import type { Engine } from '../../main/engine/engine.js';
import { COOLING_OFF_SETTING, coolingOffHours, payeeFor } from '../../main/engine/payees/book.js';
import { parseDestination } from '../../main/engine/payees/destination.js';
import type { Store } from '../../main/store/database.js';
import { openStore } from '../../main/store/database.js';
import { createRepos, type Repos } from '../../main/store/repos/index.js';
import type { LiveEvent } from '../../shared/events.js';
import { rejectsWith } from '../helpers/assert-domain-error.js';
import { meta, testEngine } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';
import { tempDir } from '../helpers/tmp.js';

const HOUR = 3_600_000;
const address = () => PrivateKey.fromRandom().toAddress();
const identityKey = () => PrivateKey.fromRandom().toPublicKey().toString();

describe('payee destinations: checked and normalised', () => {
  it('tells the kind from the destination and normalises it', () => {
    const a = address();
    const k = identityKey();
    assert.deepEqual(parseDestination('  Alice.Smith@Example.COM '), { kind: 'paymail', destination: 'alice.smith@example.com' });
    assert.deepEqual(parseDestination(a), { kind: 'address', destination: a });
    assert.deepEqual(parseDestination(k.toUpperCase().replace(/^0([23])/, '0$1')), { kind: 'identity_key', destination: k });
    assert.deepEqual(parseDestination('bob@localhost', 'paymail'), { kind: 'paymail', destination: 'bob@localhost' });
  });

  it('refuses what is not a paymail, a main-network P2PKH address or a compressed key on the curve, saying why', () => {
    const bad = (text: string, kind?: 'paymail' | 'address' | 'identity_key', msg?: RegExp) =>
      assert.throws(
        () => parseDestination(text, kind),
        (err: Error & { code?: string }) => {
          assert.equal(err.code, 'VALIDATION_FAILED');
          assert.match(err.message, /^destination: /);
          if (msg) assert.match(err.message, msg);
          return true;
        },
      );
    bad('', undefined, /is required/);
    bad('alice@', undefined, /not a paymail/);
    bad('al ice@example.com', undefined, /not a paymail/);
    bad('hello', undefined, /not a paymail \(alias@domain\), a P2PKH address or an identity key/);
    const a = address();
    bad(a.slice(0, -1) + (a.endsWith('1') ? '2' : '1'), 'address', /not a valid P2PKH address/); // checksum broken
    bad(PrivateKey.fromRandom().toAddress('testnet'), 'address', /not a valid P2PKH address/);
    bad(a, 'paymail', /not a paymail/);
    bad('04' + 'ab'.repeat(32), 'identity_key', /not an identity key/);
    bad('02' + 'ff'.repeat(32), 'identity_key', /not an identity key/); // x beyond the field: the SDK would reduce it
    bad(identityKey().slice(0, 64), 'identity_key', /not an identity key/);
  });
});

describe('payee repository', () => {
  let store: Store;
  let repos: Repos;
  beforeEach(() => {
    store = openStore({ dataDir: tempDir(), password: 'pw' });
    repos = createRepos(store.db);
  });
  afterEach(() => store.close());

  const add = (id: string, destination: string, name = id, kind: 'paymail' | 'address' | 'identity_key' = 'paymail') =>
    repos.payees.add({ id, name, kind, destination, note: null, createdBy: 'u1', createdAt: 1_000, usableFrom: 5_000 });

  it('adds, finds, lists by name, updates and removes (kept, marked removed)', () => {
    add('payee_b', 'bob@x.io', 'bob');
    add('payee_a', 'alice@x.io', 'Alice');
    assert.deepEqual(
      repos.payees.list().map((p) => p.name),
      ['Alice', 'bob'],
    );
    assert.equal(repos.payees.findActive('paymail', 'alice@x.io')?.id, 'payee_a');
    assert.equal(repos.payees.findActive('address', 'alice@x.io'), null, 'the kind is part of the match');
    assert.ok(
      repos.payees.update('payee_a', {
        name: 'Alice Ltd',
        kind: 'paymail',
        destination: 'alice@y.io',
        note: 'supplier',
        usableFrom: 9_000,
        updatedBy: 'u2',
        updatedAt: 2_000,
      }),
    );
    const a = repos.payees.byId('payee_a')!;
    assert.deepEqual(
      [a.name, a.destination, a.note, a.usableFrom, a.updatedBy, a.updatedAt, a.createdAt],
      ['Alice Ltd', 'alice@y.io', 'supplier', 9_000, 'u2', 2_000, 1_000],
    );
    assert.equal(repos.payees.findActive('paymail', 'alice@x.io'), null);
    assert.ok(repos.payees.remove('payee_a', 'u2', 3_000));
    assert.equal(repos.payees.remove('payee_a', 'u2', 3_000), false, 'already removed');
    assert.equal(repos.payees.update('payee_a', { ...a, updatedBy: 'u2' }), false, 'a removed payee is not edited');
    assert.equal(repos.payees.byId('payee_a')?.state, 'removed');
    assert.equal(repos.payees.findActive('paymail', 'alice@y.io'), null);
    assert.deepEqual(
      repos.payees.list().map((p) => p.id),
      ['payee_b'],
    );
    assert.deepEqual(
      repos.payees.list({ all: true }).map((p) => [p.id, p.state]),
      [
        ['payee_b', 'active'],
        ['payee_a', 'removed'],
      ],
    );
  });

  it('holds one active payee per destination; a removed one frees it', () => {
    add('payee_1', 'carol@x.io');
    assert.throws(() => add('payee_2', 'carol@x.io'), /UNIQUE/);
    repos.payees.remove('payee_1', 'u1', 2_000);
    add('payee_2', 'carol@x.io');
    assert.equal(repos.payees.findActive('paymail', 'carol@x.io')?.id, 'payee_2');
  });
});

describe('engine: the payee book', () => {
  let engine: Engine;
  let store: Store;
  let clock: { now: number };
  let admin: Credentials;
  let repos: Repos;
  const run = <T>(p: Promise<{ output: T }>) => p.then((r) => r.output);
  const add = (input: object, who = admin) => run(engine.execute('addPayee', input, who, meta));
  const update = (input: object, who = admin) => run(engine.execute('updatePayee', input, who, meta));
  const list = (input: object = {}, who = admin) => run(engine.execute('listPayees', input, who, meta));

  beforeEach(async () => {
    // The tests move the clock by days: sessions must outlive that.
    ({ engine, store, clock } = testEngine({ sessionTtlMs: 30 * 24 * HOUR }));
    const s = (await engine.execute('setup', ADMIN, {}, meta)).output;
    admin = { authToken: s.authToken, serviceId: s.serviceId };
    repos = createRepos(store.db);
  });
  afterEach(() => engine.close());

  async function user(email: string, role: string): Promise<Credentials> {
    await run(engine.execute('createUser', { email, password: 'user-password-1', role }, admin, meta));
    const s = await run(engine.execute('login', { email, password: 'user-password-1' }, {}, meta));
    return { authToken: (s as { authToken: string }).authToken, serviceId: admin.serviceId };
  }

  it('a new payee is usable after the cooling-off period (24 hours by default), and payeeFor says so', async () => {
    const added = clock.now;
    const p = await add({ name: 'Alice', destination: 'Alice@Example.com', note: 'supplier' });
    assert.match(p.payeeId, /^payee_[A-Za-z0-9_-]{22}$/);
    assert.deepEqual(
      [p.kind, p.destination, p.note, p.state, p.usable, p.usableFrom],
      ['paymail', 'alice@example.com', 'supplier', 'active', false, new Date(added + 24 * HOUR).toISOString()],
    );
    assert.deepEqual(payeeFor(repos, { paymail: 'ALICE@example.COM' }, clock.now), {
      payeeId: p.payeeId,
      name: 'Alice',
      usable: false,
      usableFrom: added + 24 * HOUR,
    });
    assert.equal(payeeFor(repos, { paymail: 'ALICE@example.COM' }, added + 24 * HOUR - 1)?.usable, false);
    assert.equal(payeeFor(repos, { paymail: 'alice@example.com' }, added + 24 * HOUR)?.usable, true);
    clock.now += 24 * HOUR;
    assert.equal((await list()).payees[0].usable, true);
    assert.equal(payeeFor(repos, { paymail: 'bob@example.com' }, clock.now), null, 'not in the book');
    assert.equal(payeeFor(repos, {}, clock.now), null);
  });

  it('matches an address exactly and an identity key in any case; a paymail payee wins over the address it resolved to', async () => {
    const a = address();
    const k = identityKey();
    const byAddress = await add({ name: 'Cold store', destination: a });
    const byKey = await add({ name: 'Partner', destination: k.toUpperCase(), kind: 'identity_key' });
    const byPaymail = await add({ name: 'Shop', destination: 'shop@x.io' });
    assert.deepEqual([byAddress.kind, byKey.kind, byKey.destination], ['address', 'identity_key', k]);
    assert.equal(payeeFor(repos, { address: a }, clock.now)?.payeeId, byAddress.payeeId);
    assert.equal(payeeFor(repos, { address: a.toLowerCase() }, clock.now), null, 'base58 is case-sensitive');
    assert.equal(payeeFor(repos, { identityKey: k.toUpperCase() }, clock.now)?.payeeId, byKey.payeeId);
    assert.equal(payeeFor(repos, { paymail: 'shop@x.io', address: a }, clock.now)?.payeeId, byPaymail.payeeId);
    assert.equal(payeeFor(repos, { paymail: 'other@x.io', address: a }, clock.now)?.payeeId, byAddress.payeeId);
  });

  it('a changed destination starts a new cooling-off; a new name or note does not', async () => {
    const p = await add({ name: 'Alice', destination: 'alice@x.io' });
    clock.now += 30 * HOUR;
    assert.equal(payeeFor(repos, { paymail: 'alice@x.io' }, clock.now)?.usable, true);
    const renamed = await update({ id: p.payeeId, name: 'Alice Smith', note: 'paid monthly' });
    assert.deepEqual([renamed.name, renamed.note, renamed.usable, renamed.usableFrom], ['Alice Smith', 'paid monthly', true, p.usableFrom]);
    const same = await update({ id: p.payeeId, destination: ' ALICE@x.io ' });
    assert.equal(same.usableFrom, p.usableFrom, 'the same destination in other case is no change');
    const moved = await update({ id: p.payeeId, destination: 'alice@y.io' });
    assert.deepEqual(
      [moved.destination, moved.usable, moved.usableFrom],
      ['alice@y.io', false, new Date(clock.now + 24 * HOUR).toISOString()],
    );
    assert.equal(payeeFor(repos, { paymail: 'alice@x.io' }, clock.now), null, 'the old destination is no longer in the book');
    assert.equal(payeeFor(repos, { paymail: 'alice@y.io' }, clock.now)?.usable, false);
    const cleared = await update({ id: p.payeeId, note: '' });
    assert.equal(cleared.note, null);
    const a = address();
    const kindChanged = await update({ id: p.payeeId, destination: a });
    assert.deepEqual([kindChanged.kind, kindChanged.destination], ['address', a]);
    await rejectsWith(update({ id: p.payeeId }), 'VALIDATION_FAILED', /give the name, note or destination/);
    await rejectsWith(update({ id: p.payeeId, destination: 'nonsense' }), 'VALIDATION_FAILED', /^destination: /);
  });

  it('a removed payee is not matched, is kept, and frees its destination', async () => {
    const p = await add({ name: 'Alice', destination: 'alice@x.io' });
    clock.now += 25 * HOUR;
    const removed = await run(engine.execute('removePayee', { id: p.payeeId }, admin, meta));
    assert.deepEqual([removed.state, removed.usable], ['removed', false]);
    assert.equal(payeeFor(repos, { paymail: 'alice@x.io' }, clock.now), null);
    assert.deepEqual((await list()).payees, []);
    assert.deepEqual(
      (await list({ includeRemoved: 'true' })).payees.map((x) => [x.payeeId, x.state]),
      [[p.payeeId, 'removed']],
    );
    await rejectsWith(run(engine.execute('removePayee', { id: p.payeeId }, admin, meta)), 'CONFLICT', /was removed/);
    await rejectsWith(update({ id: p.payeeId, name: 'x' }), 'CONFLICT', /was removed/);
    await rejectsWith(update({ id: 'payee_nope', name: 'x' }), 'NOT_FOUND');
    const again = await add({ name: 'Alice again', destination: 'alice@x.io' });
    assert.equal(again.usable, false, 'added again: a new cooling-off');
    assert.equal(payeeFor(repos, { paymail: 'alice@x.io' }, clock.now)?.payeeId, again.payeeId);
  });

  it('refuses a destination another active payee holds (409 CONFLICT naming it), on add and on update', async () => {
    const a = await add({ name: 'Alice', destination: 'alice@x.io' });
    await rejectsWith(add({ name: 'Alias', destination: 'ALICE@X.IO' }), 'CONFLICT', /alice@x\.io is already in the payee book as "Alice"/);
    const b = await add({ name: 'Bob', destination: 'bob@x.io' });
    await rejectsWith(update({ id: b.payeeId, destination: 'alice@x.io' }), 'CONFLICT', new RegExp(a.payeeId));
    assert.equal((await list()).payees.length, 2);
  });

  it('the cooling-off period is set by an admin (0 to 720 hours) and applies to payees added or changed afterwards', async () => {
    const manager = await user('manager@acme.io', 'manager');
    const before = await add({ name: 'Before', destination: 'before@x.io' });
    assert.deepEqual(await run(engine.execute('payeeSettings', {}, admin, meta)), { coolingOffHours: 24 });
    await rejectsWith(run(engine.execute('setPayeeSettings', { coolingOffHours: 1 }, manager, meta)), 'ROLE_FORBIDDEN');
    await rejectsWith(run(engine.execute('setPayeeSettings', { coolingOffHours: 721 }, admin, meta)), 'VALIDATION_FAILED', /720/);
    await rejectsWith(run(engine.execute('setPayeeSettings', { coolingOffHours: 1.5 }, admin, meta)), 'VALIDATION_FAILED');
    await rejectsWith(run(engine.execute('setPayeeSettings', { coolingOffHours: -1 }, admin, meta)), 'VALIDATION_FAILED');

    assert.deepEqual(await run(engine.execute('setPayeeSettings', { coolingOffHours: 0 }, admin, meta)), { coolingOffHours: 0 });
    const now = await add({ name: 'Now', destination: 'now@x.io' }, manager);
    assert.deepEqual([now.usable, now.usableFrom], [true, new Date(clock.now).toISOString()]);
    assert.equal((await list()).payees.find((p) => p.payeeId === before.payeeId)?.usableFrom, before.usableFrom, 'not rewritten');
    assert.equal(payeeFor(repos, { paymail: 'before@x.io' }, clock.now)?.usable, false);

    await run(engine.execute('setPayeeSettings', { coolingOffHours: '48' }, admin, meta));
    assert.equal((await list()).coolingOffHours, 48);
    assert.equal((await list()).payees.find((p) => p.payeeId === now.payeeId)?.usable, true, 'a longer period does not hold back a payee');
    const later = await add({ name: 'Later', destination: 'later@x.io' });
    assert.equal(Date.parse(later.usableFrom) - clock.now, 48 * HOUR);

    repos.settings.set(COOLING_OFF_SETTING, 'garbage');
    assert.equal(coolingOffHours(repos), 24, 'an unreadable setting falls back to the default');
  });

  it('admins and managers keep the book; every role reads it; changes are audited naming the payee', async () => {
    const operator = await user('operator@acme.io', 'operator');
    const viewer = await user('viewer@acme.io', 'viewer');
    const manager = await user('manager@acme.io', 'manager');
    const p = await add({ name: 'Alice', destination: 'alice@x.io' }, manager);
    for (const who of [operator, viewer]) {
      await rejectsWith(add({ name: 'Eve', destination: 'eve@x.io' }, who), 'ROLE_FORBIDDEN');
      await rejectsWith(update({ id: p.payeeId, destination: 'eve@x.io' }, who), 'ROLE_FORBIDDEN');
      await rejectsWith(run(engine.execute('removePayee', { id: p.payeeId }, who, meta)), 'ROLE_FORBIDDEN');
      assert.deepEqual(
        (await list({}, who)).payees.map((x) => x.name),
        ['Alice'],
      );
    }
    await update({ id: p.payeeId, name: 'Alice Smith' });
    await rejectsWith(add({ name: 'Twin', destination: 'alice@x.io' }), 'CONFLICT');
    await run(engine.execute('removePayee', { id: p.payeeId }, manager, meta));
    const entries = repos.audit
      .page(Number.MAX_SAFE_INTEGER, 50)
      .filter((e) => /Payee/.test(e.action))
      .reverse()
      .map((e) => [e.action, e.target, e.outcome, e.code]);
    assert.deepEqual(entries, [
      ['addPayee', `${p.payeeId} "Alice" (paymail alice@x.io)`, 'success', null],
      // Refused before the input is read: the entry names no payee (role refusals name none).
      ['addPayee', null, 'error', 'ROLE_FORBIDDEN'],
      ['updatePayee', null, 'error', 'ROLE_FORBIDDEN'],
      ['removePayee', null, 'error', 'ROLE_FORBIDDEN'],
      ['addPayee', null, 'error', 'ROLE_FORBIDDEN'],
      ['updatePayee', null, 'error', 'ROLE_FORBIDDEN'],
      ['removePayee', null, 'error', 'ROLE_FORBIDDEN'],
      ['updatePayee', `${p.payeeId} "Alice Smith" (paymail alice@x.io)`, 'success', null],
      ['addPayee', '"Twin" (alice@x.io)', 'error', 'CONFLICT'],
      ['removePayee', `${p.payeeId} "Alice Smith" (paymail alice@x.io)`, 'success', null],
    ]);
  });

  it('tells every signed-in user that the book changed (live event)', async () => {
    const viewer = await user('viewer@acme.io', 'viewer');
    const heard: LiveEvent[] = [];
    const stream = engine.openEventStream(
      { credentials: viewer },
      (e) => heard.push(e),
      () => {},
    );
    try {
      const p = await add({ name: 'Alice', destination: 'alice@x.io' });
      await update({ id: p.payeeId, note: 'n' });
      await run(engine.execute('removePayee', { id: p.payeeId }, admin, meta));
      await run(engine.execute('setPayeeSettings', { coolingOffHours: 2 }, admin, meta));
      assert.deepEqual(
        heard.filter((e) => e.type === 'payees').map((e) => e.data),
        [
          { change: 'added', payeeId: p.payeeId },
          { change: 'updated', payeeId: p.payeeId },
          { change: 'removed', payeeId: p.payeeId },
          { change: 'settings', payeeId: null },
        ],
      );
    } finally {
      stream.close();
    }
  });
});
