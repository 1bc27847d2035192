import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { after, afterEach, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import type { Caller } from '../../main/engine/context.js';
import { EventHub } from '../../main/engine/events/hub.js';
import { EventStreams, MAX_TICKETS, MAX_TICKETS_PER_USER, TICKET_TTL_MS } from '../../main/engine/events/streams.js';
import { LAST_USED_RESOLUTION_MS } from '../../main/engine/auth/authenticate.js';
import { clientAddress, limitKey } from '../../main/server/client-address.js';
import { buildPaymailServer, type PaymailListenerLimits } from '../../main/server/paymail-server.js';
import { PAYMAIL_BODY_LIMITS } from '../../main/server/paymail-routes.js';
import { rejectsWith } from '../helpers/assert-domain-error.js';
import { meta, testEngine, type TestEngine } from '../helpers/engine.js';
import { freePort } from '../helpers/free-port.js';
import { startHeadless } from '../helpers/headless.js';
import { ADMIN, request } from '../helpers/http.js';
import { setUpOrg, type Org } from '../helpers/org.js';
import { openSse } from '../helpers/sse.js';
import { tempDir } from '../helpers/tmp.js';
import { until } from '../helpers/until.js';

const VIEWER = { email: 'vic@acme.io', password: 'viewer-password-1', role: 'viewer', firstName: 'Vic', lastName: 'Viewer', title: '' };

/** One raw connection from a chosen loopback address: what it was answered and when the server closed it. */
interface RawConn {
  socket: net.Socket;
  text: () => string;
  closed: Promise<void>;
  isClosed: () => boolean;
}

/** Every raw connection a test opened: destroyed after each test, so a failed one cannot keep its server open. */
const rawConns: net.Socket[] = [];

function connect(port: number, localAddress = '127.0.0.1'): Promise<RawConn> {
  return new Promise((resolve, reject) => {
    let text = '';
    let done = false;
    const socket = net.connect({ port, host: '127.0.0.1', localAddress });
    rawConns.push(socket);
    const closed = new Promise<void>((r) => socket.once('close', () => ((done = true), r())));
    socket.on('data', (d) => (text += d));
    // The server may close mid-write (that is the point of several tests): the close is what is checked.
    socket.on('error', () => {});
    socket.once('connect', () => resolve({ socket, text: () => text, closed, isClosed: () => done }));
    socket.once('close', () => reject(new Error('closed before connecting')));
  });
}

const statusOf = (text: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
const bodyOf = (text: string) => JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));

/** The server closes the connection (bounded wait, so a test without the limit fails rather than hangs). */
async function closedByServer(c: RawConn, what: string): Promise<void> {
  await until(what, async () => (c.isClosed() ? true : undefined), 10_000);
}

/** A plain request from a chosen loopback address, on its own connection. */
function call(
  port: number,
  method: string,
  path: string,
  opts: { localAddress?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        localAddress: opts.localAddress,
        agent: false,
        headers: {
          host: 'pay.acme.test',
          ...opts.headers,
          ...(opts.body !== undefined
            ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(opts.body)) }
            : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            /* keep the text */
          }
          resolve({ status: res.statusCode ?? 0, body });
        });
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

