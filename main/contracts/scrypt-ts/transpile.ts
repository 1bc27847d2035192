/**
 * scrypt-ts → sCrypt with the published scrypt-ts-transpiler, offline and without touching the disk: every
 * file the transpiler writes (`.scrypt`, `.scrypt.map`, `.transformer.json`, `scrypt.index.json`) is captured
 * and returned, for the caller to check and write (the CLI) or to compile in memory (the Contracts view).
 */
import fs from 'node:fs';
import path from 'node:path';
import type * as TS from 'typescript';
import { loadTranspiler } from './load-transpiler.js';
import { ARTIFACTS_DIR, type ProjectConfig } from './project.js';

/** A position in a TypeScript source, 1-based. */
export interface TsDiagnostic {
  file: string;
  line: number;
  column: number;
  message: string;
}

/** One TypeScript file the transpiler turned into sCrypt (or tried to). */
export interface TranspiledUnit {
  /** The `.scrypt` file, absolute. */
  scryptFile: string;
  /** The `.transformer.json` beside it, absolute. */
  transformerFile: string;
  success: boolean;
  errors: TsDiagnostic[];
}

export interface TranspileOutcome {
  /** Every file the transpiler wrote, absolute path → content. */
  files: Map<string, string>;
  units: TranspiledUnit[];
  /** TypeScript's own errors: scrypt-cli stops at them ("Building TS failed") and compiles nothing. */
  typeErrors: TsDiagnostic[];
}

export interface TranspileOptions {
  /**
   * Where bare imports (`scrypt-ts`, `scrypt-ts-lib`) are resolved from when the project has no
   * node_modules of its own for them: a source compiled from the Contracts view lives in a scratch folder
   * and uses Keystead's own copies.
   */
  packagesFrom?: string;
}

interface TransformerJson {
  success: boolean;
  scryptfile: string;
  errors: { message: string; srcRange: { fileName: string; start: { line: number; character: number } } }[];
}

const position = (ts: typeof TS, d: TS.Diagnostic): TsDiagnostic => {
  const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
  if (!d.file || d.start === undefined) return { file: '', line: 0, column: 0, message };
  const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
  return { file: d.file.fileName, line: line + 1, column: character + 1, message };
};

function compilerHost(ts: typeof TS, options: TS.CompilerOptions, root: string, packagesFrom: string | undefined): TS.CompilerHost {
  const host = ts.createCompilerHost(options);
  // The transpiler's "tsconfig dir" is the program's current directory (see TS_NODE_PROJECT below).
  host.getCurrentDirectory = () => root;
  if (packagesFrom) confine(ts, host, options, root, packagesFrom);
  else resolveAsNodeDoes(ts, host, options);
  return host;
}

/**
 * Symlinked paths are kept (preserveSymlinks, transpileProject), so a dependency's files keep their place
 * inside the project; but a package's own imports are found as Node finds them at run time, from its real
 * place. In pnpm's layout `node_modules/scrypt-ts` links to `.pnpm/scrypt-ts@x/node_modules/scrypt-ts`, whose
 * `scryptlib` is its sibling there and nowhere above the link: looked up from the link, scrypt-ts's types
 * (PubKey, Sig…) would not resolve, and the transpiler would write `auto` for them.
 */
function resolveAsNodeDoes(ts: typeof TS, host: TS.CompilerHost, options: TS.CompilerOptions): void {
  host.resolveModuleNames = (names, containingFile) =>
    names.map((name) => {
      const found = ts.resolveModuleName(name, containingFile, options, host).resolvedModule;
      if (found) return found;
      const real = host.realpath?.(containingFile) ?? containingFile;
      return real === containingFile ? undefined : ts.resolveModuleName(name, real, options, host).resolvedModule;
    });
}

/** The packages a source compiled outside any project may import. */
export const SOURCE_PACKAGES = ['scrypt-ts', 'scrypt-ts-lib'];

/**
 * A source that comes from outside (the Contracts view, the API) is not a project: it may import only
 * `scrypt-ts` and `scrypt-ts-lib`, resolved from Keystead's own node_modules, and the compiler reads no file
 * but the source itself, those packages and TypeScript's own library. Without this, `import x from
 * '/etc/…'` would put that file's text into a type error.
 */
