import assert from 'node:assert/strict';
import { buildContractClass } from 'scryptlib';
import { compileScrypt, type CompileOptions } from '../../main/contracts/scrypt/compile.js';
import { spends } from './scrypt-spend.js';

/** Compiles `source`, failing the test with its diagnostics when it does not compile. */
export function compiledScrypt(source: string, opts: CompileOptions = {}) {
  const r = compileScrypt(source, opts);
  assert.ok(r.artifact, JSON.stringify(r.diagnostics));
  return r;
}

/**
 * Compiles `source` plain and with -O, and runs `method` with each case's arguments through @bsv/sdk's
 * Spend (scryptlib builds the scripts from the artifact): each must pass or fail as the case says.
 */
export function runsAsExpected(
  source: string,
  method: string,
  cases: [unknown[], boolean][],
  ctorArgs: unknown[] = [],
  opts: CompileOptions = {},
): void {
  for (const optimize of [false, true]) {
    const C = buildContractClass(compiledScrypt(source, { ...opts, optimize }).artifact as never);
    const c = new C(...(ctorArgs as never[])) as any;
    cases.forEach(([args, ok], n) =>
      assert.equal(
        spends(c.lockingScript.toHex(), () => c[method](...args).unlockingScript.toHex()),
        ok,
        `${method} case ${n + 1} (${args.map(String).join(', ')}), -O ${optimize}`,
      ),
    );
  }
}
