import { posix } from 'node:path';

/**
 * `import "path";` statements of an sCrypt source: at the start of a line or after another statement (the
 * scrypt-ts transpiler writes all of a file's imports on one line). A comment that looks like one only costs a read.
 */
export const IMPORT = /(?<=^|;)\s*import\s+(["'])([^"'\r\n]+)\1/gm;

/**
 * Every file an sCrypt source imports, directly or through other imports, read with `read` and keyed as
 * the compiler asks for them: the import resolved against the importing file's folder, relative to the
 * main file's folder, with POSIX separators. A file `read` does not answer is left out (the compiler then
 * reports it where it is imported).
 */
export function scryptImportClosure(source: string, read: (relative: string) => string | null): Record<string, string> {
  const found: Record<string, string> = {};
  const pending: { text: string; dir: string }[] = [{ text: source, dir: '.' }];
  while (pending.length) {
    const { text, dir } = pending.pop() as { text: string; dir: string };
    for (const m of text.matchAll(IMPORT)) {
      const key = posix.normalize(posix.join(dir, m[2].replace(/\\/g, '/')));
      if (key in found) continue;
      const imported = read(key);
      if (imported === null) continue;
      found[key] = imported;
      pending.push({ text: imported, dir: posix.dirname(key) });
    }
  }
  return found;
}
