/**
 * A scrypt-ts project of our own (test/fixtures/scrypt-ts-project, laid out as `npx scrypt-cli project` makes
 * one) built by `keystead compile --project .` as its user would, then tested by its own mocha suite against
 * those artifacts: a stateful counter, a HashedMap registry, scrypt-ts-lib's MerklePath, loops and shifts, and
 * a library of the project's own imported from another file.
 *
 * The project's tests name what they check: "(interpreter)" tests run the compiled locking script with
 * `tx.verifyScript` (each rejecting one also has a control spend that must verify), "(off-chain check)" tests
 * only see scrypt-ts run the method's TypeScript. To show the suite really executes our scripts, every
 * artifact's locking script is then made to fail first thing (OP_0 OP_VERIFY in front), and exactly the
 * interpreter tests must fail; a second compile over those artifacts rebuilds them as the first one did.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { ensureBuilt, ROOT } from '../helpers/headless.js';
import { tempDir } from '../helpers/tmp.js';

const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'scrypt-ts-project');
const CLI = path.join(ROOT, 'dist', 'main', 'cli.js');
const MOCHA = path.join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js');

/** Each source file of src/contracts and the classes it declares (the file names are scrypt-cli's artifact names). */
const FILES: Record<string, string> = {
  counter: 'Counter',
  mathLib: 'MathLib',
  merkleCheck: 'MerkleCheck',
  packer: 'Packer',
  registry: 'Registry',
  squareSum: 'SquareSum',
};
const LIBRARIES = ['mathLib'];
/** What scrypt-cli writes for each file into artifacts/. */
const OUTPUTS = ['.json', '.scrypt', '.scrypt.map', '.transformer.json'];
const TESTS = 17;

interface MochaTest {
  title: string;
  fullTitle: string;
  err: { message?: string };
}
interface MochaReport {
  stats: { tests: number; passes: number; failures: number; pending: number };
  passes: MochaTest[];
  failures: MochaTest[];
}

/** The environment of a user's shell: no node:test context, no scrypt-ts network override. */
function userEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  delete env.NETWORK;
  return env;
}

function run(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, args, { cwd, env: userEnv(), encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.error, undefined, `${args.join(' ')}: ${r.error?.message}`);
  return r;
}

const keystead = (cwd: string, ...args: string[]) => run([CLI, ...args], cwd);

/** Runs the project's mocha (its .mocharc.json: ts-node, tests/**\/*.test.ts) and reads its JSON report. */
function mocha(cwd: string): MochaReport & { status: number | null; output: string } {
  const report = path.join(tempDir('keystead-mocha-'), 'report.json');
  const r = run([MOCHA, '--reporter', 'json', '--reporter-option', `output=${report}`], cwd);
  const output = `${r.stdout}\n${r.stderr}`;
  assert.ok(existsSync(report), `mocha wrote no report (exit ${r.status}):\n${output}`);
  return { ...(JSON.parse(readFileSync(report, 'utf8')) as MochaReport), status: r.status, output };
}

const artifactFile = (dir: string, file: string) => path.join(dir, 'artifacts', `${file}.json`);
const readArtifact = (dir: string, file: string) => JSON.parse(readFileSync(artifactFile(dir, file), 'utf8'));

/** The tsconfig a scrypt-ts project of the boilerplate's shape has (the fields scrypt-cli reads). */
function writeMinimalTsconfig(proj: string): void {
  writeFileSync(
    path.join(proj, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'es2021',
        lib: ['es2021'],
        experimentalDecorators: true,
        module: 'commonjs',
        moduleResolution: 'node',
        esModuleInterop: true,
        skipLibCheck: true,
      },
      include: ['src/**/*.ts'],
    }),
  );
}

/** Every file scrypt-cli's layout has, with its content. */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const f of readdirSync(path.join(dir, 'artifacts')).sort()) files.set(f, readFileSync(path.join(dir, 'artifacts', f), 'utf8'));
  files.set('scrypt.index.json', readFileSync(path.join(dir, 'scrypt.index.json'), 'utf8'));
  return files;
}

