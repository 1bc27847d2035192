import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { Credentials } from '../../main/engine/context.js';
import type { Engine } from '../../main/engine/engine.js';
import { EventHub } from '../../main/engine/events/hub.js';
import type { LiveEvent } from '../../shared/events.js';
import { rejectsWith } from '../helpers/assert-domain-error.js';
import { meta, testEngine, type TestEngine } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';
import { until } from '../helpers/until.js';

describe('live events: the hub keeps a bounded window for replay', () => {
  it('replays after an id, and says reset (null) once what followed it is gone', () => {
    const clock = { now: 1_000_000 };
    const hub = new EventHub({ now: () => clock.now, capacity: 3, windowMs: 60_000 });
    const start = hub.lastId;
    for (let i = 0; i < 3; i++) hub.publish('block', { height: i }, { kind: 'everyone' });
    assert.deepEqual(
      hub.since(start)?.map((s) => s.event.data),
      [{ height: 0 }, { height: 1 }, { height: 2 }],
    );
    hub.publish('block', { height: 3 }, { kind: 'everyone' });
    assert.equal(hub.since(start), null, 'the first event fell out of the capacity');
    assert.deepEqual(
      hub.since(start + 1)?.map((s) => s.event.data),
      [{ height: 1 }, { height: 2 }, { height: 3 }],
    );
    assert.deepEqual(hub.since(hub.lastId), []);
    assert.equal(hub.since(hub.lastId + 1), null, 'an id this run never gave');
    clock.now += 61_000;
    assert.equal(hub.since(start + 3), null, 'older than the window');
    assert.deepEqual(hub.since(hub.lastId), [], 'a client that saw the newest event misses nothing');
  });

  it('ids keep growing across restarts (they start from the clock)', () => {
    const first = new EventHub({ now: () => 5_000 });
    first.publish('block', { height: 1 }, { kind: 'everyone' });
    const second = new EventHub({ now: () => 6_000 });
    assert.ok(second.lastId > first.lastId);
    assert.equal(second.since(first.lastId), null, "an earlier run's id asks for a reload");
  });
});

