/**
 * A scrypt-ts project as scrypt-cli's `compile` sees it: which TypeScript configuration, which files, and
 * where the output goes.
 *
 * scrypt-cli's rules (its `compile` command): the configuration is `tsconfig-scryptTS.json` in the project
 * folder (or the file given with `--tsconfig`); when that file does not exist, it is the project's
 * `tsconfig.json` extended with `include: ["src/contracts/**\/*.ts"]` and the options `noEmit`,
 * `experimentalDecorators`, `target: ESNext` and `esModuleInterop`; `--include`/`--exclude` replace the lists.
 * The transpiler is given `outDir: "artifacts"`, relative to the configuration's folder, where it also writes
 * `scrypt.index.json` (how `Foo.loadArtifact()` finds `Foo`'s files). scrypt-cli writes the
 * `tsconfig-scryptTS.json` it derives into the project; Keystead derives the same configuration without
 * writing it.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type * as TS from 'typescript';

export const SCRYPT_CLI_TSCONFIG = 'tsconfig-scryptTS.json';
export const DEFAULT_INCLUDE = ['src/contracts/**/*.ts'];
export const ARTIFACTS_DIR = 'artifacts';
/** What scrypt-cli adds to a project's own tsconfig.json. */
const SCRYPT_CLI_OVERRIDES = { noEmit: true, experimentalDecorators: true, target: 'ESNext', esModuleInterop: true };
/**
 * Options TypeScript 5 deprecates: scrypt-cli adds `ignoreDeprecations: "5.0"` to what it derives from a
 * tsconfig.json naming any of them (its compile step), so such a project still builds.
 */
const DEPRECATED_OPTIONS = [
  'out',
  'noImplicitUseStrict',
  'keyofStringsOnly',
  'suppressExcessPropertyErrors',
  'suppressImplicitAnyIndexErrors',
  'noStrictGenericChecks',
  'charset',
  'importsNotUsedAsValues',
  'preserveValueImports',
];
/** When a project has no tsconfig.json at all. */
const STANDALONE_OPTIONS = {
  target: 'ESNext',
  module: 'commonjs',
  moduleResolution: 'node',
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  esModuleInterop: true,
  skipLibCheck: true,
  noEmit: true,
};

export interface ProjectRequest {
  /** The project folder (where scrypt-cli is run). */
  root: string;
  /** `--tsconfig`: a configuration file, relative to the root. */
  tsconfig?: string;
  /** `--include` / `--exclude`: globs relative to the root, replacing the configuration's. */
  include?: string[];
  exclude?: string[];
}

export interface ProjectConfig {
  /** The configuration's folder: the transpiler's "tsconfig dir" (scrypt.index.json, artifacts/). */
  root: string;
  /** The file the configuration came from, or how it was derived. */
  source: string;
  fileNames: string[];
  options: TS.CompilerOptions;
  outDir: string;
}

export class ProjectConfigError extends Error {}

const formatDiagnostics = (ts: typeof TS, diagnostics: readonly TS.Diagnostic[]) =>
  diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('\n');

/** The configuration scrypt-cli would use for the project at `req.root`. */
export function readProjectConfig(ts: typeof TS, req: ProjectRequest): ProjectConfig {
  const root = path.resolve(req.root);
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new ProjectConfigError(`${root} is not a folder`);
  const explicit = req.tsconfig ? path.resolve(root, req.tsconfig) : null;
  if (explicit && !existsSync(explicit)) throw new ProjectConfigError(`tsconfig '${req.tsconfig}' not found`);
  const scryptTs = explicit ?? path.join(root, SCRYPT_CLI_TSCONFIG);
  const plain = path.join(root, 'tsconfig.json');
  let raw: Record<string, unknown>;
  let configFile: string | undefined;
  let source: string;
  if (existsSync(scryptTs)) {
    const read = ts.readConfigFile(scryptTs, ts.sys.readFile);
    if (read.error) throw new ProjectConfigError(`invalid ${path.relative(root, scryptTs)}: ${formatDiagnostics(ts, [read.error])}`);
    raw = read.config as Record<string, unknown>;
    configFile = scryptTs;
    source = path.relative(root, scryptTs);
  } else if (existsSync(plain)) {
    const own = ts.readConfigFile(plain, ts.sys.readFile).config as { compilerOptions?: Record<string, unknown> } | undefined;
    const deprecated = DEPRECATED_OPTIONS.some((o) => own?.compilerOptions?.[o] !== undefined);
    raw = {
      extends: './tsconfig.json',
      include: DEFAULT_INCLUDE,
      compilerOptions: { ...SCRYPT_CLI_OVERRIDES, ...(deprecated ? { ignoreDeprecations: '5.0' } : {}) },
    };
    configFile = path.join(root, SCRYPT_CLI_TSCONFIG); // where scrypt-cli would have written it
    source = `tsconfig.json with scrypt-cli's additions (as ${SCRYPT_CLI_TSCONFIG})`;
  } else {
    raw = { include: DEFAULT_INCLUDE, compilerOptions: STANDALONE_OPTIONS };
    source = 'scrypt-cli defaults (no tsconfig.json)';
  }
  if (req.include) raw = { ...raw, include: req.include, files: undefined };
  if (req.exclude) raw = { ...raw, exclude: req.exclude };
  const parsed = ts.parseJsonConfigFileContent(raw, ts.sys, root, undefined, configFile);
  // "No inputs were found" is reported as no files below, with the globs that matched nothing.
  const errors = parsed.errors.filter((d) => d.code !== 18003);
  if (errors.length) throw new ProjectConfigError(`invalid TypeScript configuration (${source}): ${formatDiagnostics(ts, errors)}`);
  const options: TS.CompilerOptions = { ...parsed.options };
  // The transpiler is invoked directly, once; a plugin entry would only matter to a ts-patch'ed compiler.
  delete options.plugins;
  return { root, source, fileNames: parsed.fileNames, options, outDir: path.join(root, ARTIFACTS_DIR) };
}

/** A configuration of scrypt-cli's defaults for `files` in `root` (a source with no project around it). */
export function standaloneConfig(ts: typeof TS, root: string, files: string[]): ProjectConfig {
  const parsed = ts.parseJsonConfigFileContent({ files, compilerOptions: { ...STANDALONE_OPTIONS, types: [] } }, ts.sys, root);
  if (parsed.errors.length) throw new ProjectConfigError(formatDiagnostics(ts, parsed.errors));
  return {
    root,
    source: 'scrypt-cli defaults',
    fileNames: parsed.fileNames,
    options: parsed.options,
    outDir: path.join(root, ARTIFACTS_DIR),
  };
}

/**
 * The project of a single contract file: the nearest folder above it with a tsconfig-scryptTS.json,
 * tsconfig.json or package.json (the file's own folder if none), compiling only that file.
 */
export function projectOfFile(file: string): ProjectRequest {
  const abs = path.resolve(file);
  for (let dir = path.dirname(abs); ; dir = path.dirname(dir)) {
    if (['tsconfig-scryptTS.json', 'tsconfig.json', 'package.json'].some((f) => existsSync(path.join(dir, f)))) {
      return { root: dir, include: [path.relative(dir, abs).split(path.sep).join('/')] };
    }
    if (path.dirname(dir) === dir) return { root: path.dirname(abs), include: [path.basename(abs)] };
  }
}
