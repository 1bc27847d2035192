import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { request as rawRequest } from 'node:http';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ROOT, runHeadlessExpectingExit, startHeadless, type Headless } from '../helpers/headless.js';
import { ADMIN, request } from '../helpers/http.js';
import { tempDir } from '../helpers/tmp.js';
import { until } from '../helpers/until.js';

const PASSWORD = 'db-password-1';

describe('headless host: the first run with the default data directory', () => {
  it('starts with no flags at all, creating the data directory and its key file (an empty XDG_DATA_HOME is unset)', async () => {
    const home = tempDir();
    const env = { HOME: home, XDG_DATA_HOME: '', KEYSTEAD_DATA_DIR: '' };
    const host = await startHeadless({ dataDir: null, env });
    try {
      const dir = path.join(home, '.local', 'share', 'keystead');
      assert.equal(statSync(path.join(dir, 'keystead.key')).mode & 0o777, 0o600);
      assert.ok(statSync(path.join(dir, 'keystead.db')).isFile());
      assert.match(host.stderr(), /created a random key file/);
      assert.equal((await request(host.url, 'GET', '/health')).status, 200);
    } finally {
      await host.stop();
    }
    const again = await startHeadless({ dataDir: null, env });
    assert.doesNotMatch(again.stderr(), /created a random key file/, 'the second run uses the key file');
    await again.stop();
  });
});

