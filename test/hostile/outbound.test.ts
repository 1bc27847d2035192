import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { BSM, LockingScript, P2PKH, PrivateKey, Transaction, UnlockingScript, Utils } from '@bsv/sdk';
import { classifyAddress, classifyHost, parseIPv4, parseIPv6 } from '../../main/net/address-class.js';
import { guardedRequest, pinnedLookup, PAYMAIL_LIMITS, type Resolver } from '../../main/net/guarded-http.js';
import { httpRequest, HttpUnavailable } from '../../main/net/http.js';
import { NetworkProvider } from '../../main/chain/network/network-provider.js';
import { PaymailClient } from '../../main/engine/paymail/client.js';
import { PaymailError } from '../../main/engine/paymail/host.js';
import { DomainError } from '../../shared/errors.js';
import { meta, testEngine } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';

/**
 * Issue 24 §3: every request to a host someone else chose goes through one guarded client. It reaches
 * only public addresses (except the exact origin an admin mapped a paymail domain to), follows no
 * redirect it would not have been allowed to request, and caps the answer's size, time and type.
 */

// ---------------------------------------------------------------------------------------------------
// The address classifier.

const octets = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const dotted = (n: number) => octets(n).join('.');
const v4 = (s: string) => parseIPv4(s)!;

/** Ranges that must never be reached for a remote party, as [first address, prefix length]. */
const NON_PUBLIC_V4: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

const inRange = (n: number, [base, bits]: [string, number]) => Math.floor(n / 2 ** (32 - bits)) === Math.floor(v4(base) / 2 ** (32 - bits));
const arbNonPublicV4 = fc
  .constantFrom(...NON_PUBLIC_V4)
  .chain(([base, bits]) => fc.integer({ min: 0, max: 2 ** (32 - bits) - 1 }).map((off) => v4(base) + off));
const arbPublicV4 = fc
  .integer({ min: 0, max: 0xffffffff })
  .filter((n) => !NON_PUBLIC_V4.some((r) => inRange(n, r)) && !inRange(n, ['192.88.99.0', 24]));

/** The same IPv4 address written every way a URL parser or inet_aton accepts. */
function spellings(n: number): string[] {
  const [a, b, c, d] = octets(n);
  const hex = (x: number) => `0x${x.toString(16)}`;
  const oct = (x: number) => `0${x.toString(8)}`;
  return [
    dotted(n),
    `${dotted(n)}.`,
    String(n),
    `0x${n.toString(16)}`,
    `0X${n.toString(16).toUpperCase()}`,
    `0${n.toString(8)}`,
    [a, b, c, d].map(hex).join('.'),
    [a, b, c, d].map(oct).join('.'),
    `${a}.${b}.${c * 256 + d}`,
    `${a}.${(b << 16) + c * 256 + d}`,
    `${hex(a)}.${oct(b)}.${c}.${hex(d)}`,
  ];
}

/** The same IPv4 address as IPv6 forms that reach it. */
function v6Spellings(n: number): string[] {
  const hi = (n >>> 16).toString(16);
  const lo = (n & 0xffff).toString(16);
  return [
    `[::ffff:${dotted(n)}]`,
    `::ffff:${hi}:${lo}`,
    `[0:0:0:0:0:ffff:${hi}:${lo}]`,
    `[::FFFF:${dotted(n)}]`,
    `64:ff9b::${dotted(n)}`,
    `[2002:${hi}:${lo}::1]`,
  ];
}

