import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { compileScrypt } from '../../main/contracts/scrypt/compile.js';
import { transpileSolidity } from '../../main/contracts/solidity/transpile.js';
import { fixtureFile, logsText, SOLIDITY_FIXTURES } from '../../scripts/solidity-golden.js';

/**
 * The transpiler against its corpus: each `pass/*.sol` gives exactly its golden `.scrypt` (and warnings
 * in `.json` if any), and that sCrypt compiles with our compiler, plain and -O; each `fail/*.sol` gives
 * exactly its golden logs. Goldens are rewritten by `npm run golden:solidity` and reviewed in the diff.
 */
const dir = (kind: 'pass' | 'fail') => path.join(SOLIDITY_FIXTURES, kind);
const list = (kind: 'pass' | 'fail') =>
  readdirSync(dir(kind))
    .filter((f) => f.endsWith('.sol'))
    .sort();
const read = (kind: 'pass' | 'fail', file: string) => readFileSync(path.join(dir(kind), file), 'utf8');
const transpile = (source: string) => transpileSolidity(source, { file: 'T.sol' });

/** The sCrypt of a program that must transpile without errors. */
function ok(source: string): string {
  const r = transpile(source);
  assert.deepEqual(
    r.logs.filter((l) => l.type === 'Error'),
    [],
    'no errors',
  );
  return r.scrypt;
}

