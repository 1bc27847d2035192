/**
 * A scrypt-ts source from outside (the Contracts view, `POST /v1/compile`) is transpiled in a scratch folder
 * that reads nothing but the source, Keystead's scrypt-ts and scrypt-ts-lib, and TypeScript's own library:
 * even without the worker's check of its imports, a source cannot read a file of the engine's disk into an
 * error message.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { transpileScryptTsSource } from '../../main/contracts/scrypt-ts/transpile-source.js';
import { tempDir } from '../helpers/tmp.js';

const SECRET = 'hunter2-' + 'x'.repeat(8);

function secretFiles() {
  const dir = tempDir('keystead-secret-');
  writeFileSync(path.join(dir, 'secret.ts'), `export const k = '${SECRET}' as const;\n`);
  writeFileSync(path.join(dir, 'secret.d.ts'), `export declare const k: '${SECRET}';\n`);
  return dir;
}

const contract = (importLine: string, probe = 'const probe: 1 = k') => `import { assert, method, prop, SmartContract } from 'scrypt-ts'
${importLine}

export class Leak extends SmartContract {
  @prop()
  n: bigint

  constructor(n: bigint) {
    super(...arguments)
    this.n = n
  }

  @method()
  public f(x: bigint) {
    ${probe}
    assert(x == this.n)
  }
}
`;

describe('scrypt-ts sources from outside read no other file', () => {
  for (const [name, line] of [
    ['an absolute path', (dir: string) => `import { k } from '${path.join(dir, 'secret')}'`],
    [
      'a relative path out of the scratch folder',
      (dir: string) => `import { k } from '${path.relative('/tmp/x', path.join(dir, 'secret'))}'`,
    ],
    [
      'a path through a package',
      (dir: string) => `import { k } from 'scrypt-ts/${path.relative('/', path.join(dir, 'secret')).replace(/^/, '../'.repeat(12))}'`,
    ],
    [
      'a triple-slash reference',
      (dir: string) =>
        `/// <reference path="${path.join(dir, 'secret.d.ts')}" />\ndeclare const k: typeof import('${path.join(dir, 'secret')}').k`,
    ],
  ] as const) {
    it(`${name}: the file is not read, and its text is in no error`, () => {
      const r = transpileScryptTsSource(contract(line(secretFiles())), 'Leak.ts');
      assert.equal(r.scrypt, null);
      assert.ok(r.errors.length > 0);
      assert.ok(!JSON.stringify(r.errors).includes(SECRET), JSON.stringify(r.errors));
    });
  }

  it('the two packages still resolve', () => {
    const r = transpileScryptTsSource(contract('', ''), 'Fine.ts');
    assert.deepEqual(r.errors, []);
    assert.match(r.scrypt ?? '', /contract Leak/);
  });
});