describe('the address classifier', () => {
  it('refuses every loopback, private, link-local, multicast and reserved IPv4 address in every spelling', () => {
    fc.assert(
      fc.property(arbNonPublicV4, (n) => {
        for (const s of spellings(n)) {
          assert.notEqual(classifyHost(s), 'public', s);
          assert.notEqual(classifyHost(s), 'name', s);
          // Our parser reads the spelling as the WHATWG URL parser does (the URL a request would use).
          assert.equal(new URL(`http://${s}/`).hostname, dotted(n), s);
        }
        for (const s of v6Spellings(n)) assert.notEqual(classifyHost(s), 'public', s);
        assert.notEqual(classifyAddress(dotted(n)), 'public');
      }),
      { numRuns: 400 },
    );
  });

  it('names each kind of address', () => {
    const cases: [string, string][] = [
      ['127.0.0.1', 'loopback'],
      ['127.255.255.254', 'loopback'],
      ['2130706433', 'loopback'],
      ['0x7f.1', 'loopback'],
      ['0177.0.0.01', 'loopback'],
      ['127.1', 'loopback'],
      ['127.0.0.1.', 'loopback'],
      ['localhost', 'loopback'],
      ['LocalHost.', 'loopback'],
      ['api.localhost', 'loopback'],
      ['[::1]', 'loopback'],
      ['[0:0:0:0:0:0:0:1]', 'loopback'],
      ['[::ffff:127.0.0.1]', 'loopback'],
      ['[::ffff:7f00:1]', 'loopback'],
      ['10.1.2.3', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.1.1', 'private'],
      ['100.64.0.1', 'private'],
      ['100.127.255.255', 'private'],
      ['[fc00::1]', 'private'],
      ['[fd12:3456:789a::1]', 'private'],
      ['[::ffff:10.0.0.1]', 'private'],
      ['169.254.169.254', 'link-local'],
      ['[fe80::1%25eth0]', 'link-local'],
      ['[fe80::1]', 'link-local'],
      ['[febf::1]', 'link-local'],
      ['224.0.0.1', 'multicast'],
      ['239.255.255.250', 'multicast'],
      ['[ff02::1]', 'multicast'],
      ['0.0.0.0', 'unspecified'],
      ['0', 'unspecified'],
      ['[::]', 'unspecified'],
      ['255.255.255.255', 'broadcast'],
      ['[::ffff:255.255.255.255]', 'broadcast'],
      ['0.1.2.3', 'reserved'],
      ['240.0.0.1', 'reserved'],
      ['[2001:db8::1]', 'reserved'],
      ['[2001::1]', 'reserved'],
      ['[::127.0.0.1]', 'reserved'],
      ['[100::1]', 'reserved'],
      ['8.8.8.8', 'public'],
      ['134744072', 'public'],
      ['[2606:4700::1111]', 'public'],
      ['[::ffff:8.8.8.8]', 'public'],
      ['example.com', 'name'],
      ['example.com.', 'name'],
      ['1.2.3.256', 'invalid'],
      ['09.1.1.1', 'invalid'],
      ['1.2.3.4.5', 'invalid'],
      ['[1:2:3:4:5:6:7:8:9]', 'invalid'],
      ['[1::2::3]', 'invalid'],
      ['example..', 'invalid'],
    ];
    for (const [host, want] of cases) assert.equal(classifyHost(host), want, host);
  });

  it('refuses every IPv6 address in fc00::/7, fe80::/10 and ff00::/8, however it is compressed or bracketed', () => {
    const group = fc.integer({ min: 0, max: 0xffff });
    const arb = fc.tuple(
      fc.constantFrom([0xfc00, 0xfe00, 'private'], [0xfe80, 0xffc0, 'link-local'], [0xff00, 0xff00, 'multicast']),
      fc.array(group, { minLength: 8, maxLength: 8 }),
    );
    fc.assert(
      fc.property(arb, fc.integer({ min: 0, max: 6 }), fc.integer({ min: 1, max: 7 }), ([[prefix, mask, want], g], from, len) => {
        const first = (prefix as number) | (g[0] & ~(mask as number) & 0xffff);
        const groups = [first, ...g.slice(1)];
        const full = groups.map((x) => x.toString(16)).join(':');
        // A run of groups (never the first, which holds the prefix) zeroed and written as `::`.
        const start = Math.max(1, from);
        const end = Math.min(8, start + len);
        const hexes = groups.map((x, i) => (i >= start && i < end ? 0 : x).toString(16));
        const compressed = `${hexes.slice(0, start).join(':')}::${hexes.slice(end).join(':')}`;
        for (const s of [full, `[${full}]`, full.toUpperCase(), compressed, `[${compressed}]`]) {
          assert.equal(classifyHost(s), want, s);
          assert.deepEqual(parseIPv6(s)?.length, 8, s);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('lets public IPv4 addresses through in every spelling', () => {
    fc.assert(
      fc.property(arbPublicV4, (n) => {
        for (const s of spellings(n)) assert.equal(classifyHost(s), 'public', s);
        assert.equal(classifyHost(`[::ffff:${dotted(n)}]`), 'public');
      }),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------------------------------
// Stand-in hosts on loopback.

interface StandIn {
  url: string;
  origin: string;
  port: number;
  /** Requests received, by path. */
  hits: string[];
  /** Bytes written to answers so far. */
  written: { bytes: number };
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, self: StandIn) => void;

const open: StandIn[] = [];
after(async () => {
  for (const s of open) await s.close();
});

async function standIn(handler: Handler): Promise<StandIn> {
  const self = { hits: [] as string[], written: { bytes: 0 } } as unknown as StandIn;
  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer((req, res) => {
    self.hits.push(req.url ?? '');
    req.resume();
    handler(req, res, self);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  self.port = (server.address() as AddressInfo).port;
  self.url = `http://127.0.0.1:${self.port}`;
  self.origin = self.url;
  self.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  open.push(self);
  return self;
}

const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

/** A paymail host whose capabilities point wherever the test says. */
function paymailHost(caps: (self: StandIn) => Record<string, string>): Handler {
  return (req, res, self) => {
    if (req.url === '/.well-known/bsvalias') return json(res, 200, { bsvalias: '1.0', capabilities: caps(self) });
    if (req.url?.startsWith('/id/')) return json(res, 200, { bsvalias: '1.0', pubkey: '02'.padEnd(66, '1') });
    json(res, 404, { message: 'no such route' });
  };
}

const refusedAs = (pattern: RegExp) => (err: unknown) =>
  err instanceof DomainError && err.code === 'PAYMAIL_FAILED' && pattern.test(err.message);

describe('paymail requests reach only public addresses, or the exact origin an admin mapped', () => {
  it("follows a mapped domain's capability on its mapped origin, and refuses one that points at any other private origin without contacting it", async () => {
    const own = await standIn(paymailHost((s) => ({ pki: `${s.url}/id/{alias}@{domain.tld}` })));
    assert.match(await new PaymailClient(() => new Map([['mapped.test', own.url]])).pki('bob@mapped.test'), /^02/);
    assert.deepEqual(own.hits, ['/.well-known/bsvalias', '/id/bob@mapped.test']);
    const internal = await standIn((_req, res) => json(res, 200, { pubkey: '02'.padEnd(66, '9') }));
    const other = await standIn(paymailHost(() => ({})));
    const targets = [
      `${internal.url}/id/{alias}@{domain.tld}`, // another loopback port
      `http://localhost:${internal.port}/id/{alias}@{domain.tld}`,
      `http://2130706433:${internal.port}/id/{alias}`,
      `http://0x7f.1:${internal.port}/id/{alias}`,
      `http://[::ffff:127.0.0.1]:${internal.port}/id/{alias}`,
      `http://[::1]:${internal.port}/id/{alias}`,
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/admin',
      'http://100.64.0.1/',
      'http://[fd00::1]/',
      `${other.url}/id/{alias}`, // the origin an admin mapped to *another* domain
      `file:///etc/passwd`,
    ];
    for (const target of targets) {
      const host = await standIn(paymailHost(() => ({ pki: target })));
      const client = new PaymailClient(
        () =>
          new Map([
            ['mapped.test', host.url],
            ['other.test', other.url],
          ]),
      );
      await assert.rejects(client.pki('bob@mapped.test'), refusedAs(/(loopback|private|link-local|only http)/), target);
    }
    assert.deepEqual([internal.hits, other.hits], [[], []], 'nothing reached the internal hosts');
  });

  it("refuses a stranger's domain that resolves to a private address (one private answer among public ones is enough)", async () => {
    const answers: Record<string, string[]> = {
      'evil.test': ['127.0.0.1'],
      'mixed.test': ['93.184.216.34', '10.0.0.7'],
      'mapped6.test': ['::ffff:192.168.0.1'],
      'meta.test': ['169.254.169.254'],
    };
    const asked: string[] = [];
    const resolve: Resolver = async (name) => {
      asked.push(name);
      return (answers[name] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    };
    const noSrv = async () => [];
    const client = new PaymailClient(() => new Map(), noSrv, { resolve });
    for (const domain of Object.keys(answers)) {
      await assert.rejects(client.capabilities(domain), refusedAs(/(loopback|private|link-local)/), domain);
    }
    assert.deepEqual(asked, Object.keys(answers), 'each name was resolved by the guarded client, once');
  });

  it('refuses a DNS SRV record that points at loopback', async () => {
    const internal = await standIn(paymailHost(() => ({})));
    const client = new PaymailClient(
      () => new Map(),
      async () => [{ name: 'localhost.', port: internal.port, priority: 0, weight: 0 }],
    );
    await assert.rejects(client.capabilities('srv.test'), refusedAs(/outside srv\.test/));
    assert.deepEqual(internal.hits, []);
  });

  it('follows a DNS SRV record only within the paymail domain: a forged answer naming another host is refused before any request', async () => {
    const forged = (name: string) => async () => [
      { name: 'pay.shop.test.', port: 443, priority: 20, weight: 0 },
      { name, port: 443, priority: 10, weight: 0 },
    ];
    const resolved: string[] = [];
    const resolve = async (host: string) => {
      resolved.push(host);
      return [{ address: '203.0.113.7', family: 4 }];
    };
    for (const name of ['pay.attacker.test.', 'shop.test.attacker.test', 'evilshop.test', 'attacker.test', 'SHOP.TEST.evil.test.']) {
      const client = new PaymailClient(() => new Map(), forged(name), { resolve });
      await assert.rejects(client.capabilities('shop.test'), refusedAs(/outside shop\.test.*map shop\.test/), name);
      await assert.rejects(client.p2pDestination('bob@shop.test', 1000), refusedAs(/outside shop\.test/), name);
    }
    assert.deepEqual(resolved, [], 'no forged host was even looked up');
    // The domain itself and its subdomains are followed (their certificates speak for the domain).
    for (const name of ['shop.test.', 'paymail.shop.test.', 'WWW.Shop.Test']) {
      const client = new PaymailClient(() => new Map(), forged(name));
      assert.equal(await client.hostFor('shop.test'), `https://${name.replace(/\.$/, '').toLowerCase()}:443`);
    }
    // An admin's mapping is the way to trust a host elsewhere: DNS is not asked.
    const mapped = new PaymailClient(() => new Map([['shop.test', 'https://pay.provider.test']]), forged('pay.attacker.test'));
    assert.equal(await mapped.hostFor('shop.test'), 'https://pay.provider.test');
  });

  it('connects to the address it checked, never to a second DNS answer', async () => {
    const lookup = pinnedLookup({ address: '203.0.113.9', family: 4 });
    const one = await new Promise<unknown[]>((resolve) => lookup('rebind.test', { family: 0 }, (...a: unknown[]) => resolve(a)));
    assert.deepEqual(one, [null, '203.0.113.9', 4]);
    const all = await new Promise<unknown[]>((resolve) => lookup('rebind.test', { all: true } as never, (...a: unknown[]) => resolve(a)));
    assert.deepEqual(all, [null, [{ address: '203.0.113.9', family: 4 }]]);
  });
});

describe('redirects are not followed to addresses the client would refuse', () => {
  it('refuses a redirect from the mapped host to another private origin, and to a private literal in any spelling', async () => {
    const internal = await standIn((_req, res) => json(res, 200, { bsvalias: '1.0', capabilities: {} }));
    for (const location of [
      `${internal.url}/.well-known/bsvalias`,
      `http://localhost:${internal.port}/`,
      `http://2130706433:${internal.port}/`,
      'http://169.254.169.254/latest/meta-data/',
    ]) {
      const host = await standIn((_req, res) => res.writeHead(302, { location }).end());
      const client = new PaymailClient(() => new Map([['mapped.test', host.url]]));
      await assert.rejects(client.capabilities('mapped.test'), refusedAs(/(loopback|link-local)/), location);
    }
    assert.deepEqual(internal.hits, [], 'the redirect target was never contacted');
  });

  it('follows a few redirects within the mapped origin, and refuses a loop', async () => {
    const host = await standIn((req, res) => {
      if (req.url === '/.well-known/bsvalias') return res.writeHead(301, { location: '/hop1' }).end();
      if (req.url === '/hop1') return res.writeHead(307, { location: '/caps' }).end();
      if (req.url === '/caps') return json(res, 200, { bsvalias: '1.0', capabilities: { pki: 'x' } });
      res.writeHead(302, { location: req.url }).end();
    });
    const client = new PaymailClient(() => new Map([['mapped.test', host.url]]));
    assert.deepEqual(await client.capabilities('mapped.test'), { pki: 'x' });
    const looping = await standIn((req, res) => res.writeHead(302, { location: `/again${req.url}` }).end());
    const client2 = new PaymailClient(() => new Map([['loop.test', looping.url]]));
    await assert.rejects(client2.capabilities('loop.test'), refusedAs(/redirected more than 3 times/));
    assert.equal(looping.hits.length, PAYMAIL_LIMITS.maxRedirects + 1);
  });

  it('never re-sends a POST to a redirect target', async () => {
    const target = await standIn((_req, res) => json(res, 200, { txid: 'ab'.repeat(32) }));
    const host = await standIn((_req, res) => res.writeHead(307, { location: `${target.url}/take` }).end());
    const client = new PaymailClient(
      () =>
        new Map([
          ['mapped.test', host.url],
          ['target.test', target.url],
        ]),
    );
    await assert.rejects(
      client.deliver(`${host.url}/receive`, { hex: '00', reference: 'r', metadata: {} }),
      refusedAs(/redirect, which is not followed/),
    );
    assert.deepEqual([host.hits.length, target.hits.length], [1, 0]);
  });
});

describe('answers are capped in size, time and type', () => {
  it('cuts off an endless answer at the cap without growing memory', async () => {
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const endless = await standIn((_req, res, self) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"bsvalias":"1.0","capabilities":{},"pad":"');
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) self.written.bytes += chunk.length;
        if (!res.destroyed) res.once('drain', pump);
      };
      res.on('close', () => res.removeAllListeners('drain'));
      pump();
    });
    const client = new PaymailClient(() => new Map([['big.test', endless.url]]));
    const rss = process.memoryUsage().rss;
    await assert.rejects(client.capabilities('big.test'), refusedAs(/more than 1048576 bytes/));
    assert.ok(
      endless.written.bytes < 64 * 1024 * 1024,
      `the host managed to send ${endless.written.bytes} bytes before the connection was dropped`,
    );
    assert.ok(process.memoryUsage().rss - rss < 200 * 1024 * 1024, 'memory stayed bounded');
  });

  it('refuses an answer whose declared length is past the cap before reading it', async () => {
    const host = await standIn((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(600 * 1024 * 1024) });
      res.write('{');
    });
    const client = new PaymailClient(() => new Map([['big.test', host.url]]));
    await assert.rejects(client.capabilities('big.test'), refusedAs(/more than 1048576 bytes/));
  });

  it('aborts a slow answer at the time cap: no headers, or a body that trickles', async () => {
    const silent = await standIn(() => {
      /* never answers */
    });
    const trickle = await standIn((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"bsvalias":"1.0",');
      const t = setInterval(() => (res.destroyed ? clearInterval(t) : res.write(' ')), 20);
      res.on('close', () => clearInterval(t));
    });
    const client = new PaymailClient(
      () =>
        new Map([
          ['silent.test', silent.url],
          ['trickle.test', trickle.url],
        ]),
      undefined,
      { limits: { timeoutMs: 300 } },
    );
    await assert.rejects(client.capabilities('silent.test'), refusedAs(/timed out after 300 ms/));
    await assert.rejects(client.capabilities('trickle.test'), refusedAs(/timed out after 300 ms/));
    assert.deepEqual([silent.hits.length, trickle.hits.length], [1, 1], 'a GET is not retried either');
  });

  it('refuses a 2xx answer that is not labelled JSON where JSON is expected', async () => {
    for (const type of ['text/html', 'text/plain', 'application/octet-stream', 'application/jsonp', '']) {
      const host = await standIn((_req, res) =>
        res.writeHead(200, type ? { 'content-type': type } : {}).end(JSON.stringify({ bsvalias: '1.0', capabilities: { pki: 'x' } })),
      );
      const client = new PaymailClient(() => new Map([['typed.test', host.url]]));
      await assert.rejects(client.capabilities('typed.test'), refusedAs(/where JSON was expected/), type);
    }
    const ok = await standIn((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ capabilities: { pki: 'x' } })),
    );
    assert.deepEqual(await new PaymailClient(() => new Map([['typed.test', ok.url]])).capabilities('typed.test'), { pki: 'x' });
  });

  it('never sends a POST twice, even when the host fails after receiving it', async () => {
    const flaky = await standIn((req, res) => (req.method === 'POST' ? res.writeHead(503).end() : json(res, 200, {})));
    const dropping = await standIn((_req, res) => res.socket?.destroy());
    const client = new PaymailClient(
      () =>
        new Map([
          ['flaky.test', flaky.url],
          ['dropping.test', dropping.url],
        ]),
    );
    await assert.rejects(client.deliver(`${flaky.url}/receive`, { hex: '00', reference: 'r', metadata: {} }));
    await assert.rejects(client.deliver(`${dropping.url}/receive`, { hex: '00', reference: 'r', metadata: {} }));
    assert.deepEqual([flaky.hits.length, dropping.hits.length], [1, 1]);
  });
});

describe('chain providers get the same size and time caps', () => {
  it('cuts off an oversize provider answer without retrying it, caps a trickling one, and still reads loopback providers an admin chose', async () => {
    const big = await standIn((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(Buffer.alloc(2 * 1024 * 1024, 0x20));
    });
    await assert.rejects(
      httpRequest(`${big.url}/chain/info`, {}, { timeoutMs: 5_000, retries: 3, backoffMs: 1, maxBytes: 1024 * 1024 }),
      (e: HttpUnavailable) => e instanceof HttpUnavailable && /more than 1048576 bytes/.test(e.message),
    );
    assert.equal(big.hits.length, 1);
    const trickle = await standIn((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const t = setInterval(() => (res.destroyed ? clearInterval(t) : res.write(' ')), 20);
      res.on('close', () => clearInterval(t));
    });
    const slow = new NetworkProvider({
      network: 'testnet',
      arcUrl: trickle.url,
      wocUrl: trickle.url,
      http: { retries: 0, backoffMs: 1, timeoutMs: 300 },
    });
    await assert.rejects(slow.getTip(), /timed out after 300 ms/);
    const woc = await standIn((_req, res) => json(res, 200, { blocks: 7, bestblockhash: 'ab'.repeat(32) }));
    const p = new NetworkProvider({
      network: 'testnet',
      arcUrl: woc.url,
      wocUrl: woc.url,
      http: { retries: 0, backoffMs: 1, timeoutMs: 2_000 },
    });
    assert.deepEqual(await p.getTip(), { height: 7, hash: 'ab'.repeat(32) });
    // The same client, asked on a stranger's behalf (nothing trusted), refuses that loopback host.
    await assert.rejects(
      guardedRequest(`${woc.url}/chain/info`, { method: 'GET', expect: 'json', limits: PAYMAIL_LIMITS, trusted: () => false }),
      /loopback/,
    );
    assert.equal(woc.hits.length, 1);
  });

  it('does not re-broadcast to ARC after a 5xx that came after ARC received the transaction', async () => {
    const arc = await standIn((_req, res) => res.writeHead(503).end());
    const p = new NetworkProvider({
      network: 'testnet',
      arcUrl: arc.url,
      wocUrl: arc.url,
      http: { retries: 3, backoffMs: 1, timeoutMs: 2_000 },
    });
    const r = await p.broadcast('00');
    assert.equal(r.status, 'unknown');
    assert.equal(arc.hits.length, 1);
  });
});

describe("a stranger's delivery makes Keystead contact no one until the chain took it", () => {
  async function setup() {
    const senderHost = await standIn(paymailHost(() => ({})));
    // The sender's domain is mapped to the stand-in, so a request would reach it: any request is counted.
    const t = testEngine({ paymailHosts: { 'stranger.test': senderHost.url } });
    const s = (await t.engine.execute('setup', ADMIN, {}, meta)).output;
    await t.engine.execute(
      'createWallet',
      { walletTitle: 'Shop', paymail: 'shop', paymailActivate: true },
      { authToken: s.authToken, serviceId: s.serviceId },
      meta,
    );
    return { t, senderHost, host: t.engine.paymailHost };
  }
  const payer = PrivateKey.fromRandom();
  const signed = (tx: Transaction) => ({
    sender: 'eve@stranger.test',
    pubkey: payer.toPublicKey().toString(),
    signature: BSM.sign(Utils.toArray(tx.id('hex'), 'utf8'), payer, 'base64') as string,
  });
  /** Pays the destination's outputs from an input that does not exist. */
  function unfunded(outputs: { script: string; satoshis: number }[], extra = 0): Transaction {
    const tx = new Transaction();
    tx.addInput({ sourceTXID: randomBytes(32).toString('hex'), sourceOutputIndex: 0, unlockingScript: UnlockingScript.fromASM('OP_TRUE') });
    for (const o of outputs) tx.addOutput({ lockingScript: LockingScript.fromHex(o.script), satoshis: o.satoshis + extra });
    return tx;
  }

  it('deliveries that fail the cheap checks or the chain (unfunded) make zero requests; a payment the chain takes then asks the sender host', async () => {
    const { t, senderHost, host } = await setup();
    const dest = host.p2pDestination('shop@acme.test', { satoshis: 5_000 });
    // Unfunded, but paying exactly the outputs issued for the reference, and signed by the "sender".
    const right = unfunded(dest.outputs);
    await assert.rejects(
      host.receiveTransaction('shop@acme.test', { hex: right.toHex(), reference: dest.reference, metadata: signed(right) }),
      (e: PaymailError) => e.code === 'rejected',
    );
    assert.equal(senderHost.hits.length, 0, 'an unfunded transaction made no request reach the sender host');
    const wrong = unfunded([{ script: new P2PKH().lock(payer.toAddress()).toHex(), satoshis: 5_000 }]);
    await assert.rejects(
      host.receiveTransaction('shop@acme.test', { hex: wrong.toHex(), reference: dest.reference, metadata: signed(wrong) }),
      (e: PaymailError) => e.code === 'wrong-outputs',
    );
    await assert.rejects(
      host.receiveTransaction('shop@acme.test', { hex: right.toHex(), reference: 'ff'.repeat(16), metadata: signed(right) }),
      (e: PaymailError) => e.code === 'not-found',
    );
    await assert.rejects(
      host.receiveTransaction('shop@acme.test', { hex: right.toHex(), reference: dest.reference, metadata: signed(wrong) }),
      (e: PaymailError) => e.code === 'bad-signature',
    );
    assert.equal(senderHost.hits.length, 0, 'nor did any delivery failing the cheap checks');

    // The real payment, once the chain takes it, is checked with the sender's host: the count above is real.
    const funding = await t.node.faucet(payer.toAddress(), 20_000);
    const fundingTx = Transaction.fromHex(t.node.txHex(funding.txid!)!);
    const tx = new Transaction();
    const vout = fundingTx.outputs.findIndex((o) => o.lockingScript.toHex() === new P2PKH().lock(payer.toAddress()).toHex());
    tx.addInput({ sourceTransaction: fundingTx, sourceOutputIndex: vout, unlockingScriptTemplate: new P2PKH().unlock(payer) });
    tx.addOutput({ lockingScript: LockingScript.fromHex(dest.outputs[0].script), satoshis: 5_000 });
    tx.addOutput({ lockingScript: new P2PKH().lock(payer.toAddress()), satoshis: 14_000 });
    await tx.sign();
    const paid = await host.receiveTransaction('shop@acme.test', { hex: tx.toHex(), reference: dest.reference, metadata: signed(tx) });
    assert.equal(paid.txid, tx.id('hex'), 'the reference was not used up by the unfunded delivery');
    assert.ok(senderHost.hits.includes('/.well-known/bsvalias'), 'the sender was looked up once the chain took the transaction');
  });
});
