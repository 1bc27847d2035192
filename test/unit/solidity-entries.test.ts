import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileScrypt } from '../../main/contracts/scrypt/compile.js';
import { transpileSolidity } from '../../main/contracts/solidity/transpile.js';

/**
 * A mapping access becomes one value parameter per key *expression* (sol2scrypt's rewrite): sound only while
 * an expression names one entry. Each case below was transpiled to code that ran differently from the
 * Solidity (a second entry read as the first, a self-transfer that minted, a return value nobody checked).
 */
function transpiled(body: string, state = 'mapping(address => uint) bal;\n  mapping(uint => uint) m;') {
  return transpileSolidity(`contract T {\n  ${state}\n  ${body}\n}\n`, { file: 'T.sol' });
}

function compiles(scrypt: string): string {
  const c = compileScrypt(scrypt, { file: 'T.scrypt' });
  assert.deepEqual(
    c.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.line}:${d.column} ${d.message}`),
    [],
    `compiles:\n${scrypt}`,
  );
  return scrypt;
}

const errors = (r: ReturnType<typeof transpileSolidity>) => r.logs.filter((l) => l.type === 'Error').map((l) => l.message);

describe('Solidity → sCrypt: one entry per key expression', () => {
  it('refuses an access after its key changed, however it changed', () => {
    for (const change of ['k = k + 1;', 'k++;', '--k;', 'k += 2;']) {
      const r = transpiled(`function g(uint k) external { m[k] += 1; ${change} m[k] += 1; }`);
      assert.deepEqual(
        errors(r),
        [
          'unsupported mapping access after its key `k` changed: `m[k]` is another entry than where it was first used; use a separate variable for the new key',
        ],
        change,
      );
    }
    const addr = transpiled('function g(address a, address b) external { bal[a] = 1; a = b; bal[a] = 2; }');
    assert.equal(errors(addr).length, 1);
    // A key of a state variable, changed in between.
    const prop = transpileSolidity(
      'contract T {\n  address owner;\n  mapping(address => uint) bal;\n  function g(address n) external { bal[owner] += 1; owner = n; bal[owner] += 1; }\n}\n',
      { file: 'T.sol' },
    );
    assert.match(errors(prop).join(), /after its key `owner` changed/);
  });

  it('refuses an access in a loop that changes its key: each turn is another entry', () => {
    const walk = transpileSolidity(
      'contract T {\n  mapping(address => address) next;\n  uint constant __LoopCount__0 = 5;\n  function follow(address to) external {\n    while (next[to] != address(0)) { to = next[to]; }\n  }\n}\n',
      { file: 'T.sol' },
    );
    assert.deepEqual(errors(walk), [
      'unsupported mapping access in a loop that changes its key `to`: `next[to]` would be another entry on each turn',
      'unsupported mapping access in a loop that changes its key `to`: `next[to]` would be another entry on each turn',
    ]);
    const counting = transpiled(
      'uint constant __LoopCount__0 = 3;\n  function g(uint k) external { for (uint i = 0; i < 3; i++) { m[k] += 1; k++; } }',
    );
    assert.match(errors(counting).join(), /in a loop that changes its key `k`/);
  });

  it('keeps what is sound: a key changed before its first use, or after its last', () => {
    const before = transpiled('function g(uint k) external { k = k * 2; m[k] = 1; }');
    assert.deepEqual(before.logs, []);
    assert.match(compiles(before.scrypt), /k = k \* 2;\n {4}int m_k_key = k;/);
    const after = transpiled('function g(uint k) external { m[k] += 1; k = 7; }');
    assert.deepEqual(after.logs, []);
    compiles(after.scrypt);
    // A loop that leaves the key alone.
    const loop = transpiled(
      'uint constant __LoopCount__0 = 3;\n  function g(uint k) external { for (uint i = 0; i < 3; i++) { m[k] += i; } }',
    );
    assert.deepEqual(errors(loop), []);
    compiles(loop.scrypt);
  });

  it('refuses a call where two written entries of one map are one entry (a transfer to oneself would mint)', () => {
    const r = transpiled(
      'function transfer(address to, uint v) external { require(bal[msg.sender] >= v); bal[msg.sender] -= v; bal[to] += v; }',
    );
    assert.deepEqual(r.logs, []);
    const s = compiles(r.scrypt);
    assert.match(s, /require\(msgSender != to\);\n {4}require\(this\.bal\.set\(\{msgSender, i0\}, bal_msgSender\)\);/);
    // Nested keys are compared field by field; a key kept in a local (its name changes later) by its fields.
    const nested = transpiled(
      'function g(address a, uint k) external { al[a][k] += 1; al[msg.sender][5] = 2; k = 3; }',
      'mapping(address => mapping(uint => uint)) al;',
    );
    assert.deepEqual(nested.logs, []);
    assert.match(compiles(nested.scrypt), /require\(al_a_k_key\.key0 != msgSender \|\| al_a_k_key\.key1 != 5\);/);
  });

  it('needs no such check for two literal keys, for entries only read, or for entries of different maps', () => {
    const lits = transpiled('function g() external { m[1] = 1; m[2] = 2; }');
    assert.doesNotMatch(compiles(lits.scrypt), /!=/);
    const reads = transpiled('function g(uint a, uint b) external view returns (uint) { return m[a] + m[b]; }');
    assert.doesNotMatch(compiles(reads.scrypt), /a != b/);
    const maps = transpiled('mapping(uint => uint) n;\n  function g(uint a, uint b) external { m[a] = 1; n[b] = 2; }');
    assert.doesNotMatch(compiles(maps.scrypt), /a != b/);
  });
});

describe('Solidity → sCrypt: a public function that ends without a return', () => {
  it("checks the caller's retVal against the type's default, as Solidity returns it", () => {
    const r = transpiled(
      'uint s;\n  function f(uint x) public returns (uint) { s = x; }\n  function b(uint x) external returns (bool) { s = x; }\n  function a(uint x) external returns (address) { s = x; }',
      '',
    );
    assert.deepEqual(r.logs, []);
    const s = compiles(r.scrypt);
    assert.match(s, /this\.s = x;\n {4}require\(0 == retVal\);/);
    assert.match(s, /require\(false == retVal\);/);
    assert.match(s, /require\(Ripemd160\(b'0{40}'\) == retVal\);/);
  });
});
