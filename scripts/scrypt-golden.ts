import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileScrypt } from '../main/contracts/scrypt/compile.js';

/**
 * The compiler's output for every corpus contract and every negative fixture, as fingerprints: the
 * script hex (plain and -O) and the whole artifact, and the diagnostics of each program that must fail.
 * `npm run golden:scrypt` rewrites test/fixtures/scrypt-golden.json; a test compares the compiler with it,
 * so a change in emitted bytes is always deliberate.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sha = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 24);

export function fingerprints(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const corpus = path.join(root, 'test', 'fixtures', 'scrypt');
  for (const file of readdirSync(corpus)
    .filter((f) => f.endsWith('.scrypt'))
    .sort()) {
    const source = readFileSync(path.join(corpus, file), 'utf8');
    const plain = compileScrypt(source, { file });
    const opt = compileScrypt(source, { file, optimize: true });
    out[file] = {
      hex: sha(plain.hex ?? ''),
      hexOpt: sha(opt.hex ?? ''),
      artifact: sha(JSON.stringify(plain.artifact)),
      artifactOpt: sha(JSON.stringify(opt.artifact)),
      size: (plain.hex ?? '').length / 2,
    };
  }
  const errors = path.join(root, 'test', 'fixtures', 'scrypt-errors');
  for (const dir of readdirSync(errors).sort()) {
    for (const file of readdirSync(path.join(errors, dir))
      .filter((f) => f.endsWith('.scrypt'))
      .sort()) {
      const r = compileScrypt(readFileSync(path.join(errors, dir, file), 'utf8'), { file });
      out[`errors/${dir}/${file}`] = r.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`);
    }
  }
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  writeFileSync(path.join(root, 'test', 'fixtures', 'scrypt-golden.json'), `${JSON.stringify(fingerprints(), null, 1)}\n`);
  console.log('wrote test/fixtures/scrypt-golden.json');
}