describe('event tickets: a per-user cap, and a pool one user cannot exhaust', () => {
  const USERS = new Map<string, Caller>();
  const callerFor = (uid: string): Caller => {
    if (!USERS.has(uid)) USERS.set(uid, { uid, email: `${uid}@acme.io`, role: 'viewer', sessionHash: `session-of-${uid}` });
    return USERS.get(uid)!;
  };
  /** The streams over stand-in repos in which every session is live (tickets are what is tested). */
  function streams(clock: { now: number }) {
    const repos = {
      sessions: { byHash: (h: string) => ({ uid: h.replace('session-of-', ''), revokedAt: null, expiresAt: Number.MAX_SAFE_INTEGER }) },
      users: { byUid: (uid: string) => ({ ...callerFor(uid), deletedAt: null }) },
    };
    const now = () => clock.now;
    return new EventStreams({ repos: repos as never, now }, new EventHub({ now }));
  }
  const opens = (s: EventStreams, ticket: string): boolean => {
    try {
      s.open(
        { credentials: {}, ticket },
        () => {},
        () => {},
      ).close();
      return true;
    } catch {
      return false;
    }
  };

  it("never refuses a ticket; past the per-user cap the user's own oldest expire first (fast-check)", () => {
    type Step = { user: number; action: 'issue' | 'use-newest' | 'use-oldest' | 'wait' };
    const actions = fc.constantFrom<Step['action']>(
      'issue',
      'issue',
      'issue',
      'issue',
      'issue',
      'issue',
      'use-newest',
      'use-oldest',
      'wait',
    );
    const step = fc.record({ user: fc.integer({ min: 0, max: 2 }), action: actions });
    fc.assert(
      fc.property(fc.array(step, { minLength: 20, maxLength: 300, size: 'max' }), (steps) => {
        const clock = { now: 1_000_000 };
        const s = streams(clock);
        // The rule as a model: each user's live tickets, oldest first; expired ones leave, then past the cap
        // the oldest leaves, before a new one is added.
        const model = new Map<number, { ticket: string; expiresAt: number }[]>();
        const issuedTo = new Map<number, string[]>();
        for (const { user, action } of steps) {
          const live = model.get(user) ?? [];
          const given = issuedTo.get(user) ?? [];
          if (action === 'wait') clock.now += TICKET_TTL_MS / 16;
          else if (action === 'issue') {
            const fresh = live.filter((t) => t.expiresAt > clock.now);
            while (fresh.length >= MAX_TICKETS_PER_USER) fresh.shift();
            const { ticket } = s.issueTicket(callerFor(`u${user}`));
            fresh.push({ ticket, expiresAt: clock.now + TICKET_TTL_MS });
            model.set(user, fresh);
            issuedTo.set(user, [...given, ticket]);
          } else {
            const ticket = action === 'use-newest' ? given.at(-1) : given[0];
            if (!ticket) continue;
            issuedTo.set(
              user,
              given.filter((t) => t !== ticket),
            );
            const expected = live.some((t) => t.ticket === ticket && t.expiresAt > clock.now);
            model.set(
              user,
              live.filter((t) => t.ticket !== ticket),
            );
            assert.equal(opens(s, ticket), expected, `${action}: ${given.length} unused, ${live.length} live`);
          }
          assert.ok(s.outstanding(`u${user}`) <= MAX_TICKETS_PER_USER);
        }
        // The newest ticket of each user always works.
        for (const [user, live] of model) {
          const newest = live.at(-1);
          if (newest && newest.expiresAt > clock.now) assert.equal(opens(s, newest.ticket), true, `u${user}'s newest`);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('many users together fill the pool: the oldest ticket anyone holds goes first, the newest always works', () => {
    const clock = { now: 1_000_000 };
    const s = streams(clock);
    const users = Math.ceil(MAX_TICKETS / MAX_TICKETS_PER_USER) + 10;
    const first = s.issueTicket(callerFor('user-0')).ticket;
    let last = '';
    for (let u = 0; u < users; u++) for (let i = 0; i < MAX_TICKETS_PER_USER; i++) last = s.issueTicket(callerFor(`user-${u}`)).ticket;
    assert.equal(s.outstanding(), MAX_TICKETS, 'the pool is bounded');
    assert.equal(opens(s, first), false, 'the oldest went first');
    assert.equal(opens(s, last), true, 'the newest works');
    const late = s.issueTicket(callerFor('late-comer')).ticket;
    assert.equal(opens(s, late), true, 'a user arriving at a full pool still gets a working ticket');
  });
});

describe('API keys: only a password sign-in mints them; they show when they were last used', () => {
  let t: TestEngine;
  afterEach(() => t?.engine.close());

  it('"last used" moves with use, written at most once a minute per key', async () => {
    t = testEngine();
    const { engine, clock } = t;
    const s = (await engine.execute('setup', ADMIN, {}, meta)).output;
    const admin = { authToken: s.authToken };
    const key = (await engine.execute('createApiKey', { label: 'ci' }, admin, meta)).output;
    const lastUsed = async () =>
      (await engine.execute('listApiKeys', {}, admin, meta)).output.apiKeys.find((k) => k.keyId === key.keyId)!.lastUsedAt;
    const use = () => engine.execute('me', {}, { uid: key.uid, apiKey: key.apiKey }, meta);
    assert.equal(await lastUsed(), null, 'never used yet');

    const t0 = clock.now;
    await use();
    assert.equal(await lastUsed(), new Date(t0).toISOString());
    for (const later of [1, 1_000, LAST_USED_RESOLUTION_MS / 2, LAST_USED_RESOLUTION_MS - 1]) {
      clock.now = t0 + later;
      await use();
      assert.equal(await lastUsed(), new Date(t0).toISOString(), `no write ${later} ms after the last one`);
    }
    clock.now = t0 + LAST_USED_RESOLUTION_MS;
    await use();
    assert.equal(await lastUsed(), new Date(clock.now).toISOString(), 'a minute on, it moves');
    clock.now += 5 * LAST_USED_RESOLUTION_MS;
    await use();
    assert.equal(await lastUsed(), new Date(clock.now).toISOString());
  });

  it('an API key cannot create keys, rotate another key or manage users; it may rotate itself (engine)', async () => {
    t = testEngine();
    const { engine } = t;
    const s = (await engine.execute('setup', ADMIN, {}, meta)).output;
    const admin = { authToken: s.authToken };
    const a = (await engine.execute('createApiKey', { label: 'a' }, admin, meta)).output;
    const b = (await engine.execute('createApiKey', { label: 'b' }, admin, meta)).output;
    const viaA = { uid: a.uid, apiKey: a.apiKey };
    await rejectsWith(engine.execute('createApiKey', { label: 'successor' }, viaA, meta), 'SESSION_REQUIRED', /sign in with your password/);
    await rejectsWith(engine.execute('rotateApiKey', { keyId: b.keyId }, viaA, meta), 'SESSION_REQUIRED');
    // Nothing was minted by the refused calls.
    assert.deepEqual(
      (await engine.execute('listApiKeys', {}, admin, meta)).output.apiKeys.map((k) => k.label),
      ['a', 'b'],
    );
    // Nor manage users: a key could make an admin with a password of its own choosing and sign in as them.
    const org = { authToken: s.authToken, serviceId: s.serviceId };
    const keyA = { ...viaA, serviceId: s.serviceId };
    const users = () => engine.execute('listUsers', {}, org, meta).then((r) => r.output.users.map((u: { email: string }) => u.email));
    const before = await users();
    const mate = { email: 'mate@acme.io', password: 'a-password-of-mine', role: 'admin' };
    await rejectsWith(engine.execute('createUser', mate, keyA, meta), 'SESSION_REQUIRED', /manage users/);
    const operator = (await engine.execute('createUser', { ...mate, email: 'op@acme.io', role: 'operator' }, org, meta)).output;
    await rejectsWith(engine.execute('updateUser', { userId: operator.uid, role: 'admin' }, keyA, meta), 'SESSION_REQUIRED');
    await rejectsWith(engine.execute('deleteUser', { userId: operator.uid }, keyA, meta), 'SESSION_REQUIRED');
    assert.deepEqual(await users(), [...before, 'op@acme.io'], 'no user was made or removed by the key');
    const a2 = (await engine.execute('rotateApiKey', { keyId: a.keyId }, viaA, meta)).output;
    await rejectsWith(engine.execute('me', {}, viaA, meta), 'INVALID_CREDENTIALS');
    await engine.execute('me', {}, { uid: a2.uid, apiKey: a2.apiKey }, meta);
    assert.equal((await engine.execute('listApiKeys', {}, admin, meta)).output.apiKeys.length, 2, 'rotation replaced one for one');
  });
});

describe('per caller, over HTTP: tickets, API keys, and the listener behind a trusted proxy', () => {
  let org: Org;
  let viewer: Record<string, string>;
  let paymailPort = 0;
  before(async () => {
    paymailPort = await freePort();
    org = await setUpOrg(
      await startHeadless({
        dataDir: tempDir(),
        password: 'pw-limits',
        args: ['--paymail-domain', 'acme.test', '--paymail-listen', `127.0.0.1:${paymailPort}`, '--trust-proxy', '127.0.0.2'],
      }),
    );
    const u = await request(org.host.url, 'POST', '/api/v1/createUser', {
      body: VIEWER,
      headers: { ...org.auth, serviceid: org.serviceid },
    });
    assert.equal(u.status, 200, JSON.stringify(u.body));
    const login = await request(org.host.url, 'POST', '/api/v1/login', { body: { email: VIEWER.email, password: VIEWER.password } });
    viewer = { authToken: login.body.data.authToken };
  });
  after(() => org.host.stop());

  const openWith = (ticket: string) => openSse(`${org.host.url}/v1/events?ticket=${encodeURIComponent(ticket)}`);

  it("a viewer asking for 10,000 tickets does not lock the admin out; the viewer's newest work, the oldest are gone", async () => {
    const tickets: string[] = [];
    for (let i = 0; i < 10_000; i += 20) {
      const batch = await Promise.all(
        Array.from({ length: 20 }, () => request(org.host.url, 'POST', '/v1/events/ticket', { headers: viewer, body: {} })),
      );
      for (const r of batch) {
        assert.equal(r.status, 200, JSON.stringify(r.body));
        tickets.push(r.body.data.ticket);
      }
    }
    const adminTicket = await request(org.host.url, 'POST', '/v1/events/ticket', { headers: org.auth, body: {} });
    assert.equal(adminTicket.status, 200, JSON.stringify(adminTicket.body));
    const adminStream = await openWith(adminTicket.body.data.ticket);
    assert.equal(adminStream.status, 200, JSON.stringify(adminStream.body));
    adminStream.close();

    const newest = await openWith(tickets.at(-1)!);
    assert.equal(newest.status, 200, "the viewer's newest ticket works");
    newest.close();
    for (const old of [tickets[0], tickets[5_000], tickets.at(-1 - MAX_TICKETS_PER_USER)!]) {
      const s = await openWith(old);
      assert.equal(s.status, 401);
      assert.equal(s.body.data.code, 'INVALID_CREDENTIALS');
    }
  });

  it('an API key creating an API key is refused with 403 SESSION_REQUIRED, on REST and RPC; a session may', async () => {
    const made = await request(org.host.url, 'POST', '/api/v1/apiKeys', { headers: viewer, body: { label: 'script' } });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const viaKey = { uid: made.body.data.uid, apikey: made.body.data.apiKey };
    for (const [path, body] of [
      ['/api/v1/apiKeys', { label: 'successor' }],
      ['/rpc/createApiKey', { label: 'successor' }],
    ] as const) {
      const r = await request(org.host.url, 'POST', path, { headers: viaKey, body });
      assert.equal(r.status, 403, `${path}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.data.code, 'SESSION_REQUIRED');
      assert.match(r.body.data.msg, /API key cannot create API keys/);
    }
    const other = await request(org.host.url, 'POST', '/api/v1/apiKeys', { headers: viewer, body: { label: 'other' } });
    const rotateOther = await request(org.host.url, 'POST', '/api/v1/apiKeys/rotate', {
      headers: viaKey,
      body: { keyId: other.body.data.keyId },
    });
    assert.equal(rotateOther.status, 403);
    assert.equal(rotateOther.body.data.code, 'SESSION_REQUIRED');
    const listed = await request(org.host.url, 'GET', '/api/v1/apiKeys', { headers: viaKey });
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body.data.apiKeys.map((k: { label: string }) => k.label).sort(), ['other', 'script']);
    assert.ok(listed.body.data.apiKeys.find((k: { label: string }) => k.label === 'script').lastUsedAt, 'the key shows its use');
  });

  it('behind --trust-proxy, the rightmost untrusted X-Forwarded-For entry is the client; anyone else is their address', async () => {
    // 127.0.0.2 is the trusted proxy. The client behind it varies what it sends: the proxy's entry decides.
    let limited = 0;
    for (let i = 0; i < 160; i++) {
      const r = await call(paymailPort, 'GET', '/.well-known/bsvalias', {
        localAddress: '127.0.0.2',
        headers: { 'x-forwarded-for': `10.9.${i % 250}.${i % 7}, 203.0.113.7` },
      });
      if (r.status === 429) limited++;
    }
    assert.ok(limited > 0, 'the client behind the proxy is limited however it varies the header');
    const other = await call(paymailPort, 'GET', '/.well-known/bsvalias', {
      localAddress: '127.0.0.2',
      headers: { 'x-forwarded-for': '198.51.100.9' },
    });
    assert.equal(other.status, 200, 'another client behind the proxy has its own allowance');
    // A stranger connecting directly is keyed by its own address, whatever it claims to be.
    let strangerLimited = 0;
    for (let i = 0; i < 160; i++) {
      const r = await call(paymailPort, 'GET', '/.well-known/bsvalias', {
        localAddress: '127.0.0.3',
        headers: { 'x-forwarded-for': `198.51.100.${i % 250}` },
      });
      if (r.status === 429) strangerLimited++;
    }
    assert.ok(strangerLimited > 0, 'the stranger is limited however it varies the header');
  });
});

describe('the public paymail listener: limits keyed on the peer, time and size bounds, a connection cap', () => {
  let t: TestEngine;
  let app: FastifyInstance;
  let port = 0;
  const TEST_LIMITS: Partial<PaymailListenerLimits> = {
    perClientPerMinute: 3,
    headersTimeoutMs: 500,
    requestTimeoutMs: 1_000,
    maxConnections: 8,
    maxConnectionsPerPeer: 4,
  };

  async function listen(opts: { limits?: Partial<PaymailListenerLimits>; trustedProxies?: string[] } = {}) {
    t = testEngine();
    app = await buildPaymailServer({ engine: t.engine, limits: { ...TEST_LIMITS, ...opts.limits }, trustedProxies: opts.trustedProxies });
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as net.AddressInfo).port;
  }
  afterEach(async () => {
    for (const socket of rawConns.splice(0)) socket.destroy();
    await app?.close();
    t?.engine.close();
  });

  it('a stranger cannot choose their rate-limit key with X-Forwarded-For (no trusted proxy)', async () => {
    await listen();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push(
        (await call(port, 'GET', '/.well-known/bsvalias', { localAddress: '127.0.0.5', headers: { 'x-forwarded-for': `203.0.113.${i}` } }))
          .status,
      );
    assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
    // Loopback is no exception: a process on this machine is keyed by its address too.
    const fromLoopback: number[] = [];
    for (let i = 0; i < 4; i++)
      fromLoopback.push(
        (await call(port, 'GET', '/.well-known/bsvalias', { localAddress: '127.0.0.1', headers: { 'x-forwarded-for': `198.51.100.${i}` } }))
          .status,
      );
    assert.deepEqual(fromLoopback, [200, 200, 200, 429]);
    assert.equal(
      (await call(port, 'GET', '/.well-known/bsvalias', { localAddress: '127.0.0.6' })).status,
      200,
      'another peer has its own allowance',
    );
  });

  it('with a trusted proxy: the rightmost untrusted entry, never what the client prepends', async () => {
    await listen({ trustedProxies: ['127.0.0.7', '10.0.0.1'] });
    const via = (xff: string) =>
      call(port, 'GET', '/.well-known/bsvalias', { localAddress: '127.0.0.7', headers: { 'x-forwarded-for': xff } });
    const statuses: number[] = [];
    // The client (203.0.113.7) prepends a different address each time; a second proxy (10.0.0.1) is skipped.
    for (let i = 0; i < 4; i++) statuses.push((await via(`192.0.2.${i}, 203.0.113.7, 10.0.0.1`)).status);
    assert.deepEqual(statuses, [200, 200, 200, 429]);
    assert.equal((await via('203.0.113.8')).status, 200, 'the next client behind the proxy is its own');
    // A peer that is not a trusted proxy is its own client, whatever it forwards.
    const direct: number[] = [];
    for (let i = 0; i < 4; i++)
      direct.push(
        (
          await call(port, 'GET', '/.well-known/bsvalias', {
            localAddress: '127.0.0.8',
            headers: { 'x-forwarded-for': `203.0.113.${100 + i}` },
          })
        ).status,
      );
    assert.deepEqual(direct, [200, 200, 200, 429]);
  });

  it('builds capability URLs from the Host, from X-Forwarded-Host only through a trusted proxy, and refuses a Host that is not one', async () => {
    await listen({ trustedProxies: ['127.0.0.7'], limits: { perClientPerMinute: 100 } });
    const receiveAt = async (localAddress: string, headers: Record<string, string>) => {
      const r = await call(port, 'GET', '/.well-known/bsvalias', { localAddress, headers });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body.capabilities['5f1323cddf31'] as string;
    };
    const at = (host: string) => `http://${host}/api/bsvalias/receive-transaction/{alias}@{domain.tld}`;
    // A stranger's X-Forwarded-Host is nobody's word: the answer is built from the Host it connected with.
    assert.equal(await receiveAt('127.0.0.5', { 'x-forwarded-host': 'evil.example' }), at('pay.acme.test'));
    assert.equal(
      await receiveAt('127.0.0.5', { 'x-forwarded-host': 'evil.example', host: 'pay.acme.test:8443' }),
      at('pay.acme.test:8443'),
    );
    // Through the trusted proxy, the host it forwards: the last entry, which it wrote (not what the client put before it).
    assert.equal(await receiveAt('127.0.0.7', { host: '127.0.0.1:7490', 'x-forwarded-host': 'pay.acme.test' }), at('pay.acme.test'));
    assert.equal(await receiveAt('127.0.0.7', { 'x-forwarded-host': 'evil.example, pay.acme.test' }), at('pay.acme.test'));
    for (const host of ['[2001:db8::1]:7490', '192.0.2.7:8080', 'xn--bcher-kva.example', 'pay.acme.test.', 'keystead_pay:7490'])
      assert.equal(await receiveAt('127.0.0.5', { host }), at(host), host);
    const notHosts = [
      'pay.acme.test/evil?',
      'evil.example#x',
      'user@evil.example',
      '"><script>',
      'pay.acme.test:99999x',
      'a b',
      '-x.example',
    ];
    for (const host of notHosts) {
      for (const [from, headers] of [
        ['127.0.0.5', { host }],
        ['127.0.0.7', { 'x-forwarded-host': host }],
      ] as const) {
        const r = await call(port, 'GET', '/.well-known/bsvalias', { localAddress: from, headers });
        assert.equal(r.status, 400, `${from} ${host}`);
        assert.deepEqual(r.body, {
          code: 'bad-request',
          message: 'The Host header is not a host name or address (with an optional port).',
        });
      }
    }
  });

  it('cuts off a slowloris sending one header byte at a time, and a body that trickles in', async () => {
    await listen({ limits: { perClientPerMinute: 1_000 } });
    const loris = await connect(port, '127.0.0.9');
    loris.socket.write('GET /.well-known/bsvalias HTTP/1.1\r\nHost: pay.acme.test\r\nX-Slow: ');
    const drip = setInterval(() => loris.isClosed() || loris.socket.write('a'), 100);
    try {
      await closedByServer(loris, 'the slowloris to be cut off');
    } finally {
      clearInterval(drip);
    }
    assert.notEqual(statusOf(loris.text()), 200);

    const trickle = await connect(port, '127.0.0.9');
    trickle.socket.write(
      `POST /api/bsvalias/p2p-payment-destination/shop@acme.test HTTP/1.1\r\nHost: pay.acme.test\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{"satoshis":`,
    );
    const drip2 = setInterval(() => trickle.isClosed() || trickle.socket.write(' '), 100);
    try {
      await closedByServer(trickle, 'the trickling body to be cut off');
    } finally {
      clearInterval(drip2);
    }
    assert.equal(statusOf(trickle.text()) === 200, false);
    assert.equal(
      (await call(port, 'GET', '/.well-known/bsvalias', { localAddress: '127.0.0.10' })).status,
      200,
      'an honest client is served',
    );
  });

  it('refuses a body larger than its route takes with 413, by the declared length and as a chunked stream, then closes', async () => {
    // Time enough to send the largest bodies: what is tested here is their size.
    await listen({ limits: { perClientPerMinute: 1_000, requestTimeoutMs: 60_000 } });
    const routes = [
      ['/api/bsvalias/address/shop@acme.test', PAYMAIL_BODY_LIMITS.destination],
      ['/api/bsvalias/p2p-payment-destination/shop@acme.test', PAYMAIL_BODY_LIMITS.destination],
      ['/api/bsvalias/receive-transaction/shop@acme.test', PAYMAIL_BODY_LIMITS.receiveTransaction],
      ['/api/bsvalias/beef/shop@acme.test', PAYMAIL_BODY_LIMITS.beef],
    ] as const;
    assert.ok(PAYMAIL_BODY_LIMITS.beef < 8 * 1024 * 1024, 'a BEEF route is not a 32 MiB route');
    for (const [path, limit] of routes) {
      // Declared too large: refused from the header, before the body is read.
      const declared = await connect(port, '127.0.0.11');
      declared.socket.write(
        `POST ${path} HTTP/1.1\r\nHost: pay.acme.test\r\nContent-Type: application/json\r\nContent-Length: ${limit + 1}\r\n\r\n{"a":"`,
      );
      await closedByServer(declared, `${path}: the connection closed after the 413`);
      assert.equal(statusOf(declared.text()), 413, `${path}: ${declared.text().slice(0, 200)}`);
      assert.equal(bodyOf(declared.text()).code, 'payload-too-large');

      // Exactly at the limit: read and answered by the route (here: no such paymail).
      const pad = 'x'.repeat(limit - JSON.stringify({ satoshis: 1, reference: 'r', hex: '', beef: '', p: '' }).length);
      const atLimit = await call(port, 'POST', path, {
        localAddress: '127.0.0.12',
        body: JSON.stringify({ satoshis: 1, reference: 'r', hex: '', beef: '', p: pad }),
      });
      assert.notEqual(atLimit.status, 413, `${path} takes a body of exactly ${limit} bytes`);
    }
    // Chunked, no length: cut off as soon as the stream passes the limit, whatever the chunk sizes (fast-check).
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), fc.integer({ min: 256, max: 64 * 1024 }), async ([path, limit], chunk) => {
        const c = await connect(port, '127.0.0.13');
        c.socket.write(
          `POST ${path} HTTP/1.1\r\nHost: pay.acme.test\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
        );
        let sent = 0;
        while (!c.isClosed() && sent <= limit) {
          const ok = c.socket.write(`${chunk.toString(16)}\r\n${' '.repeat(chunk)}\r\n`);
          sent += chunk;
          if (!ok) await Promise.race([new Promise((r) => c.socket.once('drain', r)), c.closed]);
        }
        await closedByServer(c, `${path}: chunked over the limit closes`);
        assert.equal(statusOf(c.text()), 413, `${path} chunked by ${chunk}`);
      }),
      { numRuns: 12 },
    );
    // The GET routes take no body at all.
    for (const path of ['/.well-known/bsvalias', '/api/bsvalias/id/shop@acme.test', '/api/bsvalias/verify-pubkey/shop@acme.test/02ab']) {
      const c = await connect(port, '127.0.0.14');
      c.socket.write(`GET ${path} HTTP/1.1\r\nHost: pay.acme.test\r\nContent-Length: 1000000\r\n\r\n`);
      await closedByServer(c, `GET ${path} with a body closes`);
      assert.equal(statusOf(c.text()), 413, path);
    }
    assert.equal(
      (await call(port, 'GET', '/.well-known/bsvalias', { localAddress: '127.0.0.15' })).status,
      200,
      'an honest client is served',
    );
  });

  it('caps connections per peer and in all; the idle flood is cut off and a fresh honest client is served', async () => {
    await listen({ limits: { perClientPerMinute: 1_000 } });
    const flood: RawConn[] = [];
    for (let i = 0; i < 4; i++) flood.push(await connect(port, '127.0.0.20'));
    const fifth = await connect(port, '127.0.0.20');
    await closedByServer(fifth, 'a fifth connection from one peer to be refused');
    assert.equal(fifth.text(), '', 'refused before any answer');
    for (const c of flood) assert.equal(c.isClosed(), false, 'the first four stay open (until their headers time out)');

    for (let i = 0; i < 4; i++) flood.push(await connect(port, `127.0.0.${21 + i}`));
    const beyond = await connect(port, '127.0.0.30').catch(() => null);
    if (beyond) await closedByServer(beyond, 'a connection beyond the global cap to be refused');

    // The flood never sent a request: each connection is closed by the headers timeout, freeing the slots.
    for (const c of flood) await closedByServer(c, 'an idle flood connection to be cut off');
    assert.equal(
      (await call(port, 'GET', '/.well-known/bsvalias', { localAddress: '127.0.0.31' })).status,
      200,
      'a fresh honest client is served',
    );
    assert.equal(
      (await call(port, 'GET', '/.well-known/bsvalias', { localAddress: '127.0.0.20' })).status,
      200,
      'the flooding peer too, once its connections are gone',
    );
  });
});

describe('who the client is (fast-check)', () => {
  const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((p) => p.join('.'));
  const ipv6 = fc
    .array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 })
    .map((g) => g.map((x) => x.toString(16)).join(':'));
  const anything = fc.oneof(ipv4, ipv6, fc.string({ maxLength: 30 }));

  it('without a trusted proxy the peer is the client, whatever X-Forwarded-For says', () => {
    fc.assert(
      fc.property(fc.oneof(ipv4, ipv6), fc.array(anything, { maxLength: 6 }), (peer, hops) => {
        assert.equal(clientAddress(peer, hops.join(', '), new Set()), peer);
        if (net.isIPv4(peer)) assert.equal(clientAddress(`::ffff:${peer}`, hops, new Set()), peer, 'as a dual-stack socket reports it');
      }),
    );
  });

  it('from a trusted proxy, what the client prepends never changes its key', () => {
    fc.assert(
      fc.property(ipv4, fc.array(anything, { maxLength: 6 }), fc.array(anything, { maxLength: 6 }), (client, spoofA, spoofB) => {
        const trusted = new Set(['10.0.0.1', '10.0.0.2']);
        fc.pre(!trusted.has(client));
        const a = clientAddress('10.0.0.1', [...spoofA, client, '10.0.0.2'].join(','), trusted);
        const b = clientAddress('::ffff:10.0.0.1', [...spoofB, client].join(' , '), trusted);
        assert.equal(a, client);
        assert.equal(b, client);
      }),
    );
  });

  it('an IPv6 /64 is one key, however the address is written', () => {
    fc.assert(
      fc.property(ipv6, fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 4, maxLength: 4 }), (addr, low) => {
        const groups = addr.split(':');
        const sibling = [...groups.slice(0, 4), ...low.map((x) => x.toString(16))].join(':');
        assert.equal(limitKey(addr), limitKey(sibling));
        // The compressed spelling of the same address gives the same key.
        const compressed = sibling.replace(/(^|:)0(:0)+(:|$)/, '::');
        if (net.isIP(compressed) === 6) assert.equal(limitKey(compressed), limitKey(sibling));
      }),
    );
    assert.notEqual(limitKey('2001:db8:0:1::5'), limitKey('2001:db8:0:2::5'));
    assert.equal(limitKey('203.0.113.7'), '203.0.113.7');
  });
});
