import { basename, posix } from 'node:path';
import type { MessagePort } from 'node:worker_threads';
import { compileScrypt, type CompileResult } from './scrypt/compile.js';
import type { Diagnostic } from './scrypt/diagnostics.js';
import { loadTranspiler } from './scrypt-ts/load-transpiler.js';
import { transpileScryptTsSource } from './scrypt-ts/transpile-source.js';
import { transpileSolidity, type TranspileResult } from './solidity/transpile.js';

/** One compile or transpile, as the engine's worker pool hands it over. */
export type ToolTask = (
  | { kind: 'compile'; source: string; file: string; optimize: boolean; imports: Record<string, string> }
  | { kind: 'transpile'; source: string; file: string }
  | { kind: 'scrypt-ts'; source: string; file: string; optimize: boolean }
) & {
  /** Told the moment the work starts, so the time limit counts the work, not waiting in the queue. */
  started: MessagePort;
};

/** A scrypt-ts compile: the compile's result, and what the transpiler wrote (null when it failed). */
export interface ScryptTsCompileResult extends CompileResult {
  /** The generated sCrypt and the `.transformer.json` content, as scrypt-cli writes them beside the artifact. */
  transpiled: { file: string; scrypt: string; transformer: Record<string, unknown> } | null;
}

/** The worker's entry: untrusted source is compiled or transpiled here, off the engine's event loop. */
export default function runInWorker(task: ToolTask): CompileResult | TranspileResult | ScryptTsCompileResult {
  task.started.postMessage('started');
  task.started.close();
  if (task.kind === 'transpile') return transpileSolidity(task.source, { file: task.file });
  if (task.kind === 'scrypt-ts') return withinAnswerLimit(compileScryptTs(task.source, task.file, task.optimize), task.file);
  return withinAnswerLimit(compileWithImports(task.source, task.file, task.optimize, task.imports), task.file);
}

/**
 * Characters of ASM and hex (twice: the artifact holds it again) one answer may carry: 64 MiB. A source of a
 * few lines can unroll into a script of megabytes whose ASM is several times larger still (a 150-byte loop made
 * a 100 MB answer), built, copied and held for a client that may never read it. Published contracts are far
 * below it: scrypt-ts-lib's secp256k1 arithmetic, a 4.2 MB script, answers 48.9 MB. The CLI has no such limit.
 */
export const MAX_ANSWER_CHARS = 64 * 1024 * 1024;

export function withinAnswerLimit<R extends CompileResult>(r: R, file: string, maxChars = MAX_ANSWER_CHARS): R {
  if (r.asm === null || r.hex === null) return r;
  const size = r.asm.length + 2 * r.hex.length;
  if (size <= maxChars) return r;
  const mb = (n: number) => (n / (1024 * 1024)).toFixed(1);
  const message = `the compiled contract's answer (a ${mb(r.hex.length / 2)} MB locking script, its ASM and artifact) would be ${mb(size)} MB; the API returns at most ${mb(maxChars)} MB. Compile it with the CLI (keystead compile), or make the script smaller (fewer or shorter loops).`;
  return { ...r, artifact: null, asm: null, hex: null, diagnostics: [{ file, line: 1, column: 1, message, severity: 'error' }] };
}

function compileWithImports(source: string, file: string, optimize: boolean, imports: Record<string, string>): CompileResult {
  // Imported files come with the request, keyed by their path relative to the source.
  const byPath = new Map(Object.entries(imports).map(([p, text]) => [posix.normalize(p.replace(/\\/g, '/')), text]));
  return compileScrypt(source, { file, optimize, readImport: (p) => byPath.get(p) ?? null });
}

/**
 * scrypt-ts → sCrypt → script, both in this worker: the TypeScript is as untrusted as any sCrypt. Transpile
 * and TypeScript errors are at positions of the .ts source; errors of the generated sCrypt (which should not
 * happen) are at positions of `<Name>.scrypt`, which comes back beside them.
 */
function compileScryptTs(source: string, file: string, optimize: boolean): ScryptTsCompileResult {
  const refused = foreignFiles(source, file);
  if (refused.length) return { artifact: null, asm: null, hex: null, diagnostics: refused, transpiled: null };
  const t = transpileScryptTsSource(source, file);
  if (t.scrypt === null) {
    const diagnostics = t.errors.map((e) => ({ ...e, severity: 'error' as const }));
    return { artifact: null, asm: null, hex: null, diagnostics, transpiled: null };
  }
  // Named as scrypt-cli names it: the .ts file's name, .scrypt for .ts.
  const scryptFile =
    basename(file)
      .replace(/[^\w.-]/g, '_')
      .replace(/\.ts$/i, '') + '.scrypt';
  const r = compileWithImports(t.scrypt, scryptFile, optimize, t.imports);
  return { ...r, transpiled: { file: scryptFile, scrypt: t.scrypt, transformer: t.transformer ?? {} } };
}

/** What a scrypt-ts source may import: the two packages Keystead has, by their exact names. */
const PACKAGES = new Set(['scrypt-ts', 'scrypt-ts-lib']);

/**
 * TypeScript reads whatever a source imports or references, and its errors quote what it read (a literal
 * type is its text): a source sent to the engine could read the engine's disk. Only `scrypt-ts` and
 * `scrypt-ts-lib` are let in, found the way TypeScript finds them (imports and exports, `import()`,
 * `require`, import types, `/// <reference>`), before any file is read.
 */
function foreignFiles(source: string, file: string): Diagnostic[] {
  const { ts } = loadTranspiler();
  const pre = ts.preProcessFile(source, true, true);
  const at = (pos: number, message: string): Diagnostic => {
    const before = source.slice(0, pos).split('\n');
    return { file, line: before.length, column: before[before.length - 1].length + 1, message, severity: 'error' };
  };
  return [
    ...pre.importedFiles
      .filter((f) => !PACKAGES.has(f.fileName))
      .map((f) => at(f.pos, `cannot import '${f.fileName}': a scrypt-ts source here imports from 'scrypt-ts' and 'scrypt-ts-lib' only`)),
    ...[...pre.referencedFiles, ...pre.typeReferenceDirectives].map((f) =>
      at(f.pos, `cannot reference '${f.fileName}': a scrypt-ts source here imports from 'scrypt-ts' and 'scrypt-ts-lib' only`),
    ),
  ].sort((a, b) => a.line - b.line || a.column - b.column);
}
