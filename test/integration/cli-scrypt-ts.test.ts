/**
 * `keystead compile <Contract.ts>` and `keystead compile --project <dir>` as a user runs them: real projects
 * on disk (tsconfig.json, src/contracts, packages from node_modules), the published scrypt-ts-transpiler, our
 * compiler on worker threads, and the files scrypt-cli writes. The CLI runs as a child process, as typed.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { compileScrypt } from '../../main/contracts/scrypt/compile.js';
import { tempDir } from '../helpers/tmp.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'scrypt-ts');

function keystead(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', import.meta.resolve('tsx'), path.join(ROOT, 'main', 'cli.ts'), 'compile', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** A scrypt-ts project as `npx scrypt-cli project` lays it out, its packages from the repository's node_modules. */
function project(contracts: Record<string, string>, extra: Record<string, string> = {}): string {
  const dir = tempDir('keystead-scrypt-ts-project-');
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'junction');
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2020',
        module: 'commonjs',
        moduleResolution: 'node',
        experimentalDecorators: true,
        emitDecoratorMetadata: true,
        esModuleInterop: true,
        strict: true,
        skipLibCheck: true,
        outDir: 'dist',
      },
      include: ['src/**/*.ts'],
    }),
  );
  mkdirSync(path.join(dir, 'src', 'contracts'), { recursive: true });
  for (const [name, text] of Object.entries(contracts)) writeFileSync(path.join(dir, 'src', 'contracts', name), text);
  for (const [name, text] of Object.entries(extra)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const fixture = (name: string) => readFileSync(path.join(FIXTURES, name), 'utf8');

/** An artifact's hex must be what our compiler makes of the `.scrypt` file written beside it (scrypt-cli: optimize on). */
function assertArtifactOf(dir: string, name: string) {
  const scrypt = readFileSync(path.join(dir, 'artifacts', `${name}.scrypt`), 'utf8');
  const artifact = JSON.parse(readFileSync(path.join(dir, 'artifacts', `${name}.json`), 'utf8')) as { hex: string; contract: string };
  const direct = compileScrypt(scrypt, { file: `${name}.scrypt`, optimize: true });
  assert.deepEqual(direct.diagnostics, []);
  assert.equal(artifact.hex, direct.hex, `${name}.json is the compiled ${name}.scrypt`);
  return artifact;
}

const MERKLE = `import { assert, method, prop, SmartContract, Sha256 } from 'scrypt-ts'
import { MerklePath, MerkleProof } from 'scrypt-ts-lib'

export class Membership extends SmartContract {
  @prop()
  root: Sha256

  constructor(root: Sha256) {
    super(...arguments)
    this.root = root
  }

  @method()
  public prove(leaf: Sha256, proof: MerkleProof) {
    assert(MerklePath.calcMerkleRoot(leaf, proof, 32) == this.root, 'not a member')
  }
}
`;

describe('keystead compile for scrypt-ts projects', () => {
  it('compiles every contract of a project into the layout scrypt-cli writes, and the index loadArtifact() reads', () => {
    const dir = project({ 'counter.ts': fixture('Counter.ts'), 'weightedSum.ts': fixture('WeightedSum.ts'), 'membership.ts': MERKLE });
    const r = keystead(dir, '--project', '.', '--json');
    assert.equal(r.code, 0, r.err);
    const report = JSON.parse(r.out) as {
      contracts: { name: string; ok: boolean; artifactFile: string }[];
      passing: number;
      failing: number;
    };
    assert.deepEqual([report.passing, report.failing], [3, 0]);
    const files = readdirSync(path.join(dir, 'artifacts')).sort();
    for (const name of ['counter', 'weightedSum', 'membership']) {
      for (const ext of ['.json', '.scrypt', '.scrypt.map', '.transformer.json'])
        assert.ok(files.includes(name + ext), `${name}${ext} in ${files}`);
    }
    const index = JSON.parse(readFileSync(path.join(dir, 'scrypt.index.json'), 'utf8')) as {
      scryptBase: string;
      bindings: { symbol: string; path: string }[];
    };
    assert.equal(index.scryptBase, 'artifacts');
    assert.deepEqual(
      index.bindings
        .filter((b) => ['Counter', 'WeightedSum', 'Membership'].includes(b.symbol))
        .sort((a, b) => a.symbol.localeCompare(b.symbol)),
      [
        { symbol: 'Counter', path: 'counter.scrypt' },
        { symbol: 'Membership', path: 'membership.scrypt' },
        { symbol: 'WeightedSum', path: 'weightedSum.scrypt' },
      ],
    );
    assert.equal(assertArtifactOf(dir, 'counter').contract, 'Counter');
    assert.equal(assertArtifactOf(dir, 'weightedSum').contract, 'WeightedSum');
    // The library came from node_modules/scrypt-ts-lib, read where the transpiler's import points.
    assert.match(
      readFileSync(path.join(dir, 'artifacts', 'membership.scrypt'), 'utf8'),
      /import ".*scrypt-ts-lib\/artifacts\/merklePath\.scrypt";/,
    );
    const membership = JSON.parse(readFileSync(path.join(dir, 'artifacts', 'membership.json'), 'utf8')) as { abi: { name?: string }[] };
    assert.ok(membership.abi.some((f) => f.name === 'prove'));

    // A second build over the existing artifacts (scrypt-cli rebuilds in place; the transpiler's native check stays off).
    const again = keystead(dir, '--project', '.');
    assert.equal(again.code, 0, again.err);
    assert.match(again.err, /3 passing, 0 failing/);
  });

  it('compiles one file of a project, leaving the others alone', () => {
    const dir = project({ 'counter.ts': fixture('Counter.ts'), 'weightedSum.ts': fixture('WeightedSum.ts') });
    const r = keystead(dir, 'src/contracts/counter.ts');
    assert.equal(r.code, 0, r.err);
    assert.ok(existsSync(path.join(dir, 'artifacts', 'counter.json')));
    assert.ok(!existsSync(path.join(dir, 'artifacts', 'weightedSum.json')), 'only the file named is compiled');
    assertArtifactOf(dir, 'counter');
    // Compiling the other file keeps the first in the index loadArtifact() reads.
    assert.equal(keystead(dir, 'src/contracts/weightedSum.ts').code, 0);
    const index = JSON.parse(readFileSync(path.join(dir, 'scrypt.index.json'), 'utf8')) as { bindings: { symbol: string }[] };
    assert.deepEqual(index.bindings.map((b) => b.symbol).sort(), ['Counter', 'WeightedSum']);
  });

  it('uses tsconfig-scryptTS.json and its include when the project has one', () => {
    const dir = project(
      { 'counter.ts': fixture('Counter.ts') },
      {
        'tsconfig-scryptTS.json': JSON.stringify({
          extends: './tsconfig.json',
          include: ['other/**/*.ts'],
          compilerOptions: { noEmit: true, experimentalDecorators: true, target: 'ESNext', esModuleInterop: true },
        }),
        'other/hashLocked.ts': fixture('HashLockedP2PKH.ts'),
      },
    );
    const r = keystead(dir, '--project', '.', '--json');
    assert.equal(r.code, 0, r.err);
    const names = (JSON.parse(r.out) as { contracts: { name: string }[] }).contracts.map((c) => c.name);
    assert.deepEqual(names, ['hashLocked']);
  });

  it('stops at TypeScript errors as scrypt-cli does, naming the line, and compiles nothing', () => {
    const broken = fixture('Counter.ts').replace('this.count++;', 'this.count = "one";');
    const dir = project({ 'counter.ts': broken });
    const r = keystead(dir, '--project', '.');
    assert.equal(r.code, 1);
    const line = broken.split('\n').findIndex((l) => l.includes('"one"')) + 1;
    assert.match(r.err, new RegExp(`src/contracts/counter\\.ts:${line}:\\d+: error: Type 'string' is not assignable`));
    assert.ok(!existsSync(path.join(dir, 'artifacts', 'counter.json')));
  });

  it('reports a contract the transpiler refuses at its TypeScript line, and still compiles the others', () => {
    const refused = `import { assert, method, prop, SmartContract } from 'scrypt-ts'

export class Looping extends SmartContract {
  @prop()
  n: bigint

  constructor(n: bigint) {
    super(...arguments)
    this.n = n
  }

  @method()
  public spend(x: bigint) {
    let i = 0n
    while (i < x) {
      i++
    }
    assert(i == this.n)
  }
}
`;
    const dir = project({ 'looping.ts': refused, 'counter.ts': fixture('Counter.ts') });
    const r = keystead(dir, '--project', '.');
    assert.equal(r.code, 1, r.err);
    assert.match(r.err, /✗ looping/);
    assert.match(r.err, /looping\.ts:15:5: error: Untransformable statement/);
    assert.match(r.err, /1 passing, 1 failing/);
    assert.ok(existsSync(path.join(dir, 'artifacts', 'counter.json')));
  });

  it("--asm runs the project's .asm/apply_asm.js over the written sCrypt before compiling, as scrypt-cli does", () => {
    const five = `import { assert, method, SmartContract } from 'scrypt-ts'

export class Five extends SmartContract {
  @method()
  public unlock(x: bigint) {
    assert(x == 5n)
  }
}
`;
    // What scrypt-cli's asm step does, in miniature: replace a function's body with an asm body.
    const apply = `const fs = require('fs');
const file = 'artifacts/five.scrypt';
const text = fs.readFileSync(file, 'utf8');
const next = text.replace(/public function unlock\\(int x\\) \\{[^}]*\\}/, 'public function unlock(int x) { asm { OP_5 OP_NUMEQUAL } }');
if (next === text) process.exit(3);
fs.writeFileSync(file, next);
`;
    const dir = project({ 'five.ts': five }, { '.asm/apply_asm.js': apply });
    const r = keystead(dir, '--project', '.', '--asm');
    assert.equal(r.code, 0, r.err);
    const artifact = JSON.parse(readFileSync(path.join(dir, 'artifacts', 'five.json'), 'utf8')) as { hex: string };
    // The asm body alone (OP_5 OP_NUMEQUAL); the transpiled require(x == 5) would be OP_DUP OP_5 OP_NUMEQUAL OP_NIP.
    assert.equal(artifact.hex, '559c');
    assert.match(readFileSync(path.join(dir, 'artifacts', 'five.scrypt'), 'utf8'), /asm \{ OP_5 OP_NUMEQUAL \}/);

    const plain = project({ 'five.ts': five });
    const without = keystead(plain, '--project', '.', '--asm');
    assert.equal(without.code, 1);
    assert.match(without.err, /--asm needs the project's \.asm\/apply_asm\.js/);
  });

  it('refuses bad usage with exit code 2', () => {
    const dir = project({ 'counter.ts': fixture('Counter.ts') });
    assert.equal(keystead(dir, '--project', '.', 'src/contracts/counter.ts').code, 2, 'a file and a project at once');
    assert.equal(keystead(dir, '--project', 'no-such-folder').code, 2);
    assert.equal(keystead(dir, 'src/contracts/missing.ts').code, 2);
    assert.equal(keystead(dir, '--project', '.', '--jobs', '0').code, 2);
  });
});
