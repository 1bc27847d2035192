import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { buildContractClass } from 'scryptlib';
import { compileScrypt } from '../../main/contracts/scrypt/compile.js';
import { ROOT } from '../helpers/headless.js';
import { explainSpend } from '../helpers/scrypt-spend.js';
import type { CorpusCase } from '../fixtures/scrypt/corpus-case.js';

/**
 * The project's corpus: every `test/fixtures/scrypt/*.scrypt` has a `<name>.cases.ts` beside it. Each
 * contract must compile without diagnostics, load in scryptlib, and every listed call must be accepted
 * or refused by @bsv/sdk's `Spend` exactly as its case says, both as compiled and with -O.
 */
const DIR = path.join(ROOT, 'test', 'fixtures', 'scrypt');
const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.scrypt'))
  .sort();

describe('sCrypt corpus: compile, load in scryptlib, spend under @bsv/sdk Spend', () => {
  it('has at least 40 contracts, each with spend cases', () => {
    assert.ok(files.length >= 40, `${files.length} contracts`);
    for (const f of files) assert.ok(readdirSync(DIR).includes(f.replace(/\.scrypt$/, '.cases.ts')), `${f} has a .cases.ts`);
  });

  for (const file of files) {
    it(file, async () => {
      const spec = (await import(pathToFileURL(path.join(DIR, file.replace(/\.scrypt$/, '.cases.ts'))).href)).default as CorpusCase;
      const source = readFileSync(path.join(DIR, file), 'utf8');
      for (const optimize of [false, true]) {
        const r = compileScrypt(source, { file, optimize });
        assert.deepEqual(r.diagnostics, [], `${file} compiles${optimize ? ' with -O' : ''}`);
        if (!optimize && spec.golden) spec.golden(r);
        const Contract = buildContractClass(r.artifact as never);
        for (const call of spec.calls) {
          const instance = new Contract(...(spec.construct() as never[])) as Record<string, any>;
          instance.replaceAsmVars?.(spec.asmVars ?? {});
          spec.prepare?.(instance);
          call.prepare?.(instance);
          const tx = typeof call.tx === 'function' ? call.tx(instance) : call.tx;
          const outcome = explainSpend(
            instance.lockingScript.toHex(),
            (ctx) => instance[call.method](...call.args(ctx, instance)).unlockingScript.toHex(),
            tx,
          );
          assert.equal(
            outcome === true,
            call.ok,
            `${file}${optimize ? ' -O' : ''}: ${call.name} should ${call.ok ? 'pass' : 'fail'} (${outcome})`,
          );
        }
      }
    });
  }
});