function confine(ts: typeof TS, host: TS.CompilerHost, options: TS.CompilerOptions, root: string, packagesFrom: string): void {
  const real = (p: string) => {
    try {
      return fs.realpathSync(p);
    } catch {
      return path.resolve(p);
    }
  };
  const allowed = [real(root), real(path.join(packagesFrom, 'node_modules')), real(path.dirname(host.getDefaultLibFileName(options)))];
  const inside = (file: string) => {
    const target = real(file);
    return allowed.some((dir) => {
      const rel = path.relative(dir, target);
      return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
    });
  };
  const anchor = path.join(packagesFrom, 'index.ts');
  const ownFile = (file: string) => path.dirname(real(file)) === real(root);
  host.resolveModuleNames = (names, containingFile) =>
    names.map((name) => {
      if (ownFile(containingFile)) {
        // The source's own imports: the two packages by name, nothing else.
        return SOURCE_PACKAGES.includes(name) ? ts.resolveModuleName(name, anchor, options, host).resolvedModule : undefined;
      }
      const resolved = ts.resolveModuleName(name, containingFile, options, host).resolvedModule;
      return resolved && inside(resolved.resolvedFileName) ? resolved : undefined;
    });
  const { getSourceFile, readFile, fileExists } = host;
  host.getSourceFile = (file, ...rest) => (inside(file) ? getSourceFile.call(host, file, ...rest) : undefined);
  host.readFile = (file) => (inside(file) ? readFile.call(host, file) : undefined);
  host.fileExists = (file) => inside(file) && fileExists.call(host, file);
}

/**
 * Runs the transpiler over the project's files. Files outside `root` are never written by the caller: the
 * outcome lists what the transpiler wanted to write, and `confined` checks it.
 */
export function transpileProject(config: ProjectConfig, opts: TranspileOptions = {}): TranspileOutcome {
  const { ts, transformProgram } = loadTranspiler();
  // A dependency reached through a symlinked node_modules (pnpm, a shared store) keeps its path inside the
  // project: resolved to its real path, the transpiler would name (and write) its .scrypt outside artifacts/.
  const options: TS.CompilerOptions = {
    ...config.options,
    preserveSymlinks: config.options.preserveSymlinks ?? true,
    noEmit: false,
    declaration: false,
    sourceMap: false,
  };
  const host = compilerHost(ts, options, config.root, opts.packagesFrom);
  const program = ts.createProgram(config.fileNames, options, host);
  const typeErrors = ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.category === ts.DiagnosticCategory.Error)
    .map((d) => position(ts, d));

  const files = new Map<string, string>();
  const indexFile = path.join(config.root, 'scrypt.index.json');
  const restore = captureWrites(ts, files, indexFile);
  try {
    transformProgram(program, host, { transform: 'scrypt-ts-transpiler', transformProgram: true, outDir: ARTIFACTS_DIR }, { ts });
  } finally {
    restore();
  }
  const units: TranspiledUnit[] = [];
  for (const [file, text] of files) {
    if (!file.endsWith('.transformer.json')) continue;
    const t = JSON.parse(text) as TransformerJson;
    units.push({
      // As scrypt-cli reads it: the transformer file's folder and the scrypt file's name.
      scryptFile: path.join(path.dirname(file), path.basename(t.scryptfile)),
      transformerFile: file,
      success: t.success === true,
      errors: (t.errors ?? []).map((e) => ({
        file: e.srcRange.fileName,
        // TranspileError already counts from 1.
        line: e.srcRange.start.line,
        column: e.srcRange.start.character,
        message: e.message,
      })),
    });
  }
  return { files, units, typeErrors };
}

/**
 * While the transpiler runs: its `ts.sys.writeFile` calls and the index file (written with `fs` directly)
 * are kept in memory; what it prints (its error reports, also in the transformer files) is swallowed; and
 * `TS_NODE_PROJECT`, which would move its "tsconfig dir", is hidden.
 */
function captureWrites(ts: typeof TS, files: Map<string, string>, indexFile: string): () => void {
  const writeFile = ts.sys.writeFile;
  const fsWrite = fs.writeFileSync;
  // The console is the transpiler's, not ours: it reports each error there as well as in the result files.
  const con = globalThis.console;
  const log = con.log;
  const project = process.env.TS_NODE_PROJECT;
  delete process.env.TS_NODE_PROJECT;
  ts.sys.writeFile = (file: string, data: string) => void files.set(path.resolve(file), data);
  fs.writeFileSync = ((file: fs.PathOrFileDescriptor, data: string | NodeJS.ArrayBufferView, ...rest: unknown[]) => {
    if (typeof file === 'string' && path.resolve(file) === indexFile) return void files.set(indexFile, String(data));
    return (fsWrite as (...a: unknown[]) => void)(file, data, ...rest);
  }) as typeof fs.writeFileSync;
  con.log = () => {};
  return () => {
    ts.sys.writeFile = writeFile;
    fs.writeFileSync = fsWrite;
    con.log = log;
    if (project !== undefined) process.env.TS_NODE_PROJECT = project;
  };
}

/** The paths of `files` that are not inside `root` (the transpiler should never name one). */
export function outside(root: string, files: Iterable<string>): string[] {
  return [...files].filter((f) => {
    const rel = path.relative(root, f);
    return rel.startsWith('..') || path.isAbsolute(rel);
  });
}
