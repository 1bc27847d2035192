import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { transpileSolidity } from '../main/contracts/solidity/transpile.js';

/**
 * The transpiler's expected output, as sol2scrypt's golden tests keep it: for each
 * `test/fixtures/solidity/pass/*.sol` the sCrypt (`.scrypt`), for each `fail/*.sol` its logs (`.json`,
 * pretty-printed with four spaces). `npm run golden:solidity` rewrites them; review the diff, because the
 * unit test compares the transpiler with these files.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SOLIDITY_FIXTURES = path.join(root, 'test', 'fixtures', 'solidity');

/** Positions are reported against the fixture's path relative to the fixtures folder, so they do not depend on the checkout. */
export const fixtureFile = (kind: 'pass' | 'fail', file: string) => `${kind}/${file}`;

export function logsText(logs: unknown[]): string {
  return JSON.stringify(logs, null, 4);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  for (const kind of ['pass', 'fail'] as const) {
    const dir = path.join(SOLIDITY_FIXTURES, kind);
    for (const file of readdirSync(dir)
      .filter((f) => f.endsWith('.sol'))
      .sort()) {
      const r = transpileSolidity(readFileSync(path.join(dir, file), 'utf8'), { file: fixtureFile(kind, file) });
      if (kind === 'pass') {
        const errors = r.logs.filter((l) => l.type === 'Error');
        if (errors.length) throw new Error(`${file} should transpile without errors: ${logsText(errors)}`);
        writeFileSync(path.join(dir, file.replace(/\.sol$/, '.scrypt')), r.scrypt);
        if (r.logs.length) writeFileSync(path.join(dir, file.replace(/\.sol$/, '.json')), logsText(r.logs));
      } else {
        writeFileSync(path.join(dir, file.replace(/\.sol$/, '.json')), logsText(r.logs));
      }
    }
  }
  process.stdout.write('wrote test/fixtures/solidity goldens\n');
}
