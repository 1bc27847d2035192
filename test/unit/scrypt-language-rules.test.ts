import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildContractClass, Bytes, Int } from 'scryptlib';
import { compileScrypt, type CompileResult } from '../../main/contracts/scrypt/compile.js';
import { transpileScryptTsSource } from '../../main/contracts/scrypt-ts/transpile-source.js';
import { explainSpend } from '../helpers/scrypt-spend.js';

/**
 * Rules of the sCrypt language that contracts of published projects (sCrypt's boilerplate, scryptlib's
 * fixtures) use and this compiler refused until a sweep over such contracts found them: nested type
 * arguments closed by `>>`, constant expressions in a static const, and a generic library's static function;
 * and a scrypt-ts construct the published transpiler throws on, now an error at its position. Each rule is
 * tested on sources of our own.
 */
const errors = (r: CompileResult) => r.diagnostics.filter((d) => d.severity === 'error');

describe('language rules that published projects rely on (each was refused before)', () => {
  const run = (source: string) => compileScrypt(source, { file: 'inline.scrypt' });

  it('`>>` closes two type-argument lists (ST1<ST0<int>>), and is still a shift in an expression', () => {
    const r = run(`struct S<T> { T x; }
contract C {
  public function f(int a, S<S<int>> s) {
    S<S<int>>[2] u = [s, s];
    require(u[1] == s && (a >> 1) == 2 && a < 9 >> 1);
  }
}`);
    assert.deepEqual(errors(r), []);
    assert.deepEqual(r.artifact!.abi[0].params, [
      { name: 'a', type: 'int' },
      { name: 's', type: 'S<S<int>>' },
    ]);
    const unbalanced = errors(run('struct S<T> { T x; }\ncontract C {\n  public function f(S<int>> s) { require(true); }\n}'));
    assert.deepEqual([unbalanced[0]?.line, unbalanced[0]?.column], [3, 26]);
  });

  it('a static const may be any constant expression: logic, comparisons, a condition', () => {
    const r = run(`contract C {
  static const bool A = true && !false;
  static const bool B = 3 > 2 || false;
  static const int N = A && B ? 2 : 3;
  public function f(int[2] xs) { require(xs[1] == N && A && B != false); }
}`);
    assert.deepEqual(errors(r), []);
    assert.deepEqual(r.artifact!.abi[0].params, [{ name: 'xs', type: 'int[2]' }]);
  });

  it("a generic library's static function may be declared with the library's type parameters, not called by its name", () => {
    // As scryptlib's test/fixture/generic.scrypt (compiled by the official compiler): declared, never called.
    const declared = `library G<K, V> {
  V v;
  static function pick(K k, V v) : V { return v; }
  function get() : V { return this.v; }
}
contract C {
  public function f(int x) {
    G<int, int> g = new G(x);
    require(g.get() == x);
  }
}`;
    const r = run(declared);
    assert.deepEqual(errors(r), []);
    const Contract = buildContractClass(r.artifact as never);
    const c = new Contract() as Record<string, any>;
    assert.equal(
      explainSpend(c.lockingScript.toHex(), () => c.f(Int(3)).unlockingScript.toHex()),
      true,
    );

    // Called by the library's name nothing binds K and V: refused at the call.
    const called = errors(run(declared.replace('require(g.get() == x);', 'require(G.pick(x, x) == x);')));
    assert.equal(called.length, 1);
    assert.deepEqual([called[0].line, called[0].column], [9, 19]);
    assert.match(called[0].message, /static function pick cannot use the type parameter K of G/);
  });

  it('a scrypt-ts construct the transpiler throws on is an error at its position, not a crash of the whole transpile', () => {
    // scrypt-ts documents `new VarIntReader(buf)`; scrypt-ts-transpiler 1.2.29 throws a TypeError on it (it reads
    // the `extends` of a class that has none). That ended the transpile with a stack trace and no position.
    const source = (body: string) => `import { assert, ByteString, method, SmartContract, VarIntReader, VarIntWriter } from 'scrypt-ts'

export class Framed extends SmartContract {
    @method()
    public unlock(bs: ByteString, framed: ByteString) {
        ${body}
    }
}
`;
    const thrown = transpileScryptTsSource(source('const r = new VarIntReader(framed)\n        assert(r.readBytes() == bs)'), 'Framed.ts');
    assert.equal(thrown.scrypt, null);
    assert.equal(thrown.errors.length, 1);
    assert.deepEqual([thrown.errors[0].file, thrown.errors[0].line, thrown.errors[0].column], ['Framed.ts', 6, 19]);
    assert.match(thrown.errors[0].message, /^scrypt-ts-transpiler \S+ cannot transpile this: it failed with TypeError: /);

    // What the transpiler handles is unaffected: the static writer transpiles, compiles and spends.
    const t = transpileScryptTsSource(source('assert(VarIntWriter.writeBytes(bs) == framed)'), 'Framed.ts');
    assert.deepEqual(t.errors, []);
    const r = compileScrypt(t.scrypt!, { file: 'Framed.scrypt', readImport: (p) => t.imports[p] ?? null });
    assert.deepEqual(errors(r), []);
    const Contract = buildContractClass(r.artifact as never);
    const c = new Contract() as Record<string, any>;
    const call = (framed: string) =>
      explainSpend(c.lockingScript.toHex(), () => c.unlock(Bytes('abcd'), Bytes(framed)).unlockingScript.toHex());
    assert.equal(call('02abcd'), true);
    assert.notEqual(call('03abcd'), true);
  });
});
