/**
 * POST /v1/compile with a scrypt-ts (TypeScript) source, over real HTTP: transpiled and compiled in the
 * compile worker; the answer carries the generated sCrypt and the transformer output, and its artifact is
 * exactly what compiling that sCrypt directly gives. TypeScript and transpiler errors come back at their
 * positions in the .ts source.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildContractClass } from 'scryptlib';
import { compileScrypt } from '../../main/contracts/scrypt/compile.js';
import { ROOT, startHeadless, type Headless } from '../helpers/headless.js';
import { ADMIN, request } from '../helpers/http.js';
import { tempDir } from '../helpers/tmp.js';

const COUNTER = readFileSync(path.join(ROOT, 'test', 'fixtures', 'scrypt-ts', 'Counter.ts'), 'utf8');
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

const MERKLE = `import { assert, method, prop, SmartContract, Sha256 } from 'scrypt-ts';
import { MerklePath, MerkleProof } from 'scrypt-ts-lib';

export class MerkleCheck extends SmartContract {
  @prop()
  root: Sha256;

  constructor(root: Sha256) {
    super(...arguments);
    this.root = root;
  }

  @method()
  public unlock(leaf: Sha256, proof: MerkleProof) {
    assert(MerklePath.calcMerkleRoot(leaf, proof, 32) == this.root, 'wrong root');
  }
}
`;

/** A contract whose one method has `body` from line 14 on. */
const withBody = (body: string) => `import { assert, method, prop, SmartContract } from 'scrypt-ts';

export class Bad extends SmartContract {
  @prop()
  x: bigint;

  constructor(x: bigint) {
    super(...arguments);
    this.x = x;
  }

  @method()
  public unlock(n: bigint) {
${body}
  }
}
`;

/** The generated sCrypt compiled directly, its imports read from Keystead's node_modules (where the keys point). */
function direct(file: string, scrypt: string) {
  const r = compileScrypt(scrypt, { file, readImport: (p) => readFileSync(path.join(ROOT, p), 'utf8') });
  assert.deepEqual(r.diagnostics, []);
  return r;
}