describe('a scrypt-ts project built by keystead compile --project passes its own mocha tests', () => {
  const dir = tempDir('keystead-scrypt-ts-project-');
  let copied: string[];
  let first: Map<string, string>;
  let interpreterTests: string[];
  let offChainTests: string[];

  before(() => {
    ensureBuilt();
    // The sources only: what a compile in place (or an install) may have left in the fixture stays behind.
    const outputs = new Set(
      ['artifacts', 'scrypt.index.json', 'tsconfig-scryptTS.json', 'node_modules', 'dist'].map((f) => path.join(FIXTURE, f)),
    );
    cpSync(FIXTURE, dir, { recursive: true, filter: (src) => !outputs.has(src) });
    // The project has no packages of its own: scrypt-ts, scrypt-ts-lib, mocha, chai and ts-node are the repository's.
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    copied = readdirSync(dir);
  });

  it("writes scrypt-cli's layout: artifacts/<file>.json, .scrypt, .scrypt.map, .transformer.json and scrypt.index.json", () => {
    const r = keystead(dir, 'compile', '--project', '.');
    assert.equal(r.status, 0, r.stderr);
    for (const file of Object.keys(FILES)) assert.match(r.stderr, new RegExp(`✓ ${file}: artifacts/${file}\\.json`));
    assert.match(r.stderr, /keystead: 6 passing, 0 failing/);

    assert.deepEqual(
      readdirSync(path.join(dir, 'artifacts')).sort(),
      Object.keys(FILES)
        .flatMap((f) => OUTPUTS.map((ext) => f + ext))
        .sort(),
    );
    // Nothing else is written into the project (scrypt-cli would leave its tsconfig-scryptTS.json; Keystead derives it).
    assert.deepEqual(readdirSync(dir).sort(), [...copied, 'artifacts', 'scrypt.index.json'].sort());

    const index = JSON.parse(readFileSync(path.join(dir, 'scrypt.index.json'), 'utf8')) as {
      scryptBase: string;
      bindings: { symbol: string; path: string }[];
    };
    assert.equal(index.scryptBase, 'artifacts');
    const bindings = new Map(index.bindings.map((b) => [b.symbol, b.path]));
    for (const [file, symbol] of Object.entries(FILES)) assert.equal(bindings.get(symbol), `${file}.scrypt`, symbol);
    // The scrypt-ts-lib library the Merkle contract imports is bound to its published .scrypt in node_modules.
    const merklePath = realpathSync(path.join(ROOT, 'node_modules', 'scrypt-ts-lib', 'artifacts', 'merklePath.scrypt'));
    for (const symbol of ['MerklePath', 'Node']) {
      const bound = bindings.get(symbol);
      assert.ok(bound, `scrypt.index.json binds ${symbol}`);
      assert.equal(realpathSync(path.resolve(dir, index.scryptBase, bound)), merklePath, symbol);
    }
    assert.equal(bindings.size, Object.keys(FILES).length + 2, JSON.stringify(index.bindings));

    for (const [file, symbol] of Object.entries(FILES)) {
      const artifact = readArtifact(dir, file);
      assert.equal(artifact.contract, symbol, file);
      assert.match(readFileSync(path.join(dir, 'artifacts', `${file}.scrypt`), 'utf8'), new RegExp(`\\b(contract|library) ${symbol}\\b`));
      if (!LIBRARIES.includes(file)) assert.match(artifact.hex, /^[0-9a-f<]/, `${file}: a locking script`);
    }
    assert.deepEqual(readArtifact(dir, 'counter').stateProps, [{ name: 'count', type: 'int' }]);
    first = snapshot(dir);
  });

  it('runs the project’s mocha tests: all pass against the artifacts Keystead built', () => {
    assert.ok(first, 'the project compiled');
    const report = mocha(dir);
    assert.equal(report.status, 0, report.output);
    assert.deepEqual(
      report.failures.map((t) => `${t.fullTitle}: ${t.err.message}`),
      [],
    );
    assert.deepEqual([report.stats.tests, report.stats.passes, report.stats.pending], [TESTS, TESTS, 0]);
    const titles = report.passes.map((t) => t.fullTitle);
    interpreterTests = titles.filter((t) => t.includes('(interpreter'));
    offChainTests = titles.filter((t) => t.includes('(off-chain check)'));
    // Every test is one or the other, and every contract has both kinds.
    assert.equal(interpreterTests.length + offChainTests.length, TESTS, titles.join('\n'));
    for (const symbol of Object.values(FILES).filter((s) => s !== 'MathLib')) {
      assert.ok(
        interpreterTests.some((t) => t.startsWith(symbol)),
        `${symbol} has a test that runs its script`,
      );
      assert.ok(
        offChainTests.some((t) => t.startsWith(symbol)),
        `${symbol} has an off-chain test`,
      );
    }
  });

  it('with every locking script made to fail (OP_0 OP_VERIFY in front), every test that runs a script fails', () => {
    assert.ok(interpreterTests, 'the tests passed first');
    const mutated: string[] = [];
    for (const file of Object.keys(FILES)) {
      const artifact = readArtifact(dir, file);
      if (!artifact.hex) continue; // a library has no locking script
      // Placeholders (<root>, …) and the state part stay as they were: only the script's first opcodes change.
      artifact.hex = `0069${artifact.hex}`;
      writeFileSync(artifactFile(dir, file), JSON.stringify(artifact, null, 2));
      mutated.push(file);
    }
    assert.deepEqual(
      mutated,
      Object.keys(FILES).filter((f) => !LIBRARIES.includes(f)),
    );

    const report = mocha(dir);
    assert.notEqual(report.status, 0);
    assert.equal(report.stats.tests, TESTS);
    assert.deepEqual(report.failures.map((t) => t.fullTitle).sort(), [...interpreterTests].sort());
    assert.deepEqual(report.passes.map((t) => t.fullTitle).sort(), [...offChainTests].sort());
    // They fail where the injected OP_VERIFY stops the script, not on the way there.
    for (const t of report.failures) assert.match(t.err.message ?? '', /SCRIPT_ERR_VERIFY/, t.fullTitle);
  });

  it('compiles again over existing artifacts, rebuilding them in place as the first time', () => {
    assert.ok(first, 'the project compiled');
    const r = keystead(dir, 'compile', '--project', '.');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /keystead: 6 passing, 0 failing/);
    assert.deepEqual(snapshot(dir), first);
  });
});

