import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root: the nearest folder above this module with Keystead's package.json (works from source and dist). */
export function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string };
      if (pkg.name === 'keystead') return dir;
    } catch {
      /* keep looking */
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('Cannot find Keystead package.json above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

export function appVersion(): string {
  return (JSON.parse(readFileSync(path.join(projectRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
