import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { compileScrypt } from '../../main/contracts/scrypt/compile.js';
import { ensureBuilt, ROOT, startHeadless, type Headless } from '../helpers/headless.js';
import { ADMIN, request } from '../helpers/http.js';
import { tempDir } from '../helpers/tmp.js';

const fixture = (kind: string, name: string) => readFileSync(path.join(ROOT, 'test', 'fixtures', 'solidity', kind, name), 'utf8');
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const BROKEN = 'contract A {\n  uint x;\n  function f() public { x = block.number; }\n}\n';

describe('POST /v1/transpile and npx keystead transpile', () => {
  let host: Headless;
  let auth: Record<string, string>;
  before(async () => {
    host = await startHeadless({ dataDir: tempDir(), password: 'pw' });
    auth = { authToken: (await request(host.url, 'POST', '/api/v1/setup', { body: ADMIN })).body.data.authToken };
  });
  after(() => host.stop());

  it('returns the sCrypt and empty logs; the sCrypt compiles with POST /v1/compile', async () => {
    const r = await request(host.url, 'POST', '/v1/transpile', {
      body: { sourceCode: b64(fixture('pass', 'erc20.sol')), file: 'erc20.sol' },
      headers: auth,
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.data.scrypt, fixture('pass', 'erc20.scrypt'));
    assert.deepEqual(r.body.data.errorLogs, []);
    const c = await request(host.url, 'POST', '/v1/compile', { body: { sourceCode: b64(r.body.data.scrypt) }, headers: auth });
    assert.equal(c.status, 200, JSON.stringify(c.body));
  });

  it('a source with errors is a 400 with the logs and no sCrypt; with the force header, 200 with both', async () => {
    const bad = await request(host.url, 'POST', '/v1/transpile', { body: { sourceCode: b64(BROKEN), file: 'A.sol' }, headers: auth });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.data.code, 'TRANSPILE_FAILED');
    assert.deepEqual(bad.body.data.errorLogs, [
      { src: 'A.sol:3:29:3:41', type: 'Error', message: 'unsupported expression: `block.number`' },
    ]);
    assert.equal(bad.body.data.scrypt, undefined);
    const forced = await request(host.url, 'POST', '/v1/transpile', {
      body: { sourceCode: b64(BROKEN), file: 'A.sol' },
      headers: { ...auth, force: 'true' },
    });
    assert.equal(forced.status, 200, JSON.stringify(forced.body));
    assert.equal(forced.body.data.errorLogs.length, 1);
    assert.match(forced.body.data.scrypt, /contract A \{/);
  });

  it('a syntax error is one log; bad input and no session are refused', async () => {
    const syntax = await request(host.url, 'POST', '/v1/transpile', { body: { sourceCode: b64('contract A { uint x }') }, headers: auth });
    assert.equal(syntax.status, 400);
    assert.equal(syntax.body.data.errorLogs.length, 1);
    assert.match(syntax.body.data.errorLogs[0].src, /^contract\.sol:1:\d+:1:\d+$/);
    const notB64 = await request(host.url, 'POST', '/v1/transpile', { body: { sourceCode: 'contract!' }, headers: auth });
    assert.equal(notB64.status, 400);
    assert.equal(notB64.body.data.code, 'VALIDATION_FAILED');
    // No credentials needed (a utility, as on the public service): the broken source is judged, not refused.
    const noAuth = await request(host.url, 'POST', '/v1/transpile', { body: { sourceCode: b64(BROKEN) } });
    assert.equal(noAuth.status, 400);
    assert.equal(noAuth.body.data.code, 'TRANSPILE_FAILED');
  });

  it('the CLI writes the sCrypt, prints {scrypt, errorLogs} with --json, and exits 1 on errors unless forced', () => {
    ensureBuilt();
    const dir = tempDir();
    const cli = path.join(ROOT, 'dist', 'main', 'cli.js');
    const src = path.join(dir, 'Counter.sol');
    writeFileSync(src, fixture('pass', 'counter.sol'));
    const ok = spawnSync(process.execPath, [cli, 'transpile', src], { encoding: 'utf8' });
    assert.equal(ok.status, 0, ok.stderr);
    const written = readFileSync(path.join(dir, 'Counter.scrypt'), 'utf8');
    assert.equal(written, fixture('pass', 'counter.scrypt'));
    assert.deepEqual(compileScrypt(written, { file: 'Counter.scrypt' }).diagnostics, []);
    const json = spawnSync(process.execPath, [cli, 'transpile', src, '--json'], { encoding: 'utf8' });
    assert.deepEqual(JSON.parse(json.stdout), { scrypt: written, errorLogs: [] });

    const bad = path.join(dir, 'A.sol');
    writeFileSync(bad, BROKEN);
    const refused = spawnSync(process.execPath, [cli, 'transpile', bad, '-o', path.join(dir, 'out.scrypt')], { encoding: 'utf8' });
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /^.*\/A\.sol:3:29: error: unsupported expression: `block\.number`$/m, 'the path as given');
    assert.equal(existsSync(path.join(dir, 'out.scrypt')), false, 'nothing is written');
    const badJson = spawnSync(process.execPath, [cli, 'transpile', bad, '--json'], { encoding: 'utf8' });
    assert.equal(badJson.status, 1);
    assert.equal(JSON.parse(badJson.stdout).scrypt, undefined);
    const forced = spawnSync(process.execPath, [cli, 'transpile', bad, '--force', '-o', path.join(dir, 'out.scrypt')], {
      encoding: 'utf8',
    });
    assert.equal(forced.status, 0);
    assert.match(readFileSync(path.join(dir, 'out.scrypt'), 'utf8'), /contract A/);
  });
});
