/**
 * Offline scrypt-ts → sCrypt transpilation, and loading of scrypt-ts contract classes, for tests.
 *
 * scrypt-ts-transpiler is a ts-patch "program transformer": scrypt-cli normally runs it through a patched
 * `tsc` with the tsconfig plugin entry `{ "transform": "scrypt-ts-transpiler", "transformProgram": true,
 * "outDir": ... }`. We patch nothing: we build a Program with the transpiler's own nested TypeScript
 * (5.3, the one its code was written against, whose SyntaxKind numbers it compares with) and call the
 * exported `transformProgram(program, host, pluginConfig, { ts })` ourselves — the only thing ts-patch
 * would add is that call. The `plugins` entry is stripped from the options, so even a ts-patch'ed copy
 * of that TypeScript does not run the transformer a second time on its own.
 *
 * Two more details keep it offline and inside `outDir`:
 * - after writing each `.scrypt` file the transpiler runs the native sCrypt compiler (scryptlib
 *   `findCompiler()` + `compile()`, via a shell) to collect "compile time errors", making a temp dir in the
 *   OS temp folder. It only does so when the `.scrypt` file already exists on disk, so we capture the
 *   transpiler's `ts.sys.writeFile` calls in memory and write the files ourselves afterwards.
 * - its selector engine, @phenomnomnominal/tsquery, is hoisted to the top-level node_modules and would bind
 *   the project's TypeScript 5.9, whose SyntaxKind numbers differ from 5.3's (no class would ever match).
 *   While loading the transpiler we resolve tsquery's `require('typescript')` to the nested 5.3 as well.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import type * as TS from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require_ = createRequire(import.meta.url);
const TRANSPILER_DIR = path.dirname(require_.resolve('scrypt-ts-transpiler/package.json'));
/** The TypeScript the transpiler itself requires (a nested ~5.3 when the project's is newer). */
const TS_PATH = require_.resolve('typescript', { paths: [TRANSPILER_DIR] });

type TransformProgram = (
  program: TS.Program,
  host: TS.CompilerHost,
  config: Record<string, unknown>,
  extras: { ts: typeof TS },
) => TS.Program;

let loaded: { ts: typeof TS; transformProgram: TransformProgram } | undefined;

function load(): { ts: typeof TS; transformProgram: TransformProgram } {
  if (loaded) return loaded;
  const ts = require_(TS_PATH) as typeof TS;
  const tsqueryDir = path.dirname(require_.resolve('@phenomnomnominal/tsquery/package.json', { paths: [TRANSPILER_DIR] }));
  const M = Module as unknown as {
    _resolveFilename: (request: string, parent: { filename?: string } | undefined, ...rest: unknown[]) => string;
  };
  const resolve = M._resolveFilename;
  M._resolveFilename = function (request, parent, ...rest) {
    if (request === 'typescript' && parent?.filename?.startsWith(tsqueryDir + path.sep)) return TS_PATH;
    return resolve.call(this, request, parent, ...rest);
  };
  let transformProgram: TransformProgram;
  try {
    transformProgram = (require_(TRANSPILER_DIR) as { default: TransformProgram }).default;
  } finally {
    M._resolveFilename = resolve;
  }
  const tsquery = require_(require_.resolve('@phenomnomnominal/tsquery', { paths: [TRANSPILER_DIR] })) as { SyntaxKind: unknown };
  if (tsquery.SyntaxKind !== ts.SyntaxKind) {
    throw new Error(
      `@phenomnomnominal/tsquery was loaded before with another TypeScript than ${TS_PATH}; scrypt-ts-transpiler would find no contracts`,
    );
  }
  loaded = { ts, transformProgram };
  return loaded;
}

/** The Program scrypt-cli would build: the fixtures' tsconfig.json (next to the first file), minus plugins. */
function makeProgram(files: string[], outDir: string) {
  const { ts } = load();
  const abs = files.map((f) => path.resolve(f));
  const configPath = ts.findConfigFile(path.dirname(abs[0]), ts.sys.fileExists);
  if (!configPath) throw new Error(`no tsconfig.json above ${abs[0]}`);
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error(`cannot read ${configPath}`);
  const options: TS.CompilerOptions = {
    ...parsed.options,
    rootDir: path.dirname(configPath),
    outDir,
    noEmit: false,
    declaration: false,
    sourceMap: false,
  };
  delete options.plugins;
  const host = ts.createCompilerHost(options);
  // The transpiler writes scrypt.index.json into "the tsconfig dir", which it takes from the program's current directory.
  host.getCurrentDirectory = () => outDir;
  const program = ts.createProgram(abs, options, host);
  const diagnostics = ts.getPreEmitDiagnostics(program);
  if (diagnostics.length) {
    throw new Error(
      `scrypt-ts sources do not type-check:\n${ts.formatDiagnostics(diagnostics, { ...host, getNewLine: () => '\n', getCanonicalFileName: (f) => f })}`,
    );
  }
  return { ts, program, host, abs };
}

