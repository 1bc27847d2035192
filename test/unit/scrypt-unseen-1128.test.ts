import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileScrypt } from '../../main/contracts/scrypt/compile.js';
import { runsAsExpected } from '../helpers/scrypt-run.js';

/**
 * Forms met in published sCrypt (scryptlib's test fixtures genericsst1/2/6, mixed and helloworld, compiled
 * by the official compiler for scryptlib's own tests; the language reference's syntax.rst) that this
 * compiler refused or compiled wrong (each test failed before its fix). Each is a minimal program of our
 * own asserting the correct behaviour, run plain and with -O through Spend.
 */
function errorsOf(source: string): string[] {
  return compileScrypt(source)
    .diagnostics.filter((d) => d.severity === 'error')
    .map((d) => `${d.line}:${d.column} ${d.message}`);
}

describe('unseen published forms (1128)', () => {
  it('calls a static function of a generic library through written type arguments: L<int>.clone(a)', () => {
    const source = `
      library L<T> { T x; static function clone(T v) : T { return v; } }
      contract C { public function unlock(int a) { require(L<int>.clone(a) == 7); } }`;
    assert.deepEqual(errorsOf(source), []);
    runsAsExpected(source, 'unlock', [
      [[7n], true],
      [[8n], false],
    ]);
  });

  it('returns this from a library function, and calls a method on the result: this.l.set(v).get()', () => {
    const source = `
      library L {
        int x;
        function set(int v) : L { this.x = v; return this; }
        function get() : int { return this.x; }
      }
      contract C { L l; public function unlock(int v) { require(this.l.set(v + 1).get() == 5); } }`;
    assert.deepEqual(errorsOf(source), []);
    runsAsExpected(
      source,
      'unlock',
      [
        [[4n], true],
        [[5n], false],
      ],
      [[0n]],
    );
  });

  it('types a struct literal on the left of == from the right operand, as it does on the right', () => {
    const source = `
      struct P { int x; int y; }
      contract C { public function unlock(P p) { require({1, 2} == p); } }`;
    assert.deepEqual(errorsOf(source), []);
    runsAsExpected(source, 'unlock', [
      [[{ x: 1n, y: 2n }], true],
      [[{ x: 2n, y: 1n }], false],
    ]);
  });

  it('indexes a function result at a run-time index: this.arr()[i]', () => {
    const source = `
      contract C {
        function arr() : int[3] { return [10, 20, 30]; }
        public function unlock(int i) { require(this.arr()[i] == 20); }
      }`;
    assert.deepEqual(errorsOf(source), []);
    runsAsExpected(source, 'unlock', [
      [[1n], true],
      [[0n], false],
      [[3n], false],
    ]);
  });

  it('refuses a private function or property of another contract (syntax.rst, Access Modifiers: private is not visible to other contracts)', () => {
    const fn = `contract A { int x; private function secret() : int { return this.x; } public function u(int y) { require(y == this.secret()); } }
contract B { public function u(int y) { A a = new A(3); require(a.secret() == y); } }`;
    assert.ok(
      errorsOf(fn).some((e) => e.startsWith('2:')),
      `expected an error at a.secret() on line 2, got ${JSON.stringify(errorsOf(fn))}`,
    );
    const prop = `contract A { private int x; public function u(int y) { require(y == this.x); } }
contract B { public function u(int y) { A a = new A(3); require(a.x == y); } }`;
    assert.ok(
      errorsOf(prop).some((e) => e.startsWith('2:')),
      `expected an error at a.x on line 2, got ${JSON.stringify(errorsOf(prop))}`,
    );
  });

  it('reads \\r in a string literal as a carriage return: "\\r\\n" is b\'0d0a\' (scryptlib fixture helloworld)', () => {
    const source = 'contract S { public function f(bytes m) { require(m == "\\r\\n"); } }';
    assert.deepEqual(errorsOf(source), []);
    runsAsExpected(source, 'f', [
      [['0d0a'], true],
      [['720a'], false],
    ]);
  });

  it('indexes an array literal at a run-time index: [10, 20, 30][i]', () => {
    const source = `contract C { public function unlock(int i) { require([10, 20, 30][i] == 30); } }`;
    assert.deepEqual(errorsOf(source), []);
    runsAsExpected(source, 'unlock', [
      [[2n], true],
      [[1n], false],
      [[-1n], false],
    ]);
  });
});

describe('early sCrypt forms, refused with what to write instead', () => {
  it('a ++ b (early concatenation) is refused at the ++ with a message naming +; a++ as a statement still compiles', () => {
    const joined = errorsOf(`contract C { public function unlock(bytes a, bytes b) { require(a ++ b == b'01'); } }`);
    assert.equal(joined.length, 1, joined.join('\n'));
    assert.match(joined[0], /^1:\d+ '\+\+' does not join two values in sCrypt: concatenation is '\+'/);
    assert.match(errorsOf(`contract C { public function unlock(bytes a) { require(a ++ b'02' == b'01'); } }`)[0], /concatenation is '\+'/);
    const stepped = `contract C { public function unlock(int x) { int y = x; y++; require(y == x + 1); } }`;
    assert.deepEqual(errorsOf(stepped), []);
    runsAsExpected(stepped, 'unlock', [[[5n], true]]);
  });
});