describe('POST /v1/compile with scrypt-ts', () => {
  let host: Headless;
  let auth: Record<string, string>;
  const compile = (body: Record<string, unknown>) => request(host.url, 'POST', '/v1/compile', { body, headers: auth });
  before(async () => {
    host = await startHeadless({ dataDir: tempDir(), password: 'pw' });
    auth = { authToken: (await request(host.url, 'POST', '/api/v1/setup', { body: ADMIN })).body.data.authToken };
  });
  after(() => host.stop());

  it('a stateful contract (.ts file name): the artifact of the sCrypt it transpiles to, with that sCrypt and the transformer output', async () => {
    const r = await compile({ sourceCode: b64(COUNTER), file: 'Counter.ts' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const { transpiled, artifact, hex, scrypt } = r.body.data;
    assert.equal(transpiled.file, 'Counter.scrypt');
    assert.match(transpiled.scrypt, /contract Counter \{/);
    assert.match(transpiled.scrypt, /@state\s+int count;/);
    assert.equal(transpiled.transformer.success, true);
    assert.equal(transpiled.transformer.scryptfile, 'Counter.scrypt');
    const own = direct('Counter.scrypt', transpiled.scrypt);
    assert.equal(hex, own.hex);
    assert.equal(scrypt, own.asm);
    assert.equal(artifact.hex, own.artifact!.hex);
    assert.equal(artifact.contract, 'Counter');
    assert.deepEqual(
      (artifact.stateProps as { name: string }[]).map((p) => p.name),
      ['count'],
    );
    assert.equal(typeof buildContractClass(artifact), 'function', 'scryptlib loads it');
  });

  it('a contract using scrypt-ts-lib (MerklePath), language chosen explicitly for a pasted source', async () => {
    const r = await compile({ sourceCode: b64(MERKLE), language: 'scrypt-ts' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const { transpiled, hex } = r.body.data;
    // Without a file name the source is Contract.ts; the import names the package, not where Keystead is installed.
    assert.equal(transpiled.file, 'Contract.scrypt');
    assert.match(transpiled.scrypt, /^import "node_modules\/scrypt-ts-lib\/artifacts\/merklePath\.scrypt";/m);
    assert.match(transpiled.scrypt, /MerklePath\.calcMerkleRoot\(leaf, proof, 32\)/);
    assert.equal(hex, direct('Contract.scrypt', transpiled.scrypt).hex);
    assert.equal(r.body.data.artifact.contract, 'MerkleCheck');
    // language wins over the file name: the same file name as sCrypt is parsed as sCrypt and fails.
    const asScrypt = await compile({ sourceCode: b64(MERKLE), file: 'MerkleCheck.ts', language: 'scrypt' });
    assert.equal(asScrypt.body.data.code, 'COMPILE_FAILED');
    assert.equal(asScrypt.body.data.transpiled, undefined);
  });

  it('TypeScript and transpiler errors: COMPILE_FAILED at their line in the .ts source', async () => {
    const typeError = await compile({ sourceCode: b64(withBody(`    assert(this.x == 'x');`)), file: 'Bad.ts' });
    assert.equal(typeError.status, 400);
    assert.equal(typeError.body.data.code, 'COMPILE_FAILED');
    assert.deepEqual(
      typeError.body.data.errors.map((e: any) => `${e.file}:${e.line}:${e.column} ${e.severity}`),
      ['Bad.ts:14:12 error'],
    );
    assert.match(typeError.body.data.errors[0].message, /no overlap/);
    assert.match(typeError.body.data.msg, /^Compilation failed: Bad\.ts:14:12/);

    const unsupported = await compile({
      sourceCode: b64(withBody(`    let s = 0n;\n    while (s < n) {\n      s++;\n    }\n    assert(s == this.x);`)),
      file: 'src/contracts/Bad.ts',
    });
    assert.equal(unsupported.status, 400);
    assert.equal(unsupported.body.data.code, 'COMPILE_FAILED');
    assert.deepEqual(
      unsupported.body.data.errors.map((e: any) => `${e.file}:${e.line}:${e.column}`),
      ['src/contracts/Bad.ts:15:5'],
    );
    assert.match(unsupported.body.data.errors[0].message, /Untransformable statement: 'while/);

    // TypeScript would read (and its errors quote) any file the source names: only the two packages are let in.
    const foreign = await compile({
      sourceCode: b64(
        '/// <reference path="/etc/hosts.d.ts" />\n' +
          "import { assert, method, SmartContract } from 'scrypt-ts';\n" +
          `import { k } from '${path.join(ROOT, 'package')}';\n` +
          "const t: typeof import('scrypt-ts/../../x') = 1;\n",
      ),
      file: 'Foreign.ts',
    });
    assert.equal(foreign.body.data.code, 'COMPILE_FAILED');
    assert.deepEqual(
      foreign.body.data.errors.map((e: any) => `${e.file}:${e.line}:${e.column}`),
      ['Foreign.ts:1:22', 'Foreign.ts:3:19', 'Foreign.ts:4:24'],
    );
    for (const e of foreign.body.data.errors) assert.match(e.message, /imports from 'scrypt-ts' and 'scrypt-ts-lib' only/);

    // scrypt-ts-lib comes with Keystead: files sent alongside are refused rather than ignored.
    const imports = await compile({ sourceCode: b64(COUNTER), file: 'Counter.ts', imports: { 'x.scrypt': b64('library X {}') } });
    assert.equal(imports.body.data.code, 'BAD_REQUEST');
  });

  it('refuses an oversized source before any work', async () => {
    const big = COUNTER + `// ${'x'.repeat(1_000_001)}\n`;
    const r = await compile({ sourceCode: b64(big), file: 'Counter.ts' });
    assert.equal(r.status, 413);
    assert.equal(r.body.data.code, 'PAYLOAD_TOO_LARGE');
  });
});
