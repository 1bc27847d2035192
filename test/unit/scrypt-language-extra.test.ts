import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildContractClass, Int, SigHashType } from 'scryptlib';
import { compileScrypt, type CompileOptions } from '../../main/contracts/scrypt/compile.js';
import { spends } from '../helpers/scrypt-spend.js';

/**
 * Language the official compiler accepts that published projects use (issue 28): compound shift
 * assignments, int shifts by a count known only when the script runs, static constants computed from
 * other constants, a file imported along several paths, and loops with an induction variable in asm.
 * Each program is our own; the expected bytes are derived from the code-shape rules (reads are
 * `d OP_PICK`, an assignment is `d OP_ROLL OP_DROP`, a compound assignment keeps its value and drops it,
 * the final `require` leaves its value and NIPs the rest), and each program is run, plain and -O.
 */
function compiled(source: string, opts: CompileOptions = {}) {
  const r = compileScrypt(source, opts);
  assert.ok(r.artifact, JSON.stringify(r.diagnostics));
  return r;
}

function hexOf(source: string, opts: CompileOptions = {}): string {
  return compiled(source, opts).artifact!.hex;
}

function runs(source: string, method: string, cases: [unknown[], boolean][], opts: CompileOptions = {}) {
  for (const optimize of [false, true]) {
    const C = buildContractClass(compiled(source, { ...opts, optimize }).artifact as never);
    const c = new C() as any;
    cases.forEach(([args, ok], n) =>
      assert.equal(
        spends(c.lockingScript.toHex(), () => c[method](...args).unlockingScript.toHex()),
        ok,
        `${method} case ${n + 1} (${args.map(String).join(', ')}), -O ${optimize}`,
      ),
    );
  }
}

/** The pushes a number's 2ⁿ computation reads: `n OP_DUP OP_0 OP_GREATERTHANOREQUAL OP_VERIFY …` (codegen/expressions.ts). */
const POW2 = '76' + '00a269' + '765896007c80' + '7c5897515280' + '7c98' + '7e81';