describe('a dependency shipping TypeScript contracts, through a symlinked node_modules (pnpm, a shared store)', () => {
  it('is written inside artifacts/ and imported from there, as with a real node_modules folder', () => {
    ensureBuilt();
    const top = tempDir('keystead-scrypt-ts-store-');
    // store/node_modules: the repository's packages and `mylib`, whose library class is TypeScript source.
    const store = path.join(top, 'store', 'node_modules');
    mkdirSync(path.join(store, 'mylib'), { recursive: true });
    for (const entry of readdirSync(path.join(ROOT, 'node_modules')))
      symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(store, entry));
    writeFileSync(
      path.join(store, 'mylib', 'package.json'),
      JSON.stringify({ name: 'mylib', version: '0.0.1', main: 'index.ts', types: 'index.ts' }),
    );
    writeFileSync(
      path.join(store, 'mylib', 'index.ts'),
      "import { SmartContractLib, method } from 'scrypt-ts'\nexport class MyLib extends SmartContractLib {\n  @method()\n  static double(x: bigint): bigint {\n    return x * 2n\n  }\n}\n",
    );
    // The project sits folders below the store, its node_modules a link into it.
    const proj = path.join(top, 'deep', 'a', 'b', 'proj');
    mkdirSync(path.join(proj, 'src', 'contracts'), { recursive: true });
    symlinkSync(store, path.join(proj, 'node_modules'), 'dir');
    writeMinimalTsconfig(proj);
    writeFileSync(
      path.join(proj, 'src', 'contracts', 'useLib.ts'),
      "import { SmartContract, method, assert } from 'scrypt-ts'\nimport { MyLib } from 'mylib'\nexport class UseLib extends SmartContract {\n  @method()\n  public unlock(x: bigint) {\n    assert(MyLib.double(x) == 6n)\n  }\n}\n",
    );
    const r = keystead(proj, 'compile', '--project', '.');
    assert.equal(r.status, 0, r.stderr);
    assert.ok(existsSync(path.join(proj, 'artifacts', 'node_modules', 'mylib', 'index.scrypt')), 'the library, inside artifacts/');
    assert.match(readFileSync(path.join(proj, 'artifacts', 'useLib.scrypt'), 'utf8'), /import "node_modules\/mylib\/index\.scrypt";/);
    assert.deepEqual(readdirSync(path.join(top, 'deep', 'a')).sort(), ['b'], 'nothing written beside the project');
    assert.deepEqual(
      readArtifact(proj, 'useLib')
        .abi.map((f: { name?: string }) => f.name)
        .filter(Boolean),
      ['unlock'],
    );
  });
});

