import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Bytes, Int, Sha256 } from 'scryptlib';
import { compileScrypt, type CompileOptions } from '../../main/contracts/scrypt/compile.js';
import { compiledScrypt, runsAsExpected } from '../helpers/scrypt-run.js';

/**
 * Forms that published contracts use and the compiler once refused (the corpus has a contract of each:
 * lib-new-expr, lib-call-result, hashed-set-legacy, asm-loop-const, own-state-names, length-old-name,
 * lib-ctor-nested, lib-ctor-nested-param): here, their code shape and the edges around them, each program
 * our own and run plain and with -O.
 */
const compiled = (source: string, opts: CompileOptions = {}) => compiledScrypt(source, opts);

function errorsOf(source: string): string[] {
  return compileScrypt(source).diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`);
}

const runs = runsAsExpected;

const BOX = 'library Box { int v; function get() : int { return this.v; } }';

describe('new as a value', () => {
  it('is built where it stands, in the shape of L l = new L(…) and with no call markers of its own', () => {
    const returned = compiled(`${BOX} contract A { static function mk(int x) : Box { return new Box(x); }
      public function f(int x) { Box b = A.mk(x); require(b.get() == x); } }`).asm;
    // mk(x) inlined: x, OP_NOP, the value (x, then the empty constructor's two OP_NOPs), x removed, OP_NOP.
    assert.ok(returned!.startsWith('OP_0 OP_PICK OP_NOP OP_0 OP_PICK OP_NOP OP_NOP OP_1 OP_ROLL OP_DROP OP_NOP '), returned!);
    const declared = compiled(`${BOX} contract A { public function f(int x) { Box b = new Box(x); require(b.get() == x); } }`).asm;
    const inExpression = compiled(`${BOX} contract A { public function f(int x) { require(new Box(x).get() == x); } }`).asm;
    // The same construct; the expression's value is a temporary, removed from under the method's result.
    assert.ok(declared!.startsWith('OP_0 OP_PICK OP_NOP OP_NOP '), declared!);
    assert.ok(inExpression!.startsWith('OP_0 OP_PICK OP_NOP OP_NOP OP_NOP OP_0 OP_PICK OP_NOP OP_1 OP_ROLL OP_DROP '), inExpression!);
  });

  it('takes the type arguments the place it goes expects, or infers them from its arguments', () => {
    const source = `library G<T> { T c; function get() : T { return this.c; } }
      contract A {
        static function make(bool b) : G<bool> { return new G(b); }
        public function f(int x, bool b) { auto g = new G(x); require(g.get() == x && A.make(b).get() == b); } }`;
    runs(source, 'f', [
      [[Int(4), true], true],
      [[Int(4), false], true],
    ]);
  });

  it('as a contract, whose public function is then called: true when it runs to its end', () => {
    const source = `contract HashLock { Sha256 h; public function spend(bytes x) { require(sha256(x) == this.h); } }
      contract A { Sha256 h; public function f(bytes x) { require(new HashLock(this.h).spend(x)); } }`;
    const h = Sha256('2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824'); // sha256('hello')
    runs(
      source,
      'f',
      [
        [[Bytes('68656c6c6f')], true],
        [[Bytes('68656c6c')], false],
      ],
      [h],
    );
  });

  it('refuses what is not a library or contract, and wrong arguments, at their positions', () => {
    assert.deepEqual(errorsOf('contract A { public function f(int x) { require(new int(x) == x); } }'), [
      '1:53 new needs a library type, not int',
    ]);
    assert.deepEqual(errorsOf(`${BOX} contract A { public function f(int x) { require(new Box(x, x).get() == x); } }`), [
      '1:112 new Box(…) takes 1 argument(s), got 2',
    ]);
    assert.match(
      errorsOf('library G<T> { T c; } contract A { public function f(int x) { require(x == 1 || new G(new G(x)) == new G(1)); } }')[0] ??
        '',
      /cannot compare|cannot infer/,
    );
  });

  it('keeps a statement x = new T(…).f() an expression, not the statement form of x = new T(…)', () => {
    runs(
      `${BOX} contract A { public function f(int x) { int y = 0; y = new Box(x).get(); int z = new Box(y + 1).get(); require(z == x + 1); } }`,
      'f',
      [[[Int(5)], true]],
    );
  });
});

describe('a method called on a computed value', () => {
  it('runs on a temporary, whose changes go with it; a stored value at a run-time index is still refused', () => {
    const counter = `library C { int n; function bump() : int { this.n = this.n + 1; return this.n; }
      function get() : int { return this.n; } static function of(int n) : C { return new C(n); } }`;
    runs(
      `${counter} contract A { public function f(int x) { C kept = C.of(x); require(kept.bump() == x + 1 && C.of(x).bump() == x + 1 && kept.get() == x + 1); } }`,
      'f',
      [
        [[Int(2)], true],
        [[Int(-1)], true],
      ],
    );
    assert.deepEqual(
      errorsOf(`${counter} contract A { public function f(int x, int i) { C[2] cs = [new C(1), new C(2)]; require(cs[i].bump() == x); } }`),
      ['2:187 bump() is called on a C value, which must be a variable, property or field reached with compile-time constant indices'],
    );
  });
});

describe('the older forms', () => {
  it('length(b) is len(b), unless the library or contract declares its own length', () => {
    const own = 'contract A { function length(bytes b) : int { return 7; } public function f(bytes b) { require(length(b) == 7); } }';
    runs(own, 'f', [[[Bytes('aa')], true]]);
    assert.deepEqual(errorsOf('contract A { public function f(bytes b) { require(length(b, 1) == 7); } }'), [
      '1:51 length() takes 1 argument(s), got 2',
    ]);
  });

  it('an asm loop count names a static const that is not negative; another name is refused', () => {
    const source = (n: string) => `static const int N = ${n}; contract A { static function f(int x) : int { asm { loop (N) { OP_1ADD } } }
      public function u(int x) { require(A.f(x) == x + 2); } }`;
    runs(source('2'), 'u', [
      [[Int(1)], true],
      [[Int(-3)], true],
    ]);
    assert.match(errorsOf(source('-1'))[0] ?? '', /an asm loop is written .* a static const that is not negative/);
    assert.match(errorsOf(source('2').replace('loop (N)', 'loop (M)'))[0] ?? '', /an asm loop is written/);
  });
});
