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
 * And one repair: an ordinary exception the transpiler throws on a node becomes a transpile error at that node
 * (see `positionInternalErrors`), rather than ending the whole transpile with a stack trace.
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
    Transpiler: { prototype: TranspilerMethods };
  };
  Transpiler.prototype.checkTransformedScrypt = () => [];
  const { version } = require_(path.join(dir, 'package.json')) as { version: string };
  const { TranspileError } = require_(path.join(dir, 'dist', 'types.js')) as { TranspileError: TranspileErrorClass };
  positionInternalErrors(Transpiler.prototype, TranspileError, version);
  loaded = { ts, transformProgram, dir, version };
  return loaded;
}

type Transform = (this: TranspilerMethods, node: TS.Node, ...rest: unknown[]) => unknown;

interface TranspilerMethods {
  checkTransformedScrypt: (result: unknown) => unknown[];
  getRange: (node: TS.Node) => unknown;
  [transform: string]: unknown;
}

type TranspileErrorClass = new (message: string, srcRange: unknown) => object;

/** The transpiler's per-node steps, outermost last: an error is given the position of the innermost one. */
const TRANSFORMS = ['transformExpression', 'transformStatement', 'transformPropertyDeclaration', 'transformMethodDeclaration'];

/**
 * The transpiler reports what it cannot transpile as a `TranspileError` at the node, and skips the node. Some
 * valid sources make it throw an ordinary exception instead (scrypt-ts-transpiler 1.2.29 on
 * `new VarIntReader(b)`, a class of scrypt-ts that it takes for a library and reads the `extends` of), which
 * ends the whole transpile with no position: scrypt-cli prints a stack trace, and a compile on the engine
 * fails without saying where. Such an exception is turned into a `TranspileError` at the node being
 * transformed, so it is reported like any other transpile error, at its line and column.
 */
function positionInternalErrors(proto: TranspilerMethods, TranspileError: TranspileErrorClass, version: string): void {
  for (const name of TRANSFORMS) {
    const original = proto[name];
    if (typeof original !== 'function') continue;
    proto[name] = function (this: TranspilerMethods, node: TS.Node, ...rest: unknown[]) {
      try {
        return (original as Transform).call(this, node, ...rest);
      } catch (err) {
        if (err instanceof TranspileError || !(err instanceof Error) || !node) throw err;
        const message = `scrypt-ts-transpiler ${version} cannot transpile this: it failed with ${err.name}: ${err.message}`;
        throw new TranspileError(message, this.getRange(node));
      }
    };
  }
}
