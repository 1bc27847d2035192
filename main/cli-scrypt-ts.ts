/**
 * `keystead compile Foo.ts` and `keystead compile --project <dir>`: what `npx scrypt-cli compile` does for a
 * scrypt-ts project, offline. The published scrypt-ts-transpiler turns the TypeScript contracts into sCrypt
 * (artifacts/<Name>.scrypt, .scrypt.map, .transformer.json and scrypt.index.json in the project), Keystead's
 * compiler compiles each one on a worker thread per core, and the scryptlib artifact is written beside its
 * `.scrypt` file (artifacts/<Name>.json), where the project's `Foo.loadArtifact()` finds it.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { importReader } from './cli-files.js';
import { loadTranspiler, TranspilerUnavailable } from './contracts/scrypt-ts/load-transpiler.js';
import { projectOfFile, readProjectConfig, ProjectConfigError, type ProjectRequest } from './contracts/scrypt-ts/project.js';
import { outside, transpileProject, type TsDiagnostic } from './contracts/scrypt-ts/transpile.js';
import { scryptImportClosure } from './contracts/scrypt-ts/imports.js';
import { formatDiagnostic } from './contracts/scrypt/diagnostics.js';
import type { CompileResult } from './contracts/scrypt/compile.js';
import { CompilePool } from './engine/contracts/compile-pool.js';

export const SCRYPT_TS_HELP = `keystead compile <Contract.ts> | --project <dir> [--tsconfig <file>] [--include <globs>] [--exclude <globs>]
                 [--asm] [--jobs <n>] [--json]
  Compiles scrypt-ts contracts offline, as \`npx scrypt-cli compile\` does: scrypt-ts-transpiler writes
  artifacts/<Name>.scrypt, .scrypt.map and .transformer.json and scrypt.index.json into the project, and
  Keystead's compiler writes the artifact artifacts/<Name>.json, which the project's Name.loadArtifact()
  reads. The configuration is the project's tsconfig-scryptTS.json, or its tsconfig.json with
  include ["src/contracts/**/*.ts"] (scrypt-cli's rules). A single <Contract.ts> compiles that file in the
  project above it. Contracts compile in parallel (--jobs, default: the cores); libraries they import from
  node_modules (scrypt-ts-lib) are read from the project's packages. --asm runs the project's
  .asm/apply_asm.js over the written .scrypt files first, as scrypt-cli does.
  Exit codes: 0 all compiled, 1 a contract failed (errors as path:line:column: error: message), 2 bad usage.`;

interface ContractReport {
  name: string;
  scryptFile: string;
  artifactFile: string | null;
  ok: boolean;
  errors: string[];
  /** Said on success too (a script larger than default nodes run, for example). */
  warnings?: string[];
}

const indexFile = (root: string) => path.join(root, 'scrypt.index.json');

interface ScryptIndex {
  scryptBase: string;
  bindings: { symbol: string; path: string }[];
}

/**
 * The transpiler starts `scrypt.index.json` afresh on each run (right for a whole project, which
 * `--project` rebuilds), so compiling one file of a project would forget every other contract (and their
 * `loadArtifact()` would fail). The new bindings are merged into the existing index: a symbol keeps its old
 * binding while its `.scrypt` file is still there and the new run does not bind it again.
 */
function mergedIndex(root: string, fresh: string): string {
  let old: ScryptIndex;
  const next = JSON.parse(fresh) as ScryptIndex;
  try {
    old = JSON.parse(readFileSync(indexFile(root), 'utf8')) as ScryptIndex;
  } catch {
    return fresh;
  }
  if (old.scryptBase !== next.scryptBase || !Array.isArray(old.bindings)) return fresh;
  const bound = new Set(next.bindings.map((b) => b.symbol));
  const kept = old.bindings.filter(
    (b) =>
      typeof b?.symbol === 'string' &&
      typeof b.path === 'string' &&
      !bound.has(b.symbol) &&
      existsSync(path.join(root, old.scryptBase, b.path)),
  );
  return JSON.stringify({ ...next, bindings: [...kept, ...next.bindings] });
}

/** Every `node_modules` folder Node would look in for the project's packages. */
function packageFolders(root: string): string[] {
  const found: string[] = [];
  for (let dir = root; ; dir = path.dirname(dir)) {
    const nm = path.join(dir, 'node_modules');
    if (existsSync(nm)) found.push(realpathSync(nm));
    if (path.dirname(dir) === dir) return found;
  }
}

const tsLine = (d: TsDiagnostic, cwd: string) =>
  d.file ? `${path.relative(cwd, d.file)}:${d.line}:${d.column}: error: ${d.message}` : `error: ${d.message}`;

const optionValue = (args: string[], name: string): string | undefined => {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
};
const globs = (value: string | undefined) =>
  value
    ?.split(',')
    .map((g) => g.trim())
    .filter(Boolean);

/** Whether `compile` was asked for a scrypt-ts build (a .ts file or --project) rather than an sCrypt file. */
export const isScryptTsCompile = (args: string[]) => args.includes('--project') || args.some((a) => /\.ts$/i.test(a) && !a.startsWith('-'));

export async function scryptTsCompileCommand(args: string[], cwd = process.cwd()): Promise<number> {
  const json = args.includes('--json');
  const project = optionValue(args, '--project');
  const file = args.find(
    (a, i) =>
      /\.ts$/i.test(a) && !a.startsWith('-') && !['--project', '--tsconfig', '--include', '--exclude', '--jobs'].includes(args[i - 1]),
  );
  const jobsArg = optionValue(args, '--jobs');
  const jobs = jobsArg === undefined ? os.availableParallelism() : Number(jobsArg);
  if ((project === undefined) === (file === undefined) || !Number.isInteger(jobs) || jobs < 1) {
    console.error(SCRYPT_TS_HELP);
    return 2;
  }
  let req: ProjectRequest;
  if (file) {
    if (!existsSync(file)) {
      console.error(`keystead: cannot read ${file}: ENOENT`);
      return 2;
    }
    req = projectOfFile(path.resolve(cwd, file));
  } else req = { root: path.resolve(cwd, project as string) };
  req = { ...req, tsconfig: optionValue(args, '--tsconfig'), include: globs(optionValue(args, '--include')) ?? req.include };
  const exclude = globs(optionValue(args, '--exclude'));
  if (exclude) req.exclude = exclude;

  let config;
  try {
    config = readProjectConfig(loadTranspiler().ts, req);
  } catch (err) {
    if (err instanceof ProjectConfigError || err instanceof TranspilerUnavailable) {
      console.error(`keystead: ${err.message}`);
      return 2;
    }
    throw err;
  }
  if (!config.fileNames.length) {
    console.error(
      `keystead: no contract sources in ${config.root} match ${JSON.stringify(req.include ?? 'the configuration')} (${config.source})`,
    );
    return 1;
  }
  const say = (line: string) => (json ? undefined : console.error(line));
  say(`keystead: transpiling ${config.fileNames.length} file(s) with scrypt-ts-transpiler ${loadTranspiler().version} (${config.source})`);
  const outcome = transpileProject(config);
  if (outcome.typeErrors.length) {
    for (const d of outcome.typeErrors) console.error(tsLine(d, cwd));
    console.error('keystead: the TypeScript does not type-check; nothing was compiled (as scrypt-cli: "Building TS failed")');
    return 1;
  }
  const strays = outside(config.root, outcome.files.keys());
  if (strays.length) {
    console.error(`keystead: scrypt-ts-transpiler wanted to write outside the project (${strays.join(', ')}); nothing was written`);
    return 1;
  }
  for (const [target, text] of outcome.files) {
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, file && target === indexFile(config.root) ? mergedIndex(config.root, text) : text);
  }

  // As scrypt-cli: only the files the configuration names are compiled (a library of node_modules is only read).
  const names = new Set(config.fileNames.map((f) => path.basename(f, path.extname(f))));
  const units = outcome.units.filter(
    (u) =>
      names.has(path.basename(u.transformerFile, '.transformer.json')) &&
      !path.relative(config.outDir, u.transformerFile).split(path.sep).includes('node_modules'),
  );
  const reports: ContractReport[] = [];
  const toCompile: typeof units = [];
  for (const u of units) {
    const name = path.basename(u.scryptFile, '.scrypt');
    if (!u.success) {
      reports.push({ name, scryptFile: u.scryptFile, artifactFile: null, ok: false, errors: u.errors.map((d) => tsLine(d, cwd)) });
    } else if (!outcome.files.has(u.scryptFile)) {
      reports.push({
        name,
        scryptFile: u.scryptFile,
        artifactFile: null,
        ok: false,
        errors: ['the transpiler succeeded but wrote no .scrypt file'],
      });
    } else toCompile.push(u);
  }

  // scrypt-cli's --asm: the project's own .asm/apply_asm.js rewrites functions of the written .scrypt files
  // as asm bodies (from .asm/asm.json) before they are compiled; Keystead runs it the same way.
  if (args.includes('--asm')) {
    const script = path.join(config.root, '.asm', 'apply_asm.js');
    if (!existsSync(script)) {
      console.error("keystead: --asm needs the project's .asm/apply_asm.js (as scrypt-cli does)");
      return 1;
    }
    const applied = spawnSync(process.execPath, [script], { cwd: config.root, stdio: ['ignore', 'inherit', 'inherit'] });
    if (applied.status !== 0) {
      console.error(`keystead: .asm/apply_asm.js failed (exit ${applied.status ?? applied.signal})`);
      return 1;
    }
  }

  const roots = [config.root, ...packageFolders(config.root)];
  const pool = new CompilePool({ timeoutMs: 600_000, memoryMb: 4096, maxSourceBytes: 64_000_000, workers: jobs });
  try {
    let next = 0;
    const worker = async () => {
      while (next < toCompile.length) {
        const u = toCompile[next++];
        reports.push(await compileUnit(pool, u.scryptFile, readFileSync(u.scryptFile, 'utf8'), roots, cwd));
      }
    };
    await Promise.all(Array.from({ length: Math.min(jobs, toCompile.length) }, worker));
  } finally {
    await pool.close();
  }

  reports.sort((a, b) => a.scryptFile.localeCompare(b.scryptFile));
  const passing = reports.filter((r) => r.ok).length;
  const failing = reports.length - passing;
  if (json) {
    const rel = (p: string | null) => (p === null ? null : path.relative(cwd, p));
    console.log(
      JSON.stringify(
        { contracts: reports.map((r) => ({ ...r, scryptFile: rel(r.scryptFile), artifactFile: rel(r.artifactFile) })), passing, failing },
        null,
        2,
      ),
    );
  } else {
    for (const r of reports) {
      if (r.ok) {
        console.error(`  ✓ ${r.name}: ${path.relative(cwd, r.artifactFile as string)}`);
        for (const w of r.warnings ?? []) console.error(`    ${w}`);
      } else {
        console.error(`  ✗ ${r.name}: ${path.relative(cwd, r.scryptFile)}`);
        for (const e of r.errors) console.error(`    ${e}`);
      }
    }
    console.error(`keystead: ${passing} passing, ${failing} failing`);
  }
  return failing ? 1 : 0;
}

async function compileUnit(pool: CompilePool, scryptFile: string, source: string, roots: string[], cwd: string): Promise<ContractReport> {
  const name = path.basename(scryptFile, '.scrypt');
  const refusals: string[] = [];
  const read = importReader(scryptFile, roots, refusals);
  const imports = scryptImportClosure(source, read);
  const display = path.relative(cwd, scryptFile);
  let r: CompileResult;
  try {
    r = await pool.compile(source, { file: display, optimize: true, imports, owner: scryptFile });
  } catch (err) {
    return { name, scryptFile, artifactFile: null, ok: false, errors: [`error: ${(err as Error).message}`] };
  }
  if (!r.artifact) {
    return {
      name,
      scryptFile,
      artifactFile: null,
      ok: false,
      errors: [...r.diagnostics.map(formatDiagnostic), ...refusals.map((w) => `import not read: ${w}`)],
    };
  }
  const artifactFile = path.join(path.dirname(scryptFile), `${name}.json`);
  writeFileSync(artifactFile, `${JSON.stringify(r.artifact, null, 2)}\n`);
  return { name, scryptFile, artifactFile, ok: true, errors: [], warnings: r.diagnostics.map(formatDiagnostic) };
}
