import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { compileScrypt } from '../../main/contracts/scrypt/compile.js';
import { STDLIB_NAMES } from '../../main/contracts/scrypt/stdlib.js';
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
    const bad = transpile('contract T {\n  uint x = 1;\n  function f() public {}\n}');
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
    const bad = transpile(
      'contract T { mapping(uint => uint) m;\n  function get(uint k) internal view returns (uint) { return m[k]; } function f() public {} }',
    );
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
    const bad = transpile('contract T {\n  function f() private view returns (address) { return msg.sender; } function g() public {} }');
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

describe('Solidity → sCrypt: constructs met in published contracts', () => {
  it('named arguments are passed in the parameter order of the function or library function called', () => {
    // Before: `net({taxPercent: 20, gross: g})` became `this.net(20, g)`, the arguments in the order written.
    const s = ok(`library Shares { function part(uint w, uint n, uint i) internal pure returns (uint) { return w / n + i; } }
      contract T { uint paid; function net(uint gross, uint taxPercent) internal pure returns (uint) { return gross - taxPercent; }
      function pay(uint g) external { paid += net({taxPercent: 20, gross: g}); paid += Shares.part({i: 1, w: g, n: 3}); } }`);
    assert.match(s, /this\.paid \+= this\.net\(g, 20\);\n {4}this\.paid \+= Shares\.part\(g, 3, 1\);/);
    compiles(s, 'named arguments');
    // A callee whose parameters are not known cannot be given its arguments in order.
    const r = transpile('contract T {\n  uint s;\n  function f(uint v) public { s = helper({value: v}); }\n}');
    assert.deepEqual(
      r.logs.map((l) => [l.src, l.message]),
      [['T.sol:3:35:3:53', 'unsupported function call with named arguments: `helper`']],
    );
  });

  it('a 40-digit hex literal and address(<number>) are 20 bytes; address(<integer>) is refused', () => {
    // Before: `0x5B38…` and `address(1)` were printed as numbers, and a PubKeyHash cannot hold an int.
    const s = ok(`contract T { address constant K = 0x5B38Da6a701c568545dCfcB03FcB875f56beddC4; address who;
      function f(address a, bytes20 b) public { require(a != K); who = address(1); if (a == address(0)) who = address(b); } }`);
    assert.match(s, /static const PubKeyHash K = Ripemd160\(b'5b38da6a701c568545dcfcb03fcb875f56beddc4'\);/);
    assert.match(s, /this\.who = Ripemd160\(b'0{39}1'\);/);
    assert.match(s, /this\.who = Ripemd160\(b\);/);
    compiles(s, 'address literals');
    const r = transpile('contract T {\n  address who;\n  function f(uint160 n) public { who = address(n); }\n}');
    assert.deepEqual(
      r.logs.map((l) => [l.src, l.message]),
      [['T.sol:3:40:3:50', 'unsupported conversion from integer to address: `address(n)`']],
    );
  });

  it('bytesN(<number>) and a hex number beside bytes are bytes; conversions between integers and bytes are refused', () => {
    // Before: `bytes32(0)` was `0` and `m |= 0x00ff` kept the number: neither compiled.
    const s = ok(
      'contract T { bytes32 h; bytes2 m; function f(bytes2 b) public { h = bytes32(0); m = bytes2(0x0102); m |= 0x00ff; require(b != 0x0000); m = b ^ m; } }',
    );
    assert.match(s, /this\.h = b'0{64}';\n {4}this\.m = b'0102';\n {4}this\.m \|= b'00ff';\n {4}require\(b != b'0000'\);/);
    compiles(s, 'fixed bytes');
    const r = transpile('contract T {\n  bytes32 h;\n  uint n;\n  function f(uint v) public { h = bytes32(v); n = uint(h); }\n}');
    assert.deepEqual(
      r.logs.map((l) => [l.src, l.message]),
      [
        ['T.sol:4:35:4:45', 'unsupported conversion between integer and bytes: `bytes32(v)`'],
        ['T.sol:4:51:4:58', 'unsupported conversion between integer and bytes: `uint(h)`'],
      ],
    );
  });

  it('an event fired without `emit` (old Solidity) vanishes like `emit`; `now` is refused like `block.timestamp`', () => {
    // Before: `Paid(msgSender, v);` was kept and the sCrypt did not compile ("unknown function").
    const s = ok('contract T { uint s; event Paid(address who, uint v); function f(uint v) public { s += v; Paid(msg.sender, v); } }');
    assert.doesNotMatch(s, /Paid/);
    compiles(s, 'event without emit');
    const r = transpile('contract T {\n  uint s;\n  function f() public { s = now; }\n}');
    assert.deepEqual(
      r.logs.map((l) => [l.src, l.message]),
      [['T.sol:3:29:3:32', 'unsupported expression: `now`']],
    );
  });

  it('a function without visibility (Solidity before 0.5) is public', () => {
    // Before: `function sumTo(int8 n) constant returns (int8 s)` became an internal function, and the contract had no public one.
    const s = ok('contract T { function sumTo(int8 n) constant returns (int8 s) { s = n; } function helper() internal pure {} }');
    assert.match(s, /public function sumTo\(int n, int _s\) \{\n {4}int s = 0;\n {4}s = n;\n {4}require\(s == _s\);/);
    assert.match(s, /\n {2}function helper\(\) : bool \{/);
    compiles(s, 'default visibility');
  });

  it('an assignment used as a value is refused at its position; as a statement or a loop step it stays', () => {
    // Before: `while ((x >>= 1) > 0)` was printed as is, and sCrypt has no assignment expressions.
    const r = transpile(
      'contract T {\n  function f(uint x) public pure returns (uint) {\n    uint n;\n    while ((x >>= 1) > 0) n++;\n    return n;\n  }\n}',
    );
    assert.deepEqual(
      r.logs.filter((l) => l.type === 'Error').map((l) => [l.src, l.message]),
      [['T.sol:4:13:4:20', 'unsupported assignment inside an expression: `x >>= 1`']],
    );
    compiles(ok('contract T { uint s; function f(uint x) public { for (uint i = 0; i < 4; i += 2) { s = x; x >>= 1; } } }'), 'statements');
  });

  it('a byte of a byte string is read as a one-byte slice; writing one is refused', () => {
    // Before: `b[i]` was printed as is, and sCrypt indexes no bytes ("take a slice").
    const s = ok('contract T { bytes1 t; function f(bytes memory b, uint i) public { t = b[i]; require(b[0] != t); } }');
    assert.match(s, /this\.t = b\[i : i \+ 1\];\n {4}require\(b\[0 : 1\] != this\.t\);/);
    compiles(s, 'byte index');
    const r = transpile(
      'contract T {\n  function f(bytes memory b, uint i) public pure { b[i] = 0x01; t(b[i++]); }\n  function t(bytes1 x) internal pure {}\n}',
    );
    assert.deepEqual(
      r.logs.map((l) => [l.src, l.message]),
      [
        ['T.sol:2:52:2:56', 'unsupported write to a byte of a byte string: `b[i]`'],
        ['T.sol:2:67:2:73', 'unsupported byte index with side effects: `b[i++]`'],
      ],
    );
  });

  it('converting to a contract type, `this.f()` of a public function, address members and a contract without public function are refused', () => {
    // Before: `IVault(v).put(a)` and `this.count()` were emitted and did not compile; so did a contract with a constructor only.
    // (`count` reads msg.sender, so it can have no internal copy for `this.count()` to reach: called-publics.ts.)
    const r = transpile(`interface IVault { function put(uint a) external; }
contract T {
  uint n;
  function count() public view returns (uint) { require(msg.sender != address(0)); return n; }
  function f(address v, uint a) external { IVault(v).put(a); n = this.count() + a; }
}
contract Setup {
  uint immutable cap;
  constructor(uint c) { cap = c; }
}`);
    assert.deepEqual(
      r.logs.map((l) => [l.src, l.message]),
      [
        ['T.sol:5:44:5:53', 'unsupported conversion to contract type: `IVault(v)`'],
        ['T.sol:5:66:5:78', 'unsupported call of public function `count`'],
        ['T.sol:7:10:7:15', 'unsupported contract without a public or external function: `Setup`'],
      ],
    );
    // Before: `msgSender.transfer(v)` was emitted (only a plain name's `.transfer` was caught); a PubKeyHash has no members.
    const paid = transpile('contract T {\n  uint v;\n  function f(uint m) public { v = m; msg.sender.transfer(m); }\n}');
    assert.deepEqual(
      paid.logs.map((l) => [l.src, l.message]),
      [['T.sol:3:38:3:57', 'unsupported expression: `msg.sender.transfer`']],
    );
  });
});

describe('Solidity → sCrypt: a shift by a run-time amount', () => {
  it('is warned about for its cost, not refused, and its sCrypt compiles (plain and -O), as the warning says', () => {
    const r = transpile(
      'pragma solidity ^0.8.0;\ncontract S {\n  uint acc;\n  function f(uint a, uint b) public {\n    acc = (a << b) + (a >> b);\n  }\n}\n',
    );
    assert.deepEqual(
      r.logs.filter((l) => l.type === 'Error'),
      [],
    );
    const warnings = r.logs.filter((l) => l.type === 'Warning').map((l) => l.message);
    assert.equal(warnings.length, 2, warnings.join('\n'));
    for (const w of warnings) {
      assert.match(w, /^a shift by a run-time amount: it compiles to a multiplication or division by 2ⁿ/);
      assert.doesNotMatch(w, /not compile/);
    }
    assert.match(r.scrypt, /this\.acc = \(a << b\) \+ \(a >> b\);/);
    compiles(r.scrypt, 'the run-time shifts');
  });
});

describe('Solidity → sCrypt: names the sCrypt standard library declares', () => {
  // A Solidity `library Constants` or `struct SortedItem` is common; sCrypt refuses a second declaration of a
  // standard-library name, so the transpiler renames them as it renames keywords.
  for (const name of STDLIB_NAMES)
    it(`${name}: a Solidity library, struct and contract of that name are renamed, and the sCrypt compiles`, () => {
      for (const [decl, use] of [
        [
          `library ${name} {\n  uint constant K = 8;\n}\ncontract C {\n  uint acc;\n  function f(uint a) public {\n    acc = a + ${name}.K;\n  }\n}\n`,
          `${name}.K`,
        ],
        [
          `struct ${name} {\n  uint a;\n}\ncontract C {\n  uint acc;\n  function f(uint a) public {\n    ${name} memory s = ${name}(a);\n    acc = s.a;\n  }\n}\n`,
          `${name} s`,
        ],
        [`contract ${name} {\n  uint acc;\n  function f(uint a) public {\n    acc = a;\n  }\n}\n`, `contract ${name}`],
      ]) {
        const scrypt = ok(`pragma solidity ^0.8.0;\n${decl}`);
        assert.ok(scrypt.includes(use.replace(name, `userDefined_${name}`)), scrypt);
        compiles(scrypt, `${name}: ${use}`);
      }
    });
});
