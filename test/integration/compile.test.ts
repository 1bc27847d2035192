import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildContractClass } from 'scryptlib';
import { ensureBuilt, ROOT, startHeadless, type Headless } from '../helpers/headless.js';
import { ADMIN, request } from '../helpers/http.js';
import { tempDir } from '../helpers/tmp.js';

const P2PKH = readFileSync(path.join(ROOT, 'test', 'fixtures', 'scrypt', 'p2pkh.scrypt'), 'utf8');
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

describe('POST /v1/compile and the offline CLI', () => {
  let host: Headless;
  let auth: Record<string, string>;
  before(async () => {
    host = await startHeadless({ dataDir: tempDir(), password: 'pw' });
    auth = { authToken: (await request(host.url, 'POST', '/api/v1/setup', { body: ADMIN })).body.data.authToken };
  });
  after(() => host.stop());

  it('returns ASM with $placeholders in data.scrypt, the hex and a scryptlib artifact', async () => {
    const r = await request(host.url, 'POST', '/v1/compile', { body: { sourceCode: b64(P2PKH) }, headers: auth });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.data.msg, 'Operation completed successfully');
    assert.equal(
      r.body.data.scrypt,
      '$pubKeyHash OP_1 OP_PICK OP_HASH160 OP_1 OP_PICK OP_EQUAL OP_VERIFY OP_2 OP_PICK OP_2 OP_PICK OP_CHECKSIG OP_NIP OP_NIP OP_NIP',
    );
    assert.equal(r.body.data.hex, '<pubKeyHash>5179a95179876952795279ac777777');
    assert.deepEqual(r.body.data.errors, []);
    assert.equal(typeof buildContractClass(r.body.data.artifact), 'function', 'scryptlib loads it');
    const opt = await request(host.url, 'POST', '/v1/compile', { body: { sourceCode: b64(P2PKH), optimize: true }, headers: auth });
    assert.equal(opt.body.data.hex, '<pubKeyHash>78a978886f75ac777777');
  });

  it('answers errors with their positions, and refuses bad input', async () => {
    const bad = await request(host.url, 'POST', '/v1/compile', {
      body: { sourceCode: b64('contract A {\n  int x\n}\n'), file: 'A.scrypt' },
      headers: auth,
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.data.code, 'COMPILE_FAILED');
    assert.deepEqual(
      bad.body.data.errors.map((e: any) => `${e.file}:${e.line}:${e.column}`),
      ['A.scrypt:3:1'],
    );
    const notB64 = await request(host.url, 'POST', '/v1/compile', { body: { sourceCode: 'contract!' }, headers: auth });
    assert.equal(notB64.body.data.code, 'VALIDATION_FAILED');
    // The toolchain is a utility (as on the public service): no credentials needed on the private listener.
    const noAuth = await request(host.url, 'POST', '/v1/compile', { body: { sourceCode: b64(P2PKH) } });
    assert.equal(noAuth.status, 200);
  });

  it('imports: sent with the request (path → base64), or read from disk by the CLI', async () => {
    const lib = 'library Twice { static function of(int x) : int { return x + x; } }';
    const main = 'import "lib/twice.scrypt";\ncontract UsesTwice { int x; public function f(int a) { require(Twice.of(a) == this.x); } }';
    const ok = await request(host.url, 'POST', '/v1/compile', {
      body: { sourceCode: b64(main), imports: { 'lib/twice.scrypt': b64(lib) } },
      headers: auth,
    });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.data.artifact.contract, 'UsesTwice');
    const missing = await request(host.url, 'POST', '/v1/compile', { body: { sourceCode: b64(main), file: 'M.scrypt' }, headers: auth });
    assert.equal(missing.status, 400);
    assert.deepEqual(
      missing.body.data.errors.map((e: any) => `${e.file}:${e.line}:${e.column} ${e.message}`),
      ['M.scrypt:1:1 cannot read the imported file lib/twice.scrypt'],
    );
    ensureBuilt();
    const dir = tempDir();
    writeFileSync(path.join(dir, 'M.scrypt'), main);
    mkdirSync(path.join(dir, 'lib'));
    writeFileSync(path.join(dir, 'lib', 'twice.scrypt'), lib);
    const cli = spawnSync(process.execPath, [path.join(ROOT, 'dist', 'main', 'cli.js'), 'compile', path.join(dir, 'M.scrypt')], {
      encoding: 'utf8',
    });
    assert.equal(cli.status, 0, cli.stderr);
    assert.equal(JSON.parse(readFileSync(path.join(dir, 'M.json'), 'utf8')).contract, 'UsesTwice');
  });

  it('npx keystead compile works offline: artifact file, --asm, exit codes', () => {
    ensureBuilt();
    const dir = tempDir();
    const src = path.join(dir, 'P2PKH.scrypt');
    writeFileSync(src, P2PKH);
    const ok = spawnSync(process.execPath, [path.join(ROOT, 'dist', 'main', 'cli.js'), 'compile', src, '--asm'], { encoding: 'utf8' });
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(ok.stdout, /^\$pubKeyHash OP_1 OP_PICK OP_HASH160/);
    assert.equal(JSON.parse(readFileSync(path.join(dir, 'P2PKH.json'), 'utf8')).hex, '<pubKeyHash>5179a95179876952795279ac777777');
    const help = spawnSync(process.execPath, [path.join(ROOT, 'dist', 'main', 'cli.js'), '--help'], { encoding: 'utf8' });
    assert.equal(help.status, 0);
    assert.match(help.stdout, /compile <File\.scrypt>/);
    assert.match(help.stdout, /transpile <File\.sol>/);
    const one = spawnSync(process.execPath, [path.join(ROOT, 'dist', 'main', 'cli.js'), 'help', 'compile'], { encoding: 'utf8' });
    assert.match(one.stdout, /Exit codes: 0 compiled, 1 errors/);
    assert.equal(spawnSync(process.execPath, [path.join(ROOT, 'dist', 'main', 'cli.js'), 'help', 'nope'], { encoding: 'utf8' }).status, 2);
    writeFileSync(src, 'contract A { int x }');
    const bad = spawnSync(process.execPath, [path.join(ROOT, 'dist', 'main', 'cli.js'), 'compile', src], { encoding: 'utf8' });
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /P2PKH\.scrypt:1:20: error: expected ';'/);
  });
});
