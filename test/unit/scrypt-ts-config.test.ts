import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { loadTranspiler } from '../../main/contracts/scrypt-ts/load-transpiler.js';
import { readProjectConfig } from '../../main/contracts/scrypt-ts/project.js';
import { tempDir } from '../helpers/tmp.js';

/** A project with only a tsconfig.json: the configuration derived from it as scrypt-cli's compile step derives it. */
function project(compilerOptions: Record<string, unknown>): string {
  const root = tempDir();
  writeFileSync(path.join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions }));
  mkdirSync(path.join(root, 'src', 'contracts'), { recursive: true });
  writeFileSync(path.join(root, 'src', 'contracts', 'demo.ts'), 'export const x = 1;\n');
  return root;
}

describe('scrypt-ts projects: the configuration scrypt-cli derives from tsconfig.json', () => {
  it('adds ignoreDeprecations "5.0" when tsconfig.json names an option TypeScript 5 deprecates, as scrypt-cli does', () => {
    const { ts } = loadTranspiler();
    for (const option of ['suppressImplicitAnyIndexErrors', 'importsNotUsedAsValues', 'keyofStringsOnly']) {
      const value = option === 'importsNotUsedAsValues' ? 'remove' : true;
      const config = readProjectConfig(ts, { root: project({ target: 'ES2020', [option]: value }) });
      assert.equal(config.options.ignoreDeprecations, '5.0', option);
      assert.equal(config.fileNames.length, 1);
    }
  });

  it('leaves it out otherwise', () => {
    const { ts } = loadTranspiler();
    const config = readProjectConfig(ts, { root: project({ target: 'ES2020', strict: true }) });
    assert.equal(config.options.ignoreDeprecations, undefined);
    assert.equal(config.options.experimentalDecorators, true, "scrypt-cli's own additions are there");
  });
});