/**
 * Transpiles scrypt-ts contract sources (one contract class per file, the file named after the class) to
 * sCrypt with scrypt-ts-transpiler, offline. Writes `<File>.scrypt`, `.scrypt.map`, `.transformer.json` and
 * `scrypt.index.json` into `outDir` (nothing anywhere else) and returns the sCrypt source of each file,
 * keyed by the name of its (last) contract. Transpile errors throw, with the transpiler's messages.
 */
export async function transpileScryptTs(files: string[], outDir: string): Promise<Record<string, string>> {
  mkdirSync(outDir, { recursive: true });
  const { transformProgram } = load();
  const { ts, program, host } = makeProgram(files, outDir);
  const written = new Map<string, string>();
  const writeFile = ts.sys.writeFile;
  const project = process.env.TS_NODE_PROJECT;
  delete process.env.TS_NODE_PROJECT; // would move "the tsconfig dir" (and scrypt.index.json) elsewhere
  const log = console.log;
  const printed: string[] = [];
  ts.sys.writeFile = (file: string, data: string) => void written.set(path.resolve(file), data);
  console.log = (...args: unknown[]) => void printed.push(args.map(String).join(' ')); // the transpiler reports errors here
  try {
    transformProgram(program, host, { transform: 'scrypt-ts-transpiler', transformProgram: true }, { ts });
  } finally {
    ts.sys.writeFile = writeFile;
    console.log = log;
    if (project !== undefined) process.env.TS_NODE_PROJECT = project;
  }
  const out = path.resolve(outDir);
  for (const [file, data] of written) {
    if (!file.startsWith(out + path.sep)) throw new Error(`scrypt-ts-transpiler wanted to write outside ${out}: ${file}`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, data);
  }
  const errors: string[] = [];
  const result: Record<string, string> = {};
  for (const [file, data] of written) {
    if (file.endsWith('.transformer.json')) {
      const t = JSON.parse(data) as {
        success: boolean;
        errors: { message: string; srcRange: { fileName: string; start: { line: number; character: number } } }[];
      };
      if (!t.success)
        errors.push(
          ...t.errors.map((e) => `${e.srcRange.fileName}:${e.srcRange.start.line + 1}:${e.srcRange.start.character + 1}: ${e.message}`),
        );
    } else if (file.endsWith('.scrypt')) {
      const names = [...data.matchAll(/^\s*contract\s+(\w+)/gm)].map((m) => m[1]);
      result[names.at(-1) ?? path.basename(file, '.scrypt')] = data;
    }
  }
  if (errors.length || printed.some((l) => l.includes('ERROR'))) {
    throw new Error(`scrypt-ts-transpiler failed:\n${[...errors, ...printed].join('\n')}`);
  }
  if (!Object.keys(result).length) throw new Error(`scrypt-ts-transpiler found no contract in ${files.join(', ')}`);
  return result;
}

/**
 * Compiles the same scrypt-ts sources to CommonJS with the nested TypeScript (legacy decorators, as
 * scrypt-ts needs; tsx/esbuild would apply standard decorators) and evaluates them in memory, requiring
 * packages as the source file itself would. Returns each file's exports, keyed by file path. Imports between
 * the given files are not supported (none of the fixtures need them).
 */
export function loadScryptTsModules(files: string[]): Record<string, Record<string, unknown>> {
  const { ts, program, abs } = makeProgram(files, path.join(ROOT, '.scrypt-ts-not-written'));
  const js = new Map<string, string>();
  const emitted = program.emit(undefined, (file, text) => {
    if (file.endsWith('.js')) js.set(path.basename(file, '.js'), text);
  });
  if (emitted.emitSkipped)
    throw new Error(
      `emit failed:\n${ts.formatDiagnostics(emitted.diagnostics, { getCurrentDirectory: () => ROOT, getNewLine: () => '\n', getCanonicalFileName: (f) => f })}`,
    );
  const modules: Record<string, Record<string, unknown>> = {};
  for (const file of abs) {
    const code = js.get(path.basename(file, path.extname(file)));
    if (code === undefined) throw new Error(`no JavaScript emitted for ${file}`);
    const module = { exports: {} as Record<string, unknown> };
    const fn = vm.compileFunction(code, ['exports', 'require', 'module', '__filename', '__dirname'], { filename: file });
    fn(module.exports, createRequire(file), module, file, path.dirname(file));
    modules[file] = module.exports;
  }
  return modules;
}