describe('headless host: contract, first run, restart', () => {
  const dataDir = tempDir();
  let host: Headless;
  let token = '';
  let serviceId = '';

  before(async () => {
    host = await startHeadless({ dataDir, password: PASSWORD });
  });
  after(() => host.stop('SIGKILL'));

  it('prints exactly one ready line on stdout', () => {
    assert.equal(host.stdout(), `Keystead listening on ${host.url}\n`);
  });

  it('answers /health without credentials', async () => {
    const r = await request(host.url, 'GET', '/health');
    assert.equal(r.status, 200);
    assert.equal(r.body.statusCode, 200);
    assert.equal(r.body.data.status, 'success');
    assert.equal(r.body.data.network, 'local');
    assert.match(r.body.data.version, /^\d+\.\d+\.\d+/);
    assert.equal(typeof r.body.data.uptime, 'number');
  });

  it('sets up the organisation once, then refuses (409)', async () => {
    const r = await request(host.url, 'POST', '/api/v1/setup', { body: ADMIN });
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.body.data).sort(), ['authToken', 'expiresAt', 'msg', 'role', 'serviceId', 'status', 'uid'].sort());
    assert.equal(r.body.data.role, 'admin');
    token = r.body.data.authToken;
    serviceId = r.body.data.serviceId;
    const again = await request(host.url, 'POST', '/api/v1/setup', { body: { ...ADMIN, email: 'eve@acme.io' } });
    assert.equal(again.status, 409);
    assert.equal(again.body.data.code, 'ALREADY_SET_UP');
    assert.equal(again.body.data.status, 'error');
  });

  it('logs in and accepts the token as authToken header and as Bearer', async () => {
    const r = await request(host.url, 'POST', '/api/v1/login', { body: { email: ADMIN.email, password: ADMIN.password } });
    assert.equal(r.status, 200);
    assert.deepEqual(
      Object.keys(r.body.data).sort(),
      ['authToken', 'expiresAt', 'msg', 'role', 'serviceId', 'status', 'token', 'uid'].sort(),
    );
    assert.equal(r.body.data.serviceId, serviceId);
    const forms: Record<string, string>[] = [{ authToken: r.body.data.authToken }, { authorization: `Bearer ${r.body.data.authToken}` }];
    for (const headers of forms) {
      const me = await request(host.url, 'GET', '/api/v1/me', { headers });
      assert.equal(me.status, 200);
      assert.equal(me.body.data.email, ADMIN.email);
    }
    const rpc = await request(host.url, 'POST', '/rpc/me', { body: {}, headers: { authorization: `Bearer ${token}` } });
    assert.equal(rpc.body.data.serviceId, serviceId, 'the UI RPC is the same operation');
  });

  it('answers bad input with a 4xx envelope', async () => {
    const cases: [string, string, Parameters<typeof request>[3], number, string][] = [
      ['POST', '/api/v1/login', { raw: '{"email": ', headers: { 'content-type': 'application/json' } }, 400, 'INVALID_JSON'],
      ['POST', '/api/v1/login', { body: { email: 42, password: [] } }, 400, 'VALIDATION_FAILED'],
      ['POST', '/api/v1/login', { body: {} }, 400, 'VALIDATION_FAILED'],
      [
        'POST',
        '/api/v1/login',
        { raw: 'email=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      ],
      ['POST', '/api/v1/login', { body: { email: 'a@b.co', password: 'x'.repeat(2 * 1024 * 1024) } }, 413, 'PAYLOAD_TOO_LARGE'],
      ['GET', '/api/v1/nothing-here', {}, 404, 'NOT_FOUND'],
      ['POST', '/rpc/noSuchOp', { body: {} }, 404, 'NOT_FOUND'],
      ['GET', '/api/v1/me', { headers: { authToken: 'kst_forged' } }, 401, 'INVALID_CREDENTIALS'],
      ['GET', '/api/v1/me', {}, 401, 'UNAUTHORIZED'],
      ['GET', '/health', { headers: { origin: 'https://evil.example' } }, 403, 'ORIGIN_FORBIDDEN'],
      ['GET', '/health', { headers: { 'sec-fetch-site': 'cross-site' } }, 403, 'ORIGIN_FORBIDDEN'],
    ];
    for (const [method, url, opts, status, code] of cases) {
      const r = await request(host.url, method, url, opts);
      assert.equal(r.status, status, `${method} ${url} → ${JSON.stringify(r.body).slice(0, 200)}`);
      assert.equal(r.body.statusCode, status);
      assert.equal(r.body.data.status, 'error');
      assert.equal(r.body.data.code, code, `${method} ${url}`);
      assert.equal(typeof r.body.data.msg, 'string');
    }
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const headers = { host: `rebind.evil.example:${host.port}` };
      const req = rawRequest({ host: '127.0.0.1', port: host.port, path: '/health', headers }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.end();
    });
    assert.equal(status, 403);
  });

  it('serves the built UI at / with a strict CSP; any other unknown path is a JSON 404, never the page', async () => {
    for (const url of ['/', '/index.html']) {
      const r = await fetch(host.url + url);
      assert.equal(r.status, 200);
      assert.match(r.headers.get('content-type')!, /text\/html/);
      assert.match(r.headers.get('content-security-policy')!, /script-src 'self'/);
      assert.match(await r.text(), /<div id="root">/);
    }
    // The UI routes by the fragment (#/wallets); a script that mistypes a path must see an error.
    for (const url of ['/some/client/route', '/v2/nothing', '/v1/nothing']) {
      const r = await fetch(host.url + url);
      assert.equal(r.status, 404, url);
      assert.equal((await r.json()).data.code, 'NOT_FOUND', url);
    }
  });

  it('serves no source maps: none in the UI build, and a .map request is a 404', async () => {
    const assets = path.join(ROOT, 'dist', 'renderer', 'assets');
    const files = readdirSync(assets);
    assert.ok(files.some((f) => f.endsWith('.js')));
    assert.deepEqual(
      files.filter((f) => f.endsWith('.map')),
      [],
    );
    const script = files.find((f) => f.endsWith('.js'))!;
    assert.doesNotMatch(readFileSync(path.join(assets, script), 'utf8'), /sourceMappingURL/);
    const r = await fetch(`${host.url}/assets/${script}.map`);
    assert.equal(r.status, 404);
  });

  it('keeps no plaintext secret or e-mail on disk, and sqlite3 cannot read the file', async () => {
    const secrets = [ADMIN.email, ADMIN.password, PASSWORD, 'Acme Ltd', token];
    for (const f of readdirSync(dataDir)) {
      const bytes = readFileSync(path.join(dataDir, f));
      for (const s of secrets) assert.equal(bytes.includes(Buffer.from(s)), false, `${f} contains ${s}`);
      assert.equal(statSync(path.join(dataDir, f)).mode & 0o077, 0, `${f} is private`);
    }
    const cli = spawnSync('sqlite3', [path.join(dataDir, 'keystead.db'), 'SELECT * FROM users;'], { encoding: 'utf8' });
    // A missing tool fails the test rather than skipping the check (CI's .ci/run installs sqlite3).
    assert.equal(cli.error, undefined, `this test needs the sqlite3 command-line tool (apt-get install sqlite3): ${cli.error?.message}`);
    assert.notEqual(cli.status, 0);
    assert.match(cli.stderr, /not a database|encrypted/i);
  });

  it('shuts down cleanly on SIGTERM, letting an in-flight request finish', async () => {
    // With "Expect: 100-continue" the server answers "100 Continue" as soon as it has taken the request, before
    // the body is sent: proof that the request is in flight when the signal goes, where a pause could only guess.
    const body = JSON.stringify({ email: ADMIN.email, password: ADMIN.password });
    const login = rawRequest({
      host: '127.0.0.1',
      port: host.port,
      method: 'POST',
      path: '/api/v1/login',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), expect: '100-continue' },
    });
    const taken = new Promise<void>((resolve) => login.once('continue', resolve));
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      login.once('error', reject);
      login.once('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, text }));
      });
    });
    login.flushHeaders();
    await taken;
    const exited = host.stop('SIGTERM');
    await until('the host to start shutting down', async () => (/SIGTERM received/.test(host.stderr()) ? true : undefined));
    login.end(body); // the login's body, and so all of its work, comes after the shutdown began
    const r = await answer;
    assert.equal(r.status, 200, `the in-flight login completed: ${r.text}`);
    assert.equal(JSON.parse(r.text).data.status, 'success');
    assert.equal(await exited, 0, host.stderr());
  });

  it('restarts with the same password and keeps the organisation', async () => {
    const again = await startHeadless({ dataDir, password: PASSWORD });
    try {
      const r = await request(again.url, 'POST', '/api/v1/login', { body: { email: ADMIN.email, password: ADMIN.password } });
      assert.equal(r.status, 200);
      assert.equal(r.body.data.serviceId, serviceId);
      const old = await request(again.url, 'GET', '/api/v1/me', { headers: { authToken: token } });
      assert.equal(old.status, 200, 'sessions survive a restart until they expire');
    } finally {
      assert.equal(await again.stop('SIGINT'), 0, again.stderr());
    }
  });

  it('refuses a wrong password: non-zero exit, clear message, nothing in the data dir touched', async () => {
    const snapshot = () => Object.fromEntries(readdirSync(dataDir).map((f) => [f, readFileSync(path.join(dataDir, f)).toString('base64')]));
    const before = snapshot();
    assert.deepEqual(Object.keys(before).sort(), ['chain-local.db', 'keystead.db']);
    const r = await runHeadlessExpectingExit({ dataDir, password: 'not-the-password' });
    assert.notEqual(r.code, 0);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /password does not unlock/);
    assert.deepEqual(snapshot(), before, 'no file was created or changed');
  });
});