describe('sCrypt language coverage (issue 28)', () => {
  it('compound shift assignments <<= and >>= are x = x << n and x = x >> n', () => {
    const source = 'contract A { public function f(int x, int y) { int z = x; z <<= 2; z >>= 1; require(z == y); } }';
    // int z = x: 1 PICK; z <<= 2: z 4 MUL, rolled into z, the value kept and dropped; z >>= 1: z 2 DIV, the same.
    assert.equal(hexOf(source), '5179' + '0079549' + '5517a75007975' + '0079529' + '6517a75007975' + '0079527' + '99c777777');
    runs(source, 'f', [
      [[Int(3), Int(6)], true],
      [[Int(3), Int(12)], false],
      [[Int(-5), Int(-10)], true],
    ]);
    const byRunTimeCount = 'contract A { public function f(int x, int n, int y) { int z = x; z <<= n; z >>= 1; require(z == y); } }';
    runs(byRunTimeCount, 'f', [
      [[Int(3), Int(4), Int(24)], true],
      [[Int(3), Int(4), Int(48)], false],
    ]);
  });

  it('an int shifted by a count known only when the script runs: times or divided by 2ⁿ, a negative count fails', () => {
    const left = 'contract A { public function f(int x, int n, int y) { require((x << n) == y); } }';
    // x: 2 PICK; n: 2 PICK; 2ⁿ; MUL; y: 1 PICK; NUMEQUAL; 3 NIPs.
    assert.equal(hexOf(left), '5279' + '5279' + POW2 + '95' + '5179' + '9c' + '777777');
    const right = left.replace('<<', '>>');
    assert.equal(hexOf(right), '5279' + '5279' + POW2 + '96' + '5179' + '9c' + '777777');
    runs(left, 'f', [
      [[Int(3), Int(0), Int(3)], true],
      [[Int(3), Int(5), Int(96)], true],
      [[Int(3), Int(7), Int(384)], true],
      [[Int(3), Int(8), Int(768)], true],
      [[Int(-3), Int(9), Int(-1536)], true],
      [[Int(1), Int(70), Int(2n ** 70n)], true],
      [[Int(3), Int(5), Int(97)], false],
      [[Int(3), Int(-1), Int(1)], false],
      [[Int(0), Int(-1), Int(0)], false],
    ]);
    runs(right, 'f', [
      [[Int(1000), Int(3), Int(125)], true],
      [[Int(-1000), Int(3), Int(-125)], true],
      [[Int(5), Int(0), Int(5)], true],
      [[Int(2n ** 70n + 5n), Int(70), Int(1)], true],
      [[Int(1), Int(70), Int(0)], true],
      [[Int(1000), Int(3), Int(124)], false],
      [[Int(8), Int(-1), Int(16)], false],
    ]);
    // A constant count keeps its constant 2ⁿ; a negative constant count is refused where it is written.
    assert.equal(
      hexOf('contract A { public function f(int x, int y) { require((x << 3) == y); } }'),
      '5179' + '58' + '95' + '5179' + '9c7777',
    );
    const negative = compileScrypt('contract A { public function f(int x, int y) { require((x << -2) == y); } }');
    assert.deepEqual(
      negative.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`),
      ['1:62 the shift count of an int must not be negative'],
    );
  });

  it('static constants computed from other constants and from library constants, at compile time', () => {
    // SigHash.ANYONECANPAY | SigHash.ALL | SigHash.FORKID = 80 | 01 | 40 = c1: one constant, pushed once at the bottom.
    const sighash =
      'contract A { static const SigHashType ST = SigHash.ANYONECANPAY | SigHash.ALL | SigHash.FORKID; public function f(SigHashType s) { require(s == A.ST); } }';
    assert.equal(hexOf(sighash), '01c1' + '5179' + '5179' + '87' + '7777');
    runs(sighash, 'f', [
      [[SigHashType(0xc1)], true],
      [[SigHashType(0x41)], false],
    ]);
    // int constants are inlined: L.K << 2 = 16; B = N * 2 + 1 = 3 is used as the value 3 (OP_3).
    assert.equal(
      hexOf(
        'library L { static const int K = 4; } contract A { static const int B = L.K << 2; public function f(int y) { require(y == A.B); } }',
      ),
      '0079' + '60' + '9c' + '77',
    );
    const computed =
      'contract A { static const int N = 1; static const int B = N * 2 + 1; public function f(int y) { int s = y * A.B; require(s == 9); } }';
    // s = y * 3: 0 PICK, OP_3, MUL; then s == 9 and the NIPs.
    assert.equal(hexOf(computed), '0079' + '53' + '95' + '0079' + '59' + '9c' + '7777');
    runs(computed, 'f', [
      [[Int(3)], true],
      [[Int(4)], false],
    ]);
    // As ctc.rst says, a constant computed from an expression is a value, not a loop count or array size
    // (test/fixtures/scrypt-errors/NotCompileTimeConstant/array-size-expression.scrypt).
    assert.match(
      compileScrypt(computed.replace('int s = y * A.B;', 'int s = y * A.B; loop (B) { s += 0; }')).diagnostics[0]?.message ?? '',
      /the loop count must be a compile-time constant/,
    );
    assert.equal(
      hexOf(
        "contract A { static const bytes P = b'0102'; static const bytes Q = A.P + b'ff'; public function f(bytes y) { require(y == A.Q); } }",
      ),
      '030102ff' + '5179' + '5179' + '87' + '7777',
    );
    // Bitwise constants are folded to what the script computes on the same values (ints padded with num2bin, then bin2num).
    const pairs: [bigint, string, bigint][] = [
      [12n, '&', 10n],
      [-1n, '|', 2n],
      [300n, '^', -5n],
      [-128n, '&', 255n],
      [7n, '<<', 4n],
      [-7n, '>>', 1n],
    ];
    for (const [a, op, b] of pairs) {
      const src = `contract A { static const int C = (${a}) ${op} (${b}); public function f(int a, int b) { require((a ${op} b) == A.C); } }`;
      runs(src, 'f', [[[Int(a), Int(b)], true]]);
    }
  });

  it('a file imported along several paths is one file: no duplicate definitions, compiled once', () => {
    const base = 'library Base { static function add(int a, int b) : int { return a + b; } }';
    const files: Record<string, string> = {
      'lib/base.scrypt': base,
      // The same file reached through a link or a copy of the package: another path, the same text.
      'vendor/lib/base.scrypt': base,
      'a.scrypt': 'import "lib/base.scrypt";\nlibrary LA { static function f(int a) : int { return Base.add(a, 1); } }',
      'sub/b.scrypt':
        'import "../vendor/lib/base.scrypt";\nimport "./../lib/./base.scrypt";\nlibrary LB { static function g(int a) : int { return Base.add(a, 2); } }',
    };
    const reads: string[] = [];
    const readImport = (p: string) => {
      reads.push(p);
      return files[p] ?? null;
    };
    const main =
      'import "a.scrypt";\nimport "sub/b.scrypt";\nimport "./lib/base.scrypt";\ncontract M { public function f(int x) { require(LA.f(x) == LB.g(x - 1)); } }';
    const together = `${base}\n${files['a.scrypt'].split('\n')[1]}\n${files['sub/b.scrypt'].split('\n')[2]}\n${main.split('\n')[3]}`;
    assert.equal(hexOf(main, { readImport, file: 'main.scrypt' }), hexOf(together));
    assert.equal(reads.filter((p) => p === 'lib/base.scrypt').length, 1, 'each path is read once');
    runs(
      main,
      'f',
      [
        [[Int(5)], true],
        [[Int(4)], true],
      ],
      { readImport, file: 'main.scrypt' },
    );
    // Two files that only share a name still both count: different declarations are not merged.
    const clash = compileScrypt(
      'import "x.scrypt";\nimport "y.scrypt";\ncontract M { public function f(int x) { require(X.v(x) == x); } }',
      {
        readImport: (p) =>
          ({
            'x.scrypt': 'library X { static function v(int a) : int { return a; } }',
            'y.scrypt': 'library X { static function v(int a) : int { return a + 1; } }',
          })[p] ?? null,
        file: 'm.scrypt',
      },
    );
    assert.ok(clash.diagnostics.length > 0, 'two different libraries of one name are still a duplicate');
  });

  it('asm: loop (N) : i { … } unrolls with the induction variable as each iteration number', () => {
    const counted = 'contract A { public function f(int y) { asm { loop (3) : i { OP_1ADD } OP_4 OP_NUMEQUAL } } }';
    assert.equal(hexOf(counted), '8b8b8b' + '54' + '9c');
    runs(counted, 'f', [
      [[Int(1)], true],
      [[Int(2)], false],
    ]);
    // y + 0 + 1 + 2 == 9: i is pushed as 0, 1, 2.
    const indexed = 'contract A { public function f(int y) { asm { loop (3) : i { i OP_ADD } OP_9 OP_NUMEQUAL } } }';
    assert.equal(hexOf(indexed), '0093' + '5193' + '5293' + '59' + '9c');
    runs(indexed, 'f', [
      [[Int(6)], true],
      [[Int(7)], false],
    ]);
    // Nested, written without spaces: y + (0+0) + (0+1) + (1+0) + (1+1) == y + 4.
    const nested = 'contract A { public function f(int y) { asm { loop(2):i{ loop (2) : j { i j OP_ADD OP_ADD } } OP_4 OP_NUMEQUAL } } }';
    assert.equal(hexOf(nested), '00009393' + '00519393' + '51009393' + '51519393' + '54' + '9c');
    runs(nested, 'f', [
      [[Int(0)], true],
      [[Int(1)], false],
    ]);
    // A variable named like hex data (`ab` is the byte 0xab) would change what the body says: refused, like a missing name.
    const hexName = compileScrypt('contract A { public function f(int y) { asm { loop (2) : ab { ab OP_DROP } OP_1 } } }');
    assert.match(hexName.diagnostics[0]?.message ?? '', /an asm loop is written/);
    const bad = compileScrypt('contract A { public function f(int y) { asm { loop (3) : { OP_1ADD } OP_1 } } }');
    assert.match(bad.diagnostics[0]?.message ?? '', /an asm loop is written loop \(N\) \{ … \} or loop \(N\) : i \{ … \}/);
  });
});