describe('live events: who hears what', () => {
  let t: TestEngine;
  let engine: Engine;
  let admin: Credentials;
  const closers: (() => void)[] = [];

  beforeEach(async () => {
    t = testEngine({ liveEvents: { recheckMs: 20 } });
    engine = t.engine;
    const s = (await engine.execute('setup', ADMIN, {}, meta)).output;
    admin = { authToken: s.authToken, serviceId: s.serviceId };
  });
  afterEach(() => {
    for (const c of closers.splice(0)) c();
    engine.close();
  });

  async function user(email: string, role: string): Promise<Credentials & { uid: string }> {
    await engine.execute('createUser', { email, password: 'user-password-1', role }, admin, meta);
    const s = (await engine.execute('login', { email, password: 'user-password-1' }, {}, meta)).output;
    return { authToken: s.authToken, serviceId: s.serviceId, uid: s.uid };
  }

  function listen(credentials: Credentials) {
    const events: LiveEvent[] = [];
    const ended: string[] = [];
    const stream = engine.openEventStream(
      { credentials },
      (e) => events.push(e),
      (r) => ended.push(r),
    );
    closers.push(() => stream.close());
    return { events, ended, stream };
  }

  it("a shared wallet's members hear about it; other users do not; the fee manager is heard by the treasury roles", async () => {
    const member = await user('member@acme.io', 'operator');
    const outsider = await user('outsider@acme.io', 'operator');
    const manager = await user('manager@acme.io', 'manager');
    const shared = (
      await engine.execute('createWallet', { walletTitle: 'Joint', type: 'shared', members: ['member@acme.io'] }, admin, meta)
    ).output.walletID;
    await engine.execute('feeManagerInit', {}, admin, meta);
    const heard = { admin: listen(admin), member: listen(member), outsider: listen(outsider), manager: listen(manager) };

    await engine.execute('faucet', { walletId: shared, satoshis: 4_000 }, admin, meta);
    const fee = (await engine.execute('feeManagerAddresses', {}, admin, meta)).output.addresses[0];
    await engine.execute('faucet', { address: fee, satoshis: 3_000 }, admin, meta);
    await until('balances', async () => (heard.admin.events.filter((e) => e.type === 'balance').length >= 2 ? true : undefined));

    const wallets = (who: keyof typeof heard, type: string) =>
      heard[who].events
        .filter((e) => e.type === type)
        .map((e) => (e.data as { walletID: string }).walletID)
        .sort();
    assert.deepEqual(wallets('admin', 'payment.received'), ['fee-manager', shared].sort());
    assert.deepEqual(wallets('member', 'payment.received'), [shared]);
    assert.deepEqual(wallets('outsider', 'payment.received'), []);
    assert.deepEqual(
      wallets('manager', 'payment.received'),
      ['fee-manager'],
      'the manager may read the fee manager, not the shared wallet',
    );
    const low = heard.manager.events.find((e) => e.type === 'feeManager.low');
    assert.deepEqual(low?.data, { satoshis: 3_000, threshold: 10_000 });
    assert.equal(
      heard.outsider.events.some((e) => e.type === 'feeManager.low'),
      false,
    );
  });

  it('a stream ends when its session does (signed out), and cannot be opened with it again', async () => {
    const op = await user('op@acme.io', 'operator');
    const s = listen(op);
    await engine.execute('logout', {}, op, meta);
    const reason = await until('the stream to end', async () => s.ended[0]);
    assert.match(reason, /signed out/);
    assert.throws(
      () =>
        engine.openEventStream(
          { credentials: op },
          () => undefined,
          () => undefined,
        ),
      /signed out/,
    );
  });

  it('replays from the start of the run: the first wallet scan started and finished', async () => {
    const events: LiveEvent[] = [];
    const stream = engine.openEventStream(
      { credentials: admin, lastEventId: t.clock.now * 1000 },
      (e) => events.push(e),
      () => undefined,
    );
    closers.push(() => stream.close());
    assert.deepEqual(
      events.filter((e) => e.type === 'sync.state').map((e) => e.data),
      [{ syncing: true }, { syncing: false }],
    );
  });

  it('refuses a stream without credentials or with a wrong ticket', async () => {
    await rejectsWith(
      Promise.resolve().then(() =>
        engine.openEventStream(
          { credentials: {} },
          () => undefined,
          () => undefined,
        ),
      ),
      'UNAUTHORIZED',
    );
    await rejectsWith(
      Promise.resolve().then(() =>
        engine.openEventStream(
          { credentials: {}, ticket: 'made-up' },
          () => undefined,
          () => undefined,
        ),
      ),
      'INVALID_CREDENTIALS',
    );
  });
});

describe('live events: a stream that is not read is closed, not buffered', () => {
  it('writes while little waits unsent, and closes the stream once more than the bound waits', async () => {
    const { PassThrough } = await import('node:stream');
    const { boundedWriter, MAX_UNSENT_BYTES } = await import('../../main/server/events-route.js');
    const unread = new PassThrough({ highWaterMark: 16 });
    const write = boundedWriter(unread, 100);
    for (let i = 0; i < 3; i++) write('x'.repeat(40));
    assert.equal(unread.writableLength, 120, 'written while at most the bound waited');
    assert.equal(unread.destroyed, false);
    write('y'.repeat(40));
    assert.equal(unread.destroyed, true, 'past the bound: closed');
    write('z');
    const read = new PassThrough();
    const chunks: string[] = [];
    read.on('data', (c: Buffer) => chunks.push(c.toString()));
    const live = boundedWriter(read, 100);
    for (let i = 0; i < 1_000; i++) live('x'.repeat(40));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(read.destroyed, false, 'a client that reads is never closed');
    assert.equal(chunks.join('').length, 40_000);
    assert.ok(MAX_UNSENT_BYTES >= 1 << 20, 'the server allows a megabyte unsent');
  });
});