function compiles(scrypt: string, what: string): void {
  for (const optimize of [false, true]) {
    const c = compileScrypt(scrypt, { file: 'T.scrypt', optimize });
    assert.deepEqual(
      c.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.line}:${d.column} ${d.message}`),
      [],
      `${what} compiles${optimize ? ' with -O' : ''}:\n${scrypt}`,
    );
  }
}

describe('Solidity → sCrypt: the corpus', () => {
  it('has at least 30 programs that transpile and compile, and a corpus of unsupported constructs', () => {
    assert.ok(list('pass').length >= 30, `${list('pass').length} programs`);
    assert.ok(list('fail').length >= 8, `${list('fail').length} failing programs`);
  });

  for (const file of list('pass')) {
    it(`pass/${file}: golden sCrypt, compiled by our compiler`, () => {
      const r = transpileSolidity(read('pass', file), { file: fixtureFile('pass', file) });
      assert.deepEqual(
        r.logs.filter((l) => l.type === 'Error'),
        [],
      );
      const json = path.join(dir('pass'), file.replace(/\.sol$/, '.json'));
      const expectedLogs = readdirSync(dir('pass')).includes(path.basename(json)) ? readFileSync(json, 'utf8') : '[]';
      assert.equal(logsText(r.logs), logsText(JSON.parse(expectedLogs)), 'warnings');
      assert.equal(r.scrypt, readFileSync(path.join(dir('pass'), file.replace(/\.sol$/, '.scrypt')), 'utf8'));
      assert.equal(
        transpileSolidity(read('pass', file), { file: fixtureFile('pass', file) }).scrypt,
        r.scrypt,
        'the same input gives the same text',
      );
      compiles(r.scrypt, file);
    });
  }

  for (const file of list('fail')) {
    it(`fail/${file}: every unsupported construct at its position`, () => {
      const r = transpileSolidity(read('fail', file), { file: fixtureFile('fail', file) });
      assert.equal(logsText(r.logs), readFileSync(path.join(dir('fail'), file.replace(/\.sol$/, '.json')), 'utf8'));
      assert.ok(r.logs.length > 0);
    });
  }
});

describe('Solidity → sCrypt: rules', () => {
  it('types: uint*/int* → int, address → PubKeyHash, bytesN/string → bytes, fixed arrays outermost first, casts dropped', () => {
    const s = ok(`contract T { uint8 a; int64 b; address c; bytes32 d; string e; bool f; uint8[2][3] g;
      function x(uint16 p) public { a = uint8(p); c = address(0); d = bytes32(hex"00AB"); } }`);
    assert.match(
      s,
      /@state\n {2}int a;\n\n {2}@state\n {2}int b;\n\n {2}@state\n {2}PubKeyHash c;\n\n {2}@state\n {2}bytes d;\n\n {2}@state\n {2}bytes e;\n\n {2}@state\n {2}bool f;\n\n {2}@state\n {2}int\[3\]\[2\] g;/,
    );
    assert.match(s, /this\.a = p;\n {4}this\.c = Ripemd160\(b'0{40}'\);\n {4}this\.d = b'00ab';/);
  });

  it('constant → static const, immutable → const set in the constructor, state with a value is an error', () => {
    const s = ok(
      'contract T { uint constant A = 2 * 3; uint immutable b; constructor(uint x) { b = x; } function f() public view returns (uint) { return A + b; } }',
    );
    assert.match(s, /const int b;\n\n {2}static const int A = 2 \* 3;\n\n {2}constructor\(int x\) \{\n {4}this\.b = x;\n {2}\}/);
    assert.match(s, /require\(A \+ this\.b == retVal\);\n {2}\}/, 'a stateless contract: no preimage, ends with its require');
    const bad = transpile('contract T {\n  uint x = 1;\n}');
    assert.deepEqual(bad.logs, [{ src: 'T.sol:2:3:2:14', type: 'Error', message: 'unsupported state variable `x` with initial value' }]);
  });

  it('public functions: the parameter order user, msgValue, sig/pubKey, retVal, mapping pairs by value name, txPreimage', () => {
    const s = ok(`contract T { mapping(address => uint) b; mapping(address => bool) a;
      function f(uint x) public payable returns (uint) { a[msg.sender] = true; b[msg.sender] += msg.value + x; return b[msg.sender]; } }`);
    assert.match(
      s,
      /public function f\(int x, int msgValue, Sig sig, PubKey pubKey, int retVal, bool a_msgSender, int i0, int b_msgSender, int i1, SigHashPreimage txPreimage\) \{/,
    );
    assert.match(
      s,
      /int contractBalance = SigHash\.value\(txPreimage\) \+ msgValue;\n {4}PubKeyHash msgSender = hash160\(pubKey\);\n {4}require\(checkSig\(sig, pubKey\)\);\n {4}require\(msgValue >= 0\);/,
    );
    assert.match(
      s,
      /require\(b_msgSender == retVal\);\n {4}require\(this\.a\.set\(\{msgSender, i0\}, a_msgSender\)\);\n {4}require\(this\.b\.set\(\{msgSender, i1\}, b_msgSender\)\);\n {4}require\(this\.propagateState\(txPreimage, contractBalance\)\);/,
    );
    compiles(s, 'parameter order');
  });

  it('mappings: a check before first use, entries reused, only written entries stored back; nested maps through a key struct', () => {
    const s = ok(`contract T { mapping(uint => mapping(address => uint)) m; mapping(uint => bool) r;
      function f(uint k, address a) public { require(!r[k]); m[k][a] = 1; m[k][a]++; } }`);
    assert.match(s, /^struct MapKeyST0 \{\n {2}int key0;\n {2}PubKeyHash key1;\n\}/);
    assert.match(s, /@state\n {2}HashedMap<MapKeyST0, int> m;/);
    assert.match(
      s,
      /require\(\(this\.r\.isAbsent\(\{k, i0\}\) && r_k == false\) \|\| this\.r\.canGet\(\{k, i0\}, r_k\)\);\n {4}require\(!r_k\);/,
    );
    assert.match(
      s,
      /require\(\(this\.m\.isAbsent\(\{\{k, a\}, i1\}\) && m_k_a == 0\) \|\| this\.m\.canGet\(\{\{k, a\}, i1\}, m_k_a\)\);\n {4}m_k_a = 1;\n {4}m_k_a\+\+;/,
    );
    assert.doesNotMatch(s, /this\.r\.set/, 'r is only read');
    assert.match(s, /require\(this\.m\.set\(\{\{k, a\}, i1\}, m_k_a\)\);/);
  });

  it('a mapping key the function changes is kept as it was at first use; internal functions may not touch mappings', () => {
    const s = ok('contract T { address top; mapping(address => uint) w; function f() public { w[top] += 1; top = msg.sender; } }');
    assert.match(s, /PubKeyHash w_top_key = this\.top;\n {4}require\(\(this\.w\.isAbsent\(\{w_top_key, i0\}\)/);
    assert.match(s, /require\(this\.w\.set\(\{w_top_key, i0\}, w_top\)\);/);
    const bad = transpile('contract T { mapping(uint => uint) m;\n  function get(uint k) internal view returns (uint) { return m[k]; } }');
    assert.deepEqual(
      bad.logs.map((l) => [l.src, l.message]),
      [['T.sol:2:12:2:15', 'accessing mapping expression in `internal` or `private` function `get` is not supported']],
    );
  });

  it('a nested-mapping entry keyed by a loop variable is refused (its key local was declared in the loop, used after it)', () => {
    // Before: `MapKeyST0 allowed_o_i_key` was declared inside the loop and the `set` after it did not compile.
    const r = transpile(
      'contract T {\n  mapping(address => mapping(uint => uint)) allowed;\n  function f(address o) public { for (uint i = 0; i < 3; i++) { allowed[o][i] += 1; } }\n}',
    );
    assert.deepEqual(
      r.logs.map((l) => [l.type, l.message]),
      [['Error', 'unsupported mapping access with a key declared inside a block or loop: `allowed[o][i]`']],
    );
    assert.doesNotMatch(r.scrypt, /allowed_o_i_key/);
    compiles(
      ok(
        'contract T {\n  mapping(address => mapping(uint => uint)) allowed;\n  function f(address o, uint k) public { allowed[o][k] += 1; k = 2; }\n}',
      ),
      'nested key snapshot',
    );
  });

  it('returns: retVal and named returns in public functions, ret/returned flags for early returns, bool for void internals', () => {
    const s = ok(`contract T { uint s; function f(uint x) internal returns (uint) { if (x == 0) { x++; return x; } x = x + s; return x; }
      function g() internal { s = 1; } function h(uint a) public returns (uint y) { y = a; } }`);
    assert.match(
      s,
      /function f\(int x\) : int \{\n {4}int ret = 0;\n {4}bool returned = false;\n {4}if \(x == 0\) \{\n {6}x\+\+;\n {6}\{\n {8}ret = x;\n {8}returned = true;\n {6}\}\n {4}\}\n {4}if \(!returned\) \{\n {6}x = x \+ this\.s;\n {4}\}\n {4}return returned \? ret : x;/,
    );
    assert.match(s, /function g\(\) : bool \{\n {4}this\.s = 1;\n {4}return true;\n {2}\}/);
    assert.match(
      s,
      /public function h\(int a, int _y, SigHashPreimage txPreimage\) \{\n {4}int y = 0;\n {4}y = a;\n {4}require\(y == _y\);/,
    );
    compiles(s, 'returns');
  });

  it('loops: bounded loops with break and continue flags; counts read off counting loops', () => {
    const s = ok(
      'contract T { function f() public pure { for (uint i = 0; i < 10; i++) { if (i == 3) { continue; } if (i == 5) { break; } } } }',
    );
    assert.match(s, /static const int __LoopCount__0 = 10;/);
    assert.match(
      s,
      /bool loopBreakFlag0 = false;\n {4}int i = 0;\n {4}loop \(__LoopCount__0\) \{\n {6}if \(!loopBreakFlag0 && i < 10\) \{\n {8}bool loopContinueFlag0 = false;\n {8}if \(i == 3\) \{\n {10}loopContinueFlag0 = true;\n {8}\}\n {8}if \(!loopContinueFlag0\) \{\n {10}if \(i == 5\) \{\n {12}loopBreakFlag0 = true;\n {10}\}\n {8}\}\n {8}if \(!loopBreakFlag0\) \{\n {10}i\+\+;\n {8}\}/,
    );
    const declared = ok(
      'contract T { uint constant __LoopCount__0 = 7; function f(uint n) public pure { uint i; while (i < n) { i++; } } }',
    );
    assert.match(declared, /static const int __LoopCount__0 = 7;/);
    assert.equal(declared.match(/__LoopCount__0 =/g)?.length, 1, 'a declared count is not generated again');
    const unknown = transpile('contract T { function f(uint n) public pure { uint i; while (i < n) { i++; } } }');
    assert.equal(unknown.logs.length, 1);
    assert.equal(unknown.logs[0].type, 'Warning');
    assert.match(unknown.scrypt, /static const int __LoopCount__0 = 10;/);
  });

  it('msg.sender: signature and key in public functions, a parameter of the constructor, an error in internal ones', () => {
    const s = ok('contract T { address o; constructor() { o = msg.sender; } function f() public { require(msg.sender == o); } }');
    assert.match(s, /constructor\(PubKeyHash msgSender\) \{\n {4}this\.o = msgSender;/);
    assert.match(s, /public function f\(Sig sig, PubKey pubKey, SigHashPreimage txPreimage\)/);
    const bad = transpile('contract T {\n  function f() private view returns (address) { return msg.sender; } }');
    assert.deepEqual(
      bad.logs.map((l) => [l.src, l.message]),
      [['T.sol:2:56:2:66', 'unsupported using `msg.sender` in `internal` or `private` function']],
    );
  });

  it('msg.value in the constructor: initBalance and its check on the first call', () => {
    const s = ok('contract T { uint v; constructor() payable { v = msg.value; } function f() public { v = 1; } }');
    assert.match(s, /const int initBalance;/);
    assert.match(s, /constructor\(int msgValue\) \{\n {4}this\.v = msgValue;\n {4}this\.initBalance = msgValue;/);
    assert.match(s, /public function f\(SigHashPreimage txPreimage\) \{\n {4}require\(this\.checkInitBalance\(txPreimage\)\);/);
    assert.match(
      s,
      /function checkInitBalance\(SigHashPreimage txPreimage\) : bool \{\n {4}return !Tx\.isFirstCall\(txPreimage\) \|\| SigHash\.value\(txPreimage\) == this\.initBalance;/,
    );
    compiles(s, 'initBalance');
  });

  it('structs are hoisted with defaults; libraries print first with static functions; reserved names are prefixed', () => {
    const s =
      ok(`contract C { struct P { uint x; bool y; } P p; function f() public { P memory q; p = P({y: true, x: 2}); p = q; L.g(1); } }
      library L { function g(uint a) internal pure returns (uint) { return a; } }`);
    assert.match(s, /^struct P \{\n {2}int x;\n {2}bool y;\n\}\n\nlibrary L \{\n {2}static function g\(int a\) : int \{/);
    assert.match(s, /P q = \{0, false\};\n {4}this\.p = \{2, true\};/);
    assert.match(
      ok('contract T { uint loop; function f(uint ret) public { loop = ret; } }'),
      /int userDefined_loop;[\s\S]*function f\(int userDefined_ret, SigHashPreimage txPreimage\)/,
    );
  });

  it("keeps sCrypt's reading of Solidity's precedence: parentheses where the bitwise operators would regroup", () => {
    assert.match(
      ok('contract T { function f(uint a, uint b) public pure returns (bool) { return a & b == b; } }'),
      /require\(\(a & b\) == b == retVal\);/,
    );
    assert.match(
      ok('contract T { function f(uint a, uint b) public pure returns (uint) { return a * (b + 1) - 2; } }'),
      /require\(a \* \(b \+ 1\) - 2 == retVal\);/,
    );
  });

  it('an array element written at a run-time index: a bounds check and a loop over the indices', () => {
    const s = ok('contract T { uint[3] a; function f(uint k, uint v) public { a[k] += v; } }');
    assert.match(s, /require\(k >= 0 && k < 3\);\n {4}loop \(3\) : __i0 \{\n {6}if \(__i0 == k\) \{\n {8}this\.a\[__i0\] \+= v;/);
    compiles(s, 'run-time index write');
  });

  it('events, custom errors and emit vanish; require/assert/revert become require', () => {
    const s = ok(
      'contract T { uint x; event E(uint a); error Bad(); function f(uint a) public { require(a > 0, "no"); assert(a < 9); if (a == 3) revert Bad(); if (a == 4) revert("x"); emit E(a); x = a; } }',
    );
    assert.match(
      s,
      /require\(a > 0\);\n {4}require\(a < 9\);\n {4}if \(a == 3\)\n {6}require\(false\);\n {4}if \(a == 4\)\n {6}require\(false\);\n {4}this\.x = a;/,
    );
  });

  it('a syntax error is one log at its position, never an exception; sCrypt is empty then', () => {
    const r = transpile('contract T {\n  function f() public { uint a = ; }\n}');
    assert.equal(r.logs.length, 1);
    assert.match(r.logs[0].message, /^syntax error/);
    assert.match(r.logs[0].src, /^T\.sol:2:\d+:2:\d+$/);
    assert.equal(r.scrypt, '');
  });

  it('with errors the best-effort sCrypt leaves out only what failed, and continues past it', () => {
    const r = transpile('contract T { uint x; function f() public { x = block.number; x = 2; } function g() public { x = 3; } }');
    assert.equal(r.logs.length, 1);
    assert.match(r.scrypt, /this\.x = 2;/);
    assert.match(r.scrypt, /public function g/);
    assert.doesNotMatch(r.scrypt, /block/);
  });
});