describe("pnpm's layout: node_modules/scrypt-ts a link into .pnpm, its own dependencies beside it there and nowhere above", () => {
  it('resolves scrypt-ts’s types from its real place, so PubKey and Sig stay themselves (never auto)', () => {
    ensureBuilt();
    const proj = tempDir('keystead-scrypt-ts-pnpm-');
    // node_modules/.pnpm/scrypt-ts@1.4.5/node_modules holds scrypt-ts and, beside it, what it depends on.
    const virtual = path.join(proj, 'node_modules', '.pnpm', 'scrypt-ts@1.4.5', 'node_modules');
    mkdirSync(virtual, { recursive: true });
    for (const entry of readdirSync(path.join(ROOT, 'node_modules')))
      if (!entry.startsWith('.')) symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(virtual, entry));
    // At the top, only the project's own direct dependency: no scryptlib above the link.
    symlinkSync(path.join('.pnpm', 'scrypt-ts@1.4.5', 'node_modules', 'scrypt-ts'), path.join(proj, 'node_modules', 'scrypt-ts'), 'dir');
    mkdirSync(path.join(proj, 'src', 'contracts'), { recursive: true });
    writeMinimalTsconfig(proj);
    writeFileSync(
      path.join(proj, 'src', 'contracts', 'lockup.ts'),
      [
        "import { assert, hash160, method, prop, PubKey, PubKeyHash, Sig, SmartContract } from 'scrypt-ts'",
        'export class Lockup extends SmartContract {',
        '  @prop() readonly pkhash: PubKeyHash',
        '  constructor(pkhash: PubKeyHash) {',
        '    super(...arguments)',
        '    this.pkhash = pkhash',
        '  }',
        '  @method()',
        '  public redeem(sig: Sig, pubkey: PubKey) {',
        "    assert(hash160(pubkey) == this.pkhash, 'public key hashes are not equal')",
        "    assert(this.checkSig(sig, pubkey), 'signature check failed')",
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    const r = keystead(proj, 'compile', '--project', '.');
    assert.equal(r.status, 0, r.stderr);
    const scrypt = readFileSync(path.join(proj, 'artifacts', 'lockup.scrypt'), 'utf8');
    assert.doesNotMatch(scrypt, /\bauto\b/);
    assert.match(scrypt, /Ripemd160 pkhash/); // PubKeyHash is scryptlib's name for Ripemd160
    const redeem = readArtifact(proj, 'lockup').abi.find((f: { name?: string }) => f.name === 'redeem');
    assert.deepEqual(
      redeem.params.map((p: { type: string }) => p.type),
      ['Sig', 'PubKey'],
    );
  });
});
