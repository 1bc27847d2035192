/**
 * One scrypt-ts source, as the Contracts view and `POST /v1/compile` hand it over: transpiled to sCrypt in a
 * scratch folder with Keystead's own scrypt-ts, scrypt-ts-lib and transpiler, with the sCrypt files it
 * imports from those packages, ready for the compiler. Nothing of the caller's touches the disk but the
 * source itself, in a private temporary folder removed afterwards.
 */
import { closeSync, constants, fstatSync, mkdtempSync, openSync, readSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path, { posix } from 'node:path';
import { scryptImportClosure } from './imports.js';
import { loadTranspiler } from './load-transpiler.js';
import { standaloneConfig } from './project.js';
import { transpileProject, type TsDiagnostic } from './transpile.js';

export interface SourceTranspile {
  /** The sCrypt the transpiler wrote for the source, or null when it failed. */
  scrypt: string | null;
  /** Its errors, and TypeScript's, at positions of the source (named `file`). */
  errors: TsDiagnostic[];
  /** The sCrypt files it imports (scrypt-ts-lib's), keyed as the compiler asks for them. */
  imports: Record<string, string>;
  /** The transformer output scrypt-cli writes beside the artifact (`<Name>.transformer.json`). */
  transformer: Record<string, unknown> | null;
}

const MAX_IMPORT_BYTES = 1_000_000;
const require_ = createRequire(import.meta.url);

/** The folder whose node_modules hold Keystead's scrypt-ts (and scrypt-ts-lib, when installed). */
function packagesHome(): string {
  return path.dirname(path.dirname(path.dirname(require_.resolve('scrypt-ts/package.json'))));
}

/** A `.scrypt` file of a package, read only below `home`'s node_modules, regular and bounded. */
function packageReader(base: string, home: string): (relative: string) => string | null {
  const modules = realpathSync(path.join(home, 'node_modules'));
  return (relative) => {
    if (!relative.endsWith('.scrypt')) return null;
    let real: string;
    try {
      real = realpathSync(path.resolve(base, relative));
    } catch {
      return null;
    }
    const rel = path.relative(modules, real);
    if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
    const fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const st = fstatSync(fd);
      if (!st.isFile() || st.size > MAX_IMPORT_BYTES) return null;
      const buf = Buffer.alloc(st.size);
      let got = 0;
      for (let n = 1; n > 0 && got < buf.length; got += n) n = readSync(fd, buf, got, buf.length - got, null);
      return buf.subarray(0, got).toString('utf8');
    } finally {
      closeSync(fd);
    }
  };
}

/**
 * The transpiler writes imports of packages as paths from the scratch folder to Keystead's node_modules
 * (`../../../opt/keystead/node_modules/…`). They are rewritten as `node_modules/<package>/…`, so the sCrypt
 * shown and the artifact name neither the scratch folder nor where Keystead is installed.
 */
function fromHome(scrypt: string, found: Record<string, string>, dir: string, home: string) {
  const rekey = (key: string) => path.relative(home, path.resolve(dir, key)).split(path.sep).join('/');
  const imports = Object.fromEntries(Object.entries(found).map(([key, text]) => [rekey(key), text]));
  const rewritten = scrypt.replace(/(?<=^|;)(\s*import\s+)(["'])([^"'\r\n]+)\2/gm, (line, start: string, q: string, target: string) =>
    target in found || posix.normalize(target) in found ? `${start}${q}${rekey(posix.normalize(target))}${q}` : line,
  );
  return { scrypt: rewritten, imports };
}

/** `file` names the source in errors (its extension is `.ts`); the contract's class is the file's last one. */
export function transpileScryptTsSource(source: string, file: string): SourceTranspile {
  const { ts } = loadTranspiler();
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'keystead-scrypt-ts-'));
  try {
    const base = path
      .basename(file)
      .replace(/[^\w.-]/g, '_')
      .replace(/(\.ts)?$/i, '.ts');
    const entry = path.join(scratch, base);
    writeFileSync(entry, source, { mode: 0o600 });
    const home = packagesHome();
    const outcome = transpileProject(standaloneConfig(ts, scratch, [entry]), { packagesFrom: home });
    const named = (d: TsDiagnostic): TsDiagnostic => ({ ...d, file: d.file === entry || d.file === '' ? file : path.basename(d.file) });
    if (outcome.typeErrors.length) return { scrypt: null, errors: outcome.typeErrors.map(named), imports: {}, transformer: null };
    const unit = outcome.units.find((u) => path.basename(u.scryptFile, '.scrypt') === path.basename(base, '.ts'));
    if (!unit) {
      const message = 'no smart contract or library found: export a class that extends SmartContract or SmartContractLib';
      return { scrypt: null, errors: [{ file, line: 1, column: 1, message }], imports: {}, transformer: null };
    }
    const transformer = JSON.parse(outcome.files.get(unit.transformerFile) ?? 'null') as Record<string, unknown> | null;
    const scrypt = outcome.files.get(unit.scryptFile) ?? null;
    if (!unit.success || scrypt === null) return { scrypt: null, errors: unit.errors.map(named), imports: {}, transformer };
    const found = scryptImportClosure(scrypt, packageReader(path.dirname(unit.scryptFile), home));
    return { ...fromHome(scrypt, found, path.dirname(unit.scryptFile), home), errors: [], transformer };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