describe('headless host: login throttling', () => {
  it('throttles repeated failed logins with 429 and retry-after', async () => {
    const h = await startHeadless({ dataDir: tempDir(), password: 'pw' });
    try {
      let last = await request(h.url, 'POST', '/api/v1/login', { body: { email: 'victim@acme.io', password: 'wrong-pass-0' } });
      for (let i = 1; i < 8 && last.status !== 429; i++) {
        last = await request(h.url, 'POST', '/api/v1/login', { body: { email: 'victim@acme.io', password: `wrong-pass-${i}` } });
      }
      assert.equal(last.status, 429);
      assert.equal(last.body.data.code, 'RATE_LIMITED');
      assert.ok(Number(last.headers.get('retry-after')) >= 1);
    } finally {
      await h.stop();
    }
  });
});

describe('headless host: password sources', () => {
  it('reads --password-file', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'pw');
    writeFileSync(file, 'file-password\n');
    const a = await startHeadless({ dataDir: path.join(dir, 'data'), passwordFile: file });
    await a.stop();
    const wrong = await runHeadlessExpectingExit({ dataDir: path.join(dir, 'data'), password: 'file-password\n' });
    assert.notEqual(wrong.code, 0, 'the trailing newline is not part of the password');
    const right = await startHeadless({ dataDir: path.join(dir, 'data'), password: 'file-password' });
    assert.equal(await right.stop(), 0, right.stderr());
  });

  it('without any password creates a 0600 key file and warns', async () => {
    const dir = tempDir();
    const a = await startHeadless({ dataDir: dir });
    assert.match(a.stderr(), /warning: no password given; created a random key file/);
    assert.equal(statSync(path.join(dir, 'keystead.key')).mode & 0o777, 0o600);
    await a.stop();
    const b = await startHeadless({ dataDir: dir });
    assert.doesNotMatch(b.stderr(), /warning/);
    await b.stop();
  });

  it('exits with usage for bad flags', async () => {
    const r = await runHeadlessExpectingExit({ dataDir: tempDir(), args: ['--port', 'nope'] });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--port must be a whole number/);
  });
});
