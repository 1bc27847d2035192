import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { P2PKH, PrivateKey } from '@bsv/sdk';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { OPERATION_NAMES } from '../../shared/operations.js';
import { ROLES, type Role } from '../../shared/roles.js';
import { REST_ROUTES } from '../../main/server/routes.js';
import { buildServer } from '../../main/server/app.js';
import { meta, testEngine, type TestEngine } from '../helpers/engine.js';
import { inProcessChain } from '../../main/chain/local/local-chain.js';
import { ADMIN } from '../helpers/http.js';

/**
 * Property: whatever a client sends to any route, as any role, the answer is never a 500, is always the
 * envelope (foreign-protocol routes: their own JSON or text), and never shows a stack trace or a path
 * inside Keystead. Only the documented upstream failures (502 PAYMAIL_FAILED, 503 CHAIN_UNAVAILABLE/BUSY)
 * may be 5xx, and no run here should need them.
 */
const UPSTREAM_CODES = new Set(['PAYMAIL_FAILED', 'CHAIN_UNAVAILABLE', 'BUSY']);
const LEAKS = /\n\s+at |node_modules|\/work\/|[\w-]+\.ts:\d+|\bat [\w.<>]+ \(|TypeError|ReferenceError|SyntaxError:|RangeError/;
const RUNS = Number(process.env.KEYSTEAD_FUZZ_RUNS ?? 500);

type Target = { method: string; path: string; foreign: boolean };

const TARGETS: Target[] = [
  ...REST_ROUTES.map((r) => ({ method: r.method, path: r.url, foreign: false })),
  ...OPERATION_NAMES.map((n) => ({ method: 'POST', path: `/rpc/${n}`, foreign: false })),
  { method: 'GET', path: '/health', foreign: false },
  { method: 'POST', path: '/rpc/noSuchOperation', foreign: false },
  { method: 'GET', path: '/v1/noSuchRoute', foreign: false },
  { method: 'PATCH', path: '/v1/wallets', foreign: false },
  { method: 'GET', path: '/.well-known/bsvalias', foreign: true },
  { method: 'GET', path: '/api/bsvalias/id/shop@acme.test', foreign: true },
  { method: 'GET', path: '/api/bsvalias/verify-pubkey/shop@acme.test/02ab', foreign: true },
  { method: 'GET', path: '/api/bsvalias/public-profile/shop@acme.test', foreign: true },
  { method: 'POST', path: '/api/bsvalias/address/shop@acme.test', foreign: true },
  { method: 'POST', path: '/api/bsvalias/p2p-payment-destination/shop@acme.test', foreign: true },
  { method: 'POST', path: '/api/bsvalias/receive-transaction/shop@acme.test', foreign: true },
  { method: 'POST', path: '/chain/arc/v1/tx', foreign: true },
  { method: 'GET', path: '/chain/arc/v1/tx/00', foreign: true },
  { method: 'GET', path: '/chain/woc/v1/bsv/local/address/1BoatSLRHtKNngkdXEeobR76b53LETtpyT/unspent', foreign: true },
  { method: 'POST', path: '/chain/woc/v1/bsv/local/tx/raw', foreign: true },
];

const FIELDS = [
  'walletId',
  'walletID',
  'walletid',
  'walletTitle',
  'mnemonicPhrase',
  'uri',
  'amount',
  'outputs',
  'satoshis',
  'script',
  'email',
  'password',
  'newPassword',
  'currentPassword',
  'keepApiKeys',
  'role',
  'userId',
  'keyId',
  'force',
  'members',
  'sourceCode',
  'optimize',
  'privateKey',
  'type',
  'currency',
  'rate',
  'domain',
  'url',
  'address',
  'blocks',
  'nextPageToken',
  'maxResults',
  'limit',
  'data',
  'peer',
  'peerData',
  'peerProtocol',
  'idempotencyKey',
  'mnemonic',
  'label',
  'organisation',
  'firstName',
  'paymail',
  'paymailActivate',
  'hex',
  'reference',
  'rawTx',
  'txhex',
  '__proto__',
];
const HEADERS = [
  'walletID',
  'walletid',
  'password',
  'walletPassword',
  'uri',
  'amount',
  'force',
  'type',
  'currency',
  'compact',
  'maxResults',
  'nextPageToken',
  'mnemonic',
  'idempotency-key',
  'serviceid',
  'uid',
  'apikey',
];

const someAddress = PrivateKey.fromRandom().toAddress();
const SPECIALS = [
  '',
  ' ',
  '%E0%A4%A',
  'payto:%E0%A4%A',
  `payto:shop@acme.test?amount=1000`,
  `bitcoin:${someAddress}?amount=0.0001`,
  someAddress,
  'shop@acme.test',
  '0000-00000000-00000',
  '-1',
  '1e308',
  'NaN',
  'true',
  'null',
  '[]',
  '{}',
  'x'.repeat(5_000),
  'ü†f-8 ✓',
  '../../etc/passwd',
  '<script>',
  "'; DROP TABLE users; --",
  new P2PKH().lock(someAddress).toHex(),
  Buffer.from('contract C { public function f(int x) { require(((x))); } }').toString('base64'),
  'ff'.repeat(40),
];

const ascii = fc.string({
  unit: fc.constantFrom(...' !#$%&()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_`abcdefghijklmnopqrstuvwxyz{|}~'.split('')),
  maxLength: 40,
});
const scalar = fc.oneof(
  ascii,
  fc.string({ maxLength: 30 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(...SPECIALS),
);
const value = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...FIELDS), scalar, { maxKeys: 4 }) },
  {
    weight: 1,
    arbitrary: fc.array(
      fc.record({ script: fc.oneof(ascii, fc.constantFrom(...SPECIALS)), satoshis: fc.oneof(fc.integer(), fc.double()) }),
      { maxLength: 3 },
    ),
  },
);
const headerValue = fc.oneof(ascii, fc.constantFrom(...SPECIALS.filter((s) => s.length < 200 && /^[\x20-\x7e]*$/.test(s))));

