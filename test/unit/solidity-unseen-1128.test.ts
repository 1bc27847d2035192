import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileScrypt } from '../../main/contracts/scrypt/compile.js';
import { transpileSolidity } from '../../main/contracts/solidity/transpile.js';

/** Bugs found by transpiling Solidity not in our fixtures (sol2scrypt goldens and small contracts); each failed before its fix. */
function transpilesAndCompiles(source: string): string {
  const r = transpileSolidity(source, { file: 'T.sol' });
  assert.deepEqual(
    r.logs.filter((l) => l.type === 'Error'),
    [],
    'no errors',
  );
  const c = compileScrypt(r.scrypt!, { file: 'T.scrypt' });
  assert.deepEqual(
    c.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.line}:${d.column} ${d.message}`),
    [],
    `compiles:\n${r.scrypt}`,
  );
  return r.scrypt!;
}

describe('Solidity → sCrypt: unseen programs (1128)', () => {
  it('every `$` in an identifier becomes `_`, not only the first', () => {
    const s = transpilesAndCompiles('contract D {\n  uint a$$b;\n  function f(uint x) external { a$$b = x; }\n}\n');
    assert.ok(!s.includes('$'), s);
  });

  it('a user parameter named `retVal` does not clash with the generated return-value parameter', () => {
    transpilesAndCompiles('contract N {\n  uint s;\n  function f(uint retVal) external returns (uint) { s = retVal; return retVal; }\n}\n');
  });

  it('`a$b` and `a_b` stay two variables (or the clash is reported), never one duplicated sCrypt name', () => {
    const r = transpileSolidity('contract D {\n  uint a$b;\n  uint a_b;\n  function f(uint x) external { a$b = x; a_b = x; }\n}\n', {
      file: 'T.sol',
    });
    if (r.logs.some((l) => l.type === 'Error')) return;
    const c = compileScrypt(r.scrypt!, { file: 'T.scrypt' });
    assert.deepEqual(
      c.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message),
      [],
      r.scrypt,
    );
  });
});
