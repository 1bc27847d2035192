import { closeSync, constants, fstatSync, openSync, readdirSync, readSync, realpathSync } from 'node:fs';
import path from 'node:path';

/**
 * What the offline compiler may read from disk. A contract's `import` lines are the author's words: the
 * compiler reads only regular files below the entry file's folder (or a folder the user names with
 * `--import-root`), through symbolic links only where they stay inside, and never more than a source's
 * size limit, so `import "/dev/zero";` or `import "../../etc/shadow";` cannot exhaust memory or leak a file.
 */
export const MAX_SOURCE_FILE_BYTES = 1_000_000;

export class FileRefused extends Error {}

/** A regular file's text, at most `max` bytes; anything else (a device, a FIFO, a folder, too large) is refused. */
export function readBoundedText(file: string, max = MAX_SOURCE_FILE_BYTES): string {
  // Non-blocking, so opening a FIFO someone named as an import cannot hang the compiler.
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new FileRefused(`${file} is not a regular file`);
    if (st.size > max) throw new FileRefused(`${file} is ${st.size} bytes; ${max} at most`);
    // Read one byte past the limit: a file that grows while it is read is refused too.
    const buf = Buffer.alloc(Math.min(st.size, max) + 1);
    let got = 0;
    for (let n = 1; n > 0 && got < buf.length; got += n) n = readSync(fd, buf, got, buf.length - got, null);
    if (got > max) throw new FileRefused(`${file} is larger than ${max} bytes`);
    return buf.subarray(0, got).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

const inside = (root: string, target: string) => {
  const rel = path.relative(root, target);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/**
 * The reader the compiler calls for each `import`: relative to the importing entry file's folder, resolved
 * through symbolic links, and answered only inside the allowed roots. `refusals` collects why an import
 * was not read, so the CLI can say so beside the compiler's "cannot find" error.
 */
export function importReader(entryFile: string, extraRoots: readonly string[], refusals: string[]): (p: string) => string | null {
  const roots = [path.dirname(entryFile), ...extraRoots].map((r) => {
    try {
      return realpathSync(r);
    } catch {
      return path.resolve(r);
    }
  });
  const base = path.dirname(entryFile);
  const readInside = (target: string): string | null => {
    let real: string;
    try {
      real = realpathSync(target);
    } catch {
      return null;
    }
    if (!roots.some((r) => inside(r, real))) {
      refusals.push(`${target} is outside the folders imports may come from (${roots.join(', ')}); name its folder with --import-root`);
      return null;
    }
    try {
      return readBoundedText(real);
    } catch (err) {
      refusals.push(err instanceof FileRefused ? err.message : `${target}: ${(err as NodeJS.ErrnoException).code ?? err}`);
      return null;
    }
  };
  return (p: string) => {
    const target = path.resolve(base, p);
    const text = readInside(target);
    if (text !== null) return text;
    // Contracts written on case-insensitive file systems import "Util.scrypt" for util.scrypt.
    try {
      const match = readdirSync(path.dirname(target)).find(
        (name) => name.toLowerCase() === path.basename(target).toLowerCase() && name !== path.basename(target),
      );
      return match ? readInside(path.join(path.dirname(target), match)) : null;
    } catch {
      return null;
    }
  };
}