const body = fc.oneof(
  fc.constant<{ kind: 'none' }>({ kind: 'none' }),
  fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 6 }).map((json) => ({ kind: 'json' as const, json })),
  fc.jsonValue({ maxDepth: 3 }).map((json) => ({ kind: 'json' as const, json })),
  fc
    .tuple(
      fc.string({ maxLength: 60 }),
      fc.constantFrom(
        'application/json',
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/octet-stream',
        'multipart/form-data',
        'application/json; charset=latin1',
      ),
    )
    .map(([text, type]) => ({ kind: 'raw' as const, text, type })),
);

const request = fc.record({
  target: fc.constantFrom(...TARGETS),
  method: fc.option(fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'HEAD', 'OPTIONS'), { freq: 6 }),
  role: fc.constantFrom<Role | 'none' | 'garbage'>(...ROLES, 'none', 'garbage'),
  headers: fc.dictionary(fc.constantFrom(...HEADERS), headerValue, { maxKeys: 4 }),
  query: fc.dictionary(fc.constantFrom(...FIELDS, ...HEADERS), fc.oneof(ascii, fc.constantFrom('%E0%A4%A', '%', '%%', '%zz')), {
    maxKeys: 3,
  }),
  body,
});

describe('fuzz: every route, every role, hostile input', () => {
  let t: TestEngine;
  let server: FastifyInstance;
  let base = '';
  const tokens = {} as Record<Role, string>;
  let serviceId = '';

  const login = async (role: Role) => {
    const res = await fetch(`${base}/api/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `${role}@acme.io`, password: role === 'admin' ? ADMIN.password : 'fuzz-password-1' }),
    });
    tokens[role] = ((await res.json()) as { data: { authToken: string } }).data.authToken;
  };

  before(async () => {
    // Throttles relaxed: the fuzzer's random logins must not lock out the roles it plays.
    t = testEngine({ throttle: { freeFailures: 1_000_000, baseDelayMs: 1, maxDelayMs: 1, windowMs: 1 } });
    server = await buildServer({ engine: t.engine, node: inProcessChain(t.node) });
    await server.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
    const s = (await t.engine.execute('setup', { ...ADMIN, email: 'admin@acme.io' }, {}, meta)).output;
    serviceId = s.serviceId;
    tokens.admin = s.authToken;
    for (const role of ROLES.filter((r) => r !== 'admin')) {
      await t.engine.execute(
        'createUser',
        { email: `${role}@acme.io`, password: 'fuzz-password-1', role },
        { authToken: tokens.admin, serviceId },
        meta,
      );
      await login(role);
    }
    await t.engine.execute(
      'createWallet',
      { walletTitle: 'Shop', paymail: 'shop', paymailActivate: true },
      { authToken: tokens.admin, serviceId },
      meta,
    );
  });
  after(async () => {
    await server.close();
    t.engine.close();
    t.node.close();
  });

  it(`${RUNS} random requests: never a 500, always an envelope, never a stack trace`, async () => {
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const method = r.method ?? r.target.method;
        const headers: Record<string, string> = { ...r.headers };
        if (r.role === 'garbage') headers.authToken = 'kst_not-a-token';
        else if (r.role !== 'none') Object.assign(headers, { authToken: tokens[r.role], serviceid: serviceId });
        let payload: string | undefined;
        if (r.body.kind === 'json' && method !== 'GET' && method !== 'HEAD') {
          payload = JSON.stringify(r.body.json);
          headers['content-type'] = 'application/json';
        } else if (r.body.kind === 'raw' && method !== 'GET' && method !== 'HEAD') {
          payload = r.body.text;
          headers['content-type'] = r.body.type;
        }
        const query = Object.entries(r.query)
          .map(([k, v]) => `${encodeURIComponent(k)}=${/^%/.test(v) ? v : encodeURIComponent(v)}`)
          .join('&');
        const url = `${base}${r.target.path}${query ? `?${query}` : ''}`;
        const res = await fetch(url, { method, headers, body: payload });
        const text = await res.text();
        const where = `${method} ${r.target.path} as ${r.role}: HTTP ${res.status} ${text.slice(0, 300)}`;
        assert.doesNotMatch(text, LEAKS, `leaks internals: ${where}`);
        if (r.role !== 'none' && r.role !== 'garbage' && res.status === 401) await login(r.role); // the fuzzer signed itself out
        if (method === 'HEAD') return;
        if (r.target.foreign && !r.target.path.startsWith('/rpc/')) {
          assert.ok(res.status < 500 || res.status === 503, `5xx: ${where}`);
          return;
        }
        assert.notEqual(res.status, 500, where);
        const env = JSON.parse(text) as { statusCode: number; data: { status: string; msg: string; code?: string } };
        assert.equal(env.statusCode, res.status, where);
        assert.ok(['success', 'error', 'partial success'].includes(env.data.status), where);
        assert.equal(typeof env.data.msg, 'string', where);
        if (env.data.status === 'error') assert.equal(typeof env.data.code, 'string', where);
        if (res.status >= 500) assert.ok(UPSTREAM_CODES.has(env.data.code ?? ''), `5xx: ${where}`);
      }),
      { numRuns: RUNS, seed: process.env.KEYSTEAD_FUZZ_SEED ? Number(process.env.KEYSTEAD_FUZZ_SEED) : undefined },
    );
  });
});
