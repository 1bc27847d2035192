import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { P2PKH, PrivateKey } from '@bsv/sdk';
import { startHeadless, type Headless } from '../helpers/headless.js';
import { ADMIN, request, type Reply } from '../helpers/http.js';
import { startReceiver, type Receiver } from '../helpers/paymail-receiver.js';
import { tempDir } from '../helpers/tmp.js';
import { until } from '../helpers/until.js';

/** Sends raw bytes and returns the raw answer: for requests fetch would refuse to send. */
function raw(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    let text = '';
    socket.on('data', (d) => (text += d));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

/** The status and parsed envelope of a raw HTTP answer. */
function parseRaw(text: string): { status: number; body: any } {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
  return { status, body: JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) };
}

function assertEnvelope(r: { status: number; body: any }, status: number, code?: string): void {
  assert.equal(r.status, status, JSON.stringify(r.body));
  assert.equal(r.body.statusCode, status);
  assert.equal(r.body.data.status, 'error');
  assert.equal(typeof r.body.data.msg, 'string');
  if (code) assert.equal(r.body.data.code, code);
}

/** A login from a chosen loopback source address (every 127.x.y.z reaches the server). */
function loginFrom(port: number, localAddress: string, password: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ email: ADMIN.email, password });
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/v1/login',
        localAddress,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('hostile and careless clients: every answer is an envelope, never a 500', () => {
  let host: Headless;
  let receiver: Receiver;
  let auth: Record<string, string> = {};
  const call = (
    method: string,
    path: string,
    opts: { body?: unknown; headers?: Record<string, string>; raw?: string } = {},
  ): Promise<Reply> => request(host.url, method, path, { ...opts, headers: { ...auth, ...opts.headers } });

  before(async () => {
    receiver = await startReceiver('slow.test');
    host = await startHeadless({
      dataDir: tempDir(),
      password: 'pw-hostile',
      args: ['--compile-timeout', '1', '--compile-max-source', '1000000', '--paymail-hosts', `slow.test=${receiver.url}`],
    });
    const s = await request(host.url, 'POST', '/api/v1/setup', { body: ADMIN });
    auth = { authToken: s.body.data.authToken, serviceid: s.body.data.serviceId };
  });
  after(async () => {
    await host.stop();
    await receiver.close();
  });

  it('answers unparseable HTTP with the envelope: 414 for an over-long URL, 431 for over-large headers, 400 for garbage', async () => {
    assertEnvelope(
      parseRaw(await raw(host.port, `GET /v1/wallets?x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\n\r\n`)),
      414,
      'URI_TOO_LONG',
    );
    assertEnvelope(await call('GET', `/health?x=${'a'.repeat(9_000)}`), 414, 'URI_TOO_LONG');
    assertEnvelope(
      parseRaw(await raw(host.port, `GET /health HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`)),
      431,
      'HEADERS_TOO_LARGE',
    );
    const many = Array.from({ length: 4_000 }, (_, i) => `X-H${i}: v`).join('\r\n');
    assertEnvelope(
      parseRaw(await raw(host.port, `GET /health HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\n${many}\r\n\r\n`)),
      431,
      'HEADERS_TOO_LARGE',
    );
    assertEnvelope(parseRaw(await raw(host.port, 'NONSENSE\r\n\r\n')), 400, 'BAD_REQUEST');
  });

  it('answers bad bodies with the envelope: 400 malformed JSON, 415 wrong type, 413 too large', async () => {
    assertEnvelope(
      await call('POST', '/api/v1/login', { raw: '{"email": ', headers: { 'content-type': 'application/json' } }),
      400,
      'INVALID_JSON',
    );
    assertEnvelope(
      await call('POST', '/api/v1/login', { raw: 'email=a', headers: { 'content-type': 'text/plain' } }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    assertEnvelope(
      await call('POST', '/api/v1/login', { raw: 'email=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    assertEnvelope(await call('POST', '/rpc/me', { raw: 'x', headers: { 'content-type': 'text/plain' } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    assertEnvelope(
      await call('POST', '/api/v1/login', { body: { email: ADMIN.email, password: 'x'.repeat(2 * 1024 * 1024) } }),
      413,
      'PAYLOAD_TOO_LARGE',
    );
    const proto = await call('POST', '/api/v1/login', {
      raw: '{"__proto__": {"admin": true}, "email": "a@b.c", "password": "x"}',
      headers: { 'content-type': 'application/json' },
    });
    assertEnvelope(proto, 400, 'INVALID_JSON');
  });

  it('refuses a payment URI with a malformed %-escape as bad input', async () => {
    assertEnvelope(await call('GET', '/v1/URI', { headers: { uri: 'payto:%E0%A4%A' } }), 400, 'VALIDATION_FAILED');
    assertEnvelope(await call('POST', '/v1/URI', { body: { uri: 'payto:%E0%A4%A?amount=5' } }), 400, 'VALIDATION_FAILED');
  });

  it('refuses a deeply nested contract with a positioned error, and stops a compile that runs too long', async () => {
    const nested = `contract C { public function f(int x) { require(${'('.repeat(50_000)}x${')'.repeat(50_000)} > 0); } }`;
    const r = await call('POST', '/v1/compile', { body: { sourceCode: Buffer.from(nested).toString('base64') } });
    assertEnvelope(r, 400, 'COMPILE_FAILED');
    assert.match(r.body.data.msg, /contract\.scrypt:1:\d+: error: this is nested more than 100 levels deep/);

    // About 3 s of work at most here; the host allows 1 s. Meanwhile /health answers, one request after another.
    let body = '';
    for (let i = 0; i < 40_000; i++) body += `int v${i} = x + ${i};\n`;
    const slow = call('POST', '/v1/compile', {
      body: { sourceCode: Buffer.from(`contract C { public function f(int x) { ${body} require(v0 > 0); } }`).toString('base64') },
    });
    let done = false;
    void slow.then(() => (done = true));
    let answeredDuring = 0;
    for (let i = 0; i < 5; i++) {
      if ((await call('GET', '/health')).status === 200 && !done) answeredDuring += 1;
    }
    assert.equal(answeredDuring, 5, 'the server answered while the compile ran');
    assertEnvelope(await slow, 422, 'COMPILE_LIMIT');
    assert.match((await slow).body.data.msg, /longer than 1 s/);

    const big = Buffer.from(`contract C { ${'/* pad */ '.repeat(120_000)} }`).toString('base64');
    assertEnvelope(await call('POST', '/v1/compile', { body: { sourceCode: big } }), 413, 'PAYLOAD_TOO_LARGE');
    const fine = await call('POST', '/v1/compile', {
      body: { sourceCode: Buffer.from('contract C { public function f(int x) { require(x == 1); } }').toString('base64') },
    });
    assert.equal(fine.status, 200, 'the compiler works again after a stopped compile');
  });

  it('two pays racing for the same coin: one pays, the other is told to retry (409), never a 500', async () => {
    const w = (await call('POST', '/v1/createWallet', { body: { walletTitle: 'Racer' } })).body.data.walletID;
    const address = (await call('GET', '/v1/address', { headers: { walletID: w } })).body.data.address;
    assert.equal((await call('POST', '/chain/faucet', { body: { address, satoshis: 20_000 } })).status, 200);
    // The first pay holds the wallet's only coin while a slow receiver takes its time.
    let letGo = () => {};
    const held = new Promise<void>((r) => (letGo = r));
    receiver.answer(async (_hex, txid) => {
      await held;
      return { status: 200, body: { txid } };
    });
    const resolved = await call('GET', '/v1/URI', { headers: { uri: `payto:${receiver.paymail}?amount=5000`, walletID: w } });
    const first = call('POST', '/v1/pay', { headers: { walletID: w }, body: resolved.body.data.data });
    await until('the receiver has the first payment', async () => receiver.received.length === 1 || undefined);
    const to = new P2PKH().lock(PrivateKey.fromRandom().toAddress()).toHex();
    const second = await call('POST', '/v1/pay', { headers: { walletID: w }, body: { outputs: [{ script: to, satoshis: 5_000 }] } });
    assertEnvelope(second, 409, 'CONFLICT');
    assert.match(second.body.data.msg, /held by a payment still in progress/);
    letGo();
    const paid = await first;
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    assert.equal(paid.body.data.seenByChain, false, 'the receiver never broadcast it: pending');
  });

  it('serves concurrent faucet requests one at a time, never a 500', async () => {
    const address = PrivateKey.fromRandom().toAddress();
    const all = await Promise.all(Array.from({ length: 6 }, () => call('POST', '/chain/faucet', { body: { address, satoshis: 1_000 } })));
    assert.deepEqual(
      all.map((r) => r.status),
      [200, 200, 200, 200, 200, 200],
    );
  });

  it('throttles 100 parallel wrong logins from 100 loopback addresses like 100 sent one by one', async () => {
    const guesses = await Promise.all(
      Array.from({ length: 100 }, (_, i) => loginFrom(host.port, `127.0.${Math.floor(i / 250)}.${(i % 250) + 2}`, `wrong-guess-${i}`)),
    );
    const evaluated = guesses.filter((s) => s === 401).length;
    assert.ok(evaluated <= 6, `${evaluated} guesses were evaluated`);
    assert.equal(guesses.filter((s) => s === 429).length, 100 - evaluated);
    assert.equal(await loginFrom(host.port, '127.9.9.9', ADMIN.password), 429, 'the account is throttled, whatever the address');
  });
});

describe('Relysia clients name their wallet as walletID: Keystead never falls back to another wallet', () => {
  let host: Headless;
  let auth: Record<string, string> = {};
  const call = (
    method: string,
    path: string,
    opts: { body?: unknown; headers?: Record<string, string>; raw?: string } = {},
  ): Promise<Reply> => request(host.url, method, path, { ...opts, headers: { ...auth, ...opts.headers } });
  const walletIds = async () => (await call('GET', '/v1/wallets')).body.data.wallets.map((w: { walletID: string }) => w.walletID).sort();

  before(async () => {
    host = await startHeadless({ dataDir: tempDir(), password: 'pw-relysia' });
    const s = await request(host.url, 'POST', '/api/v1/setup', { body: ADMIN });
    auth = { authToken: s.body.data.authToken, serviceid: s.body.data.serviceId };
  });
  after(() => host.stop());

  it('reads walletID, walletId or walletid from the body, the query or a header, on every wallet operation', async () => {
    const w = (await call('POST', '/v1/createWallet', { body: { walletTitle: 'Ops' } })).body.data.walletID;
    const address = (await call('GET', '/v1/address', { headers: { walletID: w } })).body.data.address;
    for (const [path, opts] of [
      ['/v1/address', { headers: { walletId: w } }],
      [`/v1/address?walletID=${w}`, {}],
      [`/v1/address?walletid=${w}`, {}],
      ['/v1/allAddresses', { headers: { walletid: w } }],
      [`/v1/history?walletID=${w}`, {}],
    ] as const) {
      const r = await call('GET', path, opts);
      assert.equal(r.status, 200, path);
      assert.equal(r.body.data.walletID, w, path);
    }
    assert.equal((await call('POST', '/chain/faucet', { body: { walletID: w, satoshis: 50_000 } })).body.data.address, address);
    const to = new P2PKH().lock(PrivateKey.fromRandom().toAddress()).toHex();
    const paid = await call('POST', '/v1/pay', { body: { walletID: w, outputs: [{ script: to, satoshis: 1_000 }] } });
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    assert.equal(paid.body.data.walletID, w, 'paid from the wallet the body named');
    const rpc = await call('POST', '/rpc/history', { body: { walletID: w } });
    assert.equal(rpc.body.data.walletID, w, 'the UI RPC reads the same spellings');
  });

  it('refuses two different wallet ids in one request (400) and deletes nothing', async () => {
    const a = (await call('POST', '/v1/createWallet', { body: { walletTitle: 'A' } })).body.data.walletID;
    const b = (await call('POST', '/v1/createWallet', { body: { walletTitle: 'B' } })).body.data.walletID;
    const before = await walletIds();
    assertEnvelope(await call('DELETE', '/v1/wallet', { headers: { walletID: a }, body: { walletID: b } }), 400, 'VALIDATION_FAILED');
    assertEnvelope(await call('DELETE', '/v1/wallet', { body: { walletID: a, walletid: b } }), 400, 'VALIDATION_FAILED');
    assertEnvelope(await call('GET', `/v1/address?walletId=${a}`, { headers: { walletID: b } }), 400, 'VALIDATION_FAILED');
    assertEnvelope(await call('POST', '/rpc/walletAddress', { body: { walletID: a, walletId: b } }), 400, 'VALIDATION_FAILED');
    assert.deepEqual(await walletIds(), before);
  });

  it('DELETE /v1/wallet deletes exactly the wallet named in the body, and without a name deletes nothing (400)', async () => {
    await call('GET', '/v1/address'); // makes sure the default wallet exists
    const doomed = (await call('POST', '/v1/createWallet', { body: { walletTitle: 'Doomed' } })).body.data.walletID;
    const before = await walletIds();
    assert.ok(before.includes('0000-00000000-00000'));
    assertEnvelope(await call('DELETE', '/v1/wallet'), 400, 'VALIDATION_FAILED');
    const bodiless = await call('DELETE', '/v1/wallet', { headers: { 'content-type': 'application/json' } });
    assertEnvelope(bodiless, 400, 'VALIDATION_FAILED');
    assert.match(bodiless.body.data.msg, /walletId: is required/);
    assert.deepEqual(await walletIds(), before, 'nothing was deleted');
    const gone = await call('DELETE', '/v1/wallet', { body: { walletID: doomed } });
    assert.equal(gone.status, 200, JSON.stringify(gone.body));
    assert.equal(gone.body.data.walletId, doomed);
    assert.deepEqual(
      await walletIds(),
      before.filter((id: string) => id !== doomed),
      'only the named wallet went',
    );
    const byHeader = (await call('POST', '/v1/createWallet', { body: { walletTitle: 'Header' } })).body.data.walletID;
    assert.equal(
      (await call('DELETE', '/v1/wallet', { headers: { walletID: byHeader, 'content-type': 'application/json' } })).status,
      200,
      'a bodiless DELETE with a JSON content type is accepted',
    );
  });
});
