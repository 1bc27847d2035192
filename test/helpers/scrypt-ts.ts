/**
 * scrypt-ts in tests: the product's offline transpile (main/contracts/scrypt-ts/, what `keystead compile`
 * runs), and loading of the scrypt-ts contract classes themselves, compiled to CommonJS in memory.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import type * as TS from 'typescript';
import { loadTranspiler } from '../../main/contracts/scrypt-ts/load-transpiler.js';
import { projectOfFile, readProjectConfig } from '../../main/contracts/scrypt-ts/project.js';
import { transpileProject } from '../../main/contracts/scrypt-ts/transpile.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Transpiles scrypt-ts contract sources (in one project folder) to sCrypt, as `keystead compile` does, and
 * returns the sCrypt of each file keyed by the name of its (last) contract. The transpiler's files are
 * written into `outDir` (flattened), not into the fixtures. Transpile and type errors throw.
 */
export async function transpileScryptTs(files: string[], outDir: string): Promise<Record<string, string>> {
  const { ts } = loadTranspiler();
  const project = projectOfFile(files[0]);
  const config = readProjectConfig(ts, { ...project, include: files.map((f) => path.relative(project.root, path.resolve(f))) });
  const outcome = transpileProject(config);
  const errors = [...outcome.typeErrors, ...outcome.units.flatMap((u) => u.errors)].map(
    (e) => `${e.file}:${e.line}:${e.column}: ${e.message}`,
  );
  if (errors.length) throw new Error(`scrypt-ts-transpiler failed:\n${errors.join('\n')}`);
  mkdirSync(outDir, { recursive: true });
  const result: Record<string, string> = {};
  for (const [file, data] of outcome.files) {
    writeFileSync(path.join(outDir, path.basename(file)), data);
    if (!file.endsWith('.scrypt')) continue;
    const names = [...data.matchAll(/^\s*contract\s+(\w+)/gm)].map((m) => m[1]);
    result[names.at(-1) ?? path.basename(file, '.scrypt')] = data;
  }
  if (!Object.keys(result).length) throw new Error(`scrypt-ts-transpiler found no contract in ${files.join(', ')}`);
  return result;
}

/** A Program over `files` with their tsconfig.json, for emitting JavaScript. */
function makeProgram(files: string[], outDir: string) {
  const { ts } = loadTranspiler();
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
  const program = ts.createProgram(abs, options, ts.createCompilerHost(options));
  return { ts, program, abs };
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
