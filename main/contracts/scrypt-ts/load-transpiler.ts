/**
 * Loads the published scrypt-ts-transpiler so that it runs offline, without ts-patch and without the native
 * sCrypt compiler.
 *
 * scrypt-cli runs the transpiler as a ts-patch "program transformer" of a patched `tsc` (tsconfig plugin
 * `{ "transform": "scrypt-ts-transpiler", "transformProgram": true, "outDir": "artifacts" }`). The only thing
 * ts-patch adds is the call `transformProgram(program, host, pluginConfig, { ts })`, so we build the Program
 * ourselves and make that call. Three details:
 * - The Program must come from the transpiler's own TypeScript (a nested ~5.3 when the project's is newer):
 *   its code compares SyntaxKind numbers, which differ between TypeScript releases.
 * - Its selector engine, @phenomnomnominal/tsquery, may be hoisted to the top-level node_modules, where it
 *   would bind another TypeScript (and then no class would ever match). While the transpiler loads, tsquery's
 *   `require('typescript')` is pointed at the transpiler's.
 * - After writing each `.scrypt` file, the transpiler hands it to the native compiler (scryptlib's
 *   `findCompiler()`, a binary downloaded at install time) to report compile errors in TypeScript terms. That
 *   binary is not there offline, so the check is replaced by nothing: Keystead's own compiler compiles every
 *   file right after and reports its errors at the sCrypt lines.
 */
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import type * as TS from 'typescript';

export type TransformProgram = (
  program: TS.Program,
  host: TS.CompilerHost,
  config: Record<string, unknown>,
  extras: { ts: typeof TS },
) => TS.Program;

export interface LoadedTranspiler {
  /** The transpiler's TypeScript: Programs handed to it must be built with this one. */
  ts: typeof TS;
  transformProgram: TransformProgram;
  /** The transpiler's package folder. */
  dir: string;
  version: string;
}

const require_ = createRequire(import.meta.url);
let loaded: LoadedTranspiler | undefined;

export class TranspilerUnavailable extends Error {}

export function loadTranspiler(): LoadedTranspiler {
  if (loaded) return loaded;
  let dir: string;
  try {
    dir = path.dirname(require_.resolve('scrypt-ts-transpiler/package.json'));
  } catch {
    throw new TranspilerUnavailable('scrypt-ts-transpiler is not installed (it is one of Keystead’s dependencies: run npm install)');
  }
  const tsPath = require_.resolve('typescript', { paths: [dir] });
  const ts = require_(tsPath) as typeof TS;
  const tsqueryDir = path.dirname(require_.resolve('@phenomnomnominal/tsquery/package.json', { paths: [dir] }));
  const M = Module as unknown as {
    _resolveFilename: (request: string, parent: { filename?: string } | undefined, ...rest: unknown[]) => string;
  };
  const resolve = M._resolveFilename;
  M._resolveFilename = function (request, parent, ...rest) {
    if (request === 'typescript' && parent?.filename?.startsWith(tsqueryDir + path.sep)) return tsPath;
    return resolve.call(this, request, parent, ...rest);
  };
  let transformProgram: TransformProgram;
  try {
    transformProgram = (require_(dir) as { default: TransformProgram }).default;
  } finally {
    M._resolveFilename = resolve;
  }
  const tsquery = require_(require_.resolve('@phenomnomnominal/tsquery', { paths: [dir] })) as { SyntaxKind: unknown };
  if (tsquery.SyntaxKind !== ts.SyntaxKind) {
    throw new TranspilerUnavailable(
      `@phenomnomnominal/tsquery was loaded earlier with another TypeScript than ${tsPath}; scrypt-ts-transpiler would find no contracts`,
    );
  }
  // The same module instance the transpiler uses (one require cache), so the replacement takes effect.
  const { Transpiler } = require_(path.join(dir, 'dist', 'transpiler.js')) as {
    Transpiler: { prototype: { checkTransformedScrypt: (result: unknown) => unknown[] } };
  };
  Transpiler.prototype.checkTransformedScrypt = () => [];
  const { version } = require_(path.join(dir, 'package.json')) as { version: string };
  loaded = { ts, transformProgram, dir, version };
  return loaded;
}
