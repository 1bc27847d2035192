import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildContractClass, Bytes, Int } from 'scryptlib';
import { compileScrypt, type CompileOptions } from '../../main/contracts/scrypt/compile.js';
import { spends } from '../helpers/scrypt-spend.js';

/**
 * Language the official compiler accepts that public contracts use: imports, library packages, `?:` on an
 * int, the older `returns (T)`, a built-in called inside a library function of the same name, an index a
 * loop computes out of bounds in a branch that does not run, asm public functions and loops in asm.
 * Each program is run, plain and -O, where it can be.
 */
function compiled(source: string, opts: CompileOptions = {}) {
  const r = compileScrypt(source, opts);
  assert.ok(r.artifact, JSON.stringify(r.diagnostics));
  return r;
}

function runs(source: string, construct: unknown[], method: string, cases: [unknown[], boolean][]) {
  for (const optimize of [false, true]) {
    const C = buildContractClass(compiled(source, { optimize }).artifact as never);
    const c = new C(...(construct as never[])) as any;
    cases.forEach(([args, ok], n) =>
      assert.equal(
        spends(c.lockingScript.toHex(), () => c[method](...args).unlockingScript.toHex()),
        ok,
        `${method} case ${n + 1}, -O ${optimize}`,
      ),
    );
  }
}

describe('sCrypt language coverage', () => {
  it('imports: files resolved against the importing file, each once, dependencies first; errors name their file', () => {
    const files: Record<string, string> = {
      'lib/math.scrypt': 'import "../base.scrypt";\nlibrary MathX { static function twice(int x) : int { return Base.add(x, x); } }',
      'base.scrypt': 'library Base { static function add(int a, int b) : int { return a + b; } }',
      'broken.scrypt': 'library Broken {\n  static function f() : int { return 1 }\n}',
    };
    const readImport = (p: string) => files[p] ?? null;
    const main =
      'import "lib/math.scrypt";\nimport "base.scrypt";\ncontract UsesImports { int x; public function f(int a) { require(MathX.twice(a) == Base.add(this.x, 1)); } }';
    runs(
      main.replace(/import "[^"]+";\n/g, '') + files['lib/math.scrypt'].replace(/import "[^"]+";\n/, '') + files['base.scrypt'],
      [Int(9)],
      'f',
      [
        [[Int(5)], true],
        [[Int(4)], false],
      ],
    );
    const r = compiled(main, { readImport, file: 'main.scrypt' });
    const C = buildContractClass(r.artifact as never);
    const c = new C(Int(9)) as any;
    assert.equal(
      spends(c.lockingScript.toHex(), () => c.f(Int(5)).unlockingScript.toHex()),
      true,
    );
    const missing = compileScrypt('import "nope.scrypt";\ncontract A { int x; public function f(int a) { require(a == this.x); } }', {
      readImport,
      file: 'a.scrypt',
    });
    assert.deepEqual(
      missing.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.message}`),
      ['a.scrypt:1:1 cannot read the imported file nope.scrypt'],
    );
    const bad = compileScrypt('import "broken.scrypt";\ncontract A { int x; public function f(int a) { require(a == this.x); } }', {
      readImport,
      file: 'a.scrypt',
    });
    assert.equal(bad.diagnostics[0].file, 'broken.scrypt', 'an error inside an imported file names that file');
    assert.equal(bad.diagnostics[0].line, 2);
    const refused = compileScrypt(main, { file: 'main.scrypt' });
    assert.match(refused.diagnostics[0].message, /imports are not supported here/);
  });

  it('a file of libraries only compiles its last library (a library package)', () => {
    const r = compiled(
      'library A { static function f(int x) : int { return x + 1; } }\nlibrary B { int v; function get() : int { return A.f(this.v); } }',
    );
    assert.equal(r.artifact!.contract, 'B');
    assert.equal(r.hex, '<v>');
  });

  it('?: takes an int or bytes condition like if (true when not zero)', () => {
    runs(
      'contract T { int x; public function f(int a, bytes b) { require((a % 2 ? 1 : 0) + (b ? 10 : 20) == this.x); } }',
      [Int(11)],
      'f',
      [
        [[Int(3), Bytes('01')], true],
        [[Int(4), Bytes('01')], false],
        [[Int(3), Bytes('')], false],
      ],
    );
  });

  it('the older `returns (T)` declares a return type', () => {
    runs(
      'contract T { int x; static function inc(int v) returns (int) { return v + 1; } public function f(int a) { require(T.inc(a) == this.x); } }',
      [Int(3)],
      'f',
      [
        [[Int(2)], true],
        [[Int(3)], false],
      ],
    );
  });

  it('inside a library function named like a built-in, a bare call is the built-in', () => {
    const src =
      'struct FP { int val; }\nlibrary Fx { static function abs(FP x) : FP { return { abs(x.val) }; } }\ncontract T { int x; public function f(int a) { FP p = Fx.abs({ a }); require(p.val == this.x); } }';
    runs(src, [Int(7)], 'f', [
      [[Int(-7)], true],
      [[Int(7)], true],
      [[Int(6)], false],
    ]);
  });

  it('an index a loop computes out of bounds is checked at run time, so a branch that does not run there compiles', () => {
    const src =
      'contract T { int[3] xs; public function f(int a) { int s = 0; loop (3) : i { if (i > 0) { s += this.xs[i - 1]; } } require(s == a); } }';
    runs(src, [[Int(1), Int(2), Int(4)]], 'f', [
      [[Int(3)], true],
      [[Int(7)], false],
    ]);
    assert.match(
      compileScrypt('contract T { int[3] xs; public function f(int a) { require(this.xs[3] == a); } }').diagnostics[0].message,
      /index 3 is out of bounds/,
    );
  });

  it('asm: a public function written in asm runs on its parameters; loops inside asm are unrolled', () => {
    const src = `contract T {
  int k;
  public function double(int a, int b) {
    asm {
      OP_DUP
      OP_ADD
      OP_NUMEQUAL
    }
  }
  function pow8(int x) : int {
    asm {
      loop (3) { OP_DUP OP_MUL }
    }
  }
  public function eight(int x, int y) {
    require(this.pow8(x) == y);
  }
}`;
    runs(src, [Int(0)], 'double', [
      [[Int(6), Int(3)], true],
      [[Int(6), Int(4)], false],
    ]);
    runs(src, [Int(0)], 'eight', [
      [[Int(2), Int(256)], true],
      [[Int(2), Int(8)], false],
    ]);
  });
});
