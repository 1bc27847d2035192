import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildContractClass, Int } from 'scryptlib';
import { compileScrypt, frontEnd } from '../../main/contracts/scrypt/compile.js';
import { generate } from '../../main/contracts/scrypt/codegen/contract.js';
import { formatDiagnostic } from '../../main/contracts/scrypt/diagnostics.js';
import { spends as spendsHelper } from '../helpers/scrypt-spend.js';

/** Compiles, deploys with scryptlib and runs one public function with int arguments: true if the script succeeds. */
function runs(source: string, ctor: bigint[], fn: string, args: bigint[]): boolean {
  const r = compileScrypt(source, { file: 'T.scrypt' });
  assert.deepEqual(r.diagnostics.map(formatDiagnostic), [], 'compiles');
  const Contract = buildContractClass(r.artifact as never);
  const c = new Contract(...ctor.map((x) => Int(x))) as unknown as Record<
    string,
    (...a: unknown[]) => { unlockingScript: { toHex(): string } }
  > & { lockingScript: { toHex(): string } };
  return spendsHelper(c.lockingScript.toHex(), () => c[fn](...args.map((x) => Int(x))).unlockingScript.toHex());
}

function errors(source: string): string[] {
  return compileScrypt(source, { file: 'T.scrypt' }).diagnostics.map(formatDiagnostic);
}

describe('sCrypt front end: what it accepts compiles, and runs as written', () => {
  it('a caller variable named like a parameter of the inlined function is still the caller’s', () => {
    // f(b, a): the first argument binds f's `a`; the second reads the caller's `a`, not f's.
    const src = `contract T { int k;
      function f(int a, int b) : int { return a - b; }
      public function g(int a, int b) { require(f(b, a) == b - a + this.k); } }`;
    assert.equal(runs(src, [0n], 'g', [7n, 3n]), true);
    assert.equal(runs(src, [1n], 'g', [7n, 3n]), false);
  });

  it('another contract instantiated in code, and its public function called: true when it runs to its end', () => {
    const src = `contract Limit { int max;
        public function check(int x) { require(x > 0); require(x <= this.max); } }
      contract T { int max;
        public function g(int x) { Limit l = new Limit(this.max); require(l.check(x)); } }`;
    assert.equal(runs(src, [10n], 'g', [5n]), true);
    assert.equal(runs(src, [10n], 'g', [11n]), false, 'its final require fails the caller');
    assert.equal(runs(src, [10n], 'g', [0n]), false, 'so does any other require');
  });

  it('++ and -- inside expressions: prefix gives the new value, postfix the old one', () => {
    const src = `contract T { int k;
      public function g(int a) { int b = a++; int c = ++a; int d = a--; require(b == this.k && c == this.k + 2 && d == c && a == c - 1); } }`;
    assert.equal(runs(src, [4n], 'g', [4n]), true);
    assert.equal(runs(src, [5n], 'g', [4n]), false);
  });

  it('a generic library built without type arguments takes them from the constructor arguments', () => {
    const src = `library Box<T> { T v; constructor(T v) { this.v = v; } function get() : T { return this.v; } }
      contract T { int k;
        public function g(int a) { Box b = new Box(a); require(b.get() + 1 == this.k); } }`;
    assert.equal(runs(src, [6n], 'g', [5n]), true);
    assert.equal(runs(src, [7n], 'g', [5n]), false);
  });

  it('int(bool) and bool(bytes) convert; a conversion through an alias compiles', () => {
    const src = `type Count = int;
      contract T { int k;
        public function g(int a) { int one = int(a > 0); bool nz = bool(num2bin(a, 2)); require(one + Count(a) == this.k && nz); } }`;
    assert.equal(runs(src, [4n], 'g', [3n]), true);
    assert.equal(runs(src, [4n], 'g', [0n]), false);
  });

  it('reports each construct code generation does not provide at its source position, before generating anything', () => {
    const cases: [string, RegExp][] = [
      ["contract T { int k; public function g(bytes b) { require(b[0] == b'00'); } }", /1:\d+: error: bytes cannot be indexed/],
      [
        'struct P { int x; } contract T { int k; public function g(int a) { P p = P(a); require(p.x == 1); } }',
        /P\(…\) is not a function; write a struct literal/,
      ],
      [
        'contract T { int k; public function g(bytes b) { require(b == Util.toLEUnsigned(1, 2)); } }',
        /Util belongs to sCrypt's standard library, but this compiler does not provide it/,
      ],
      [
        'contract T { int k; public function g(int a) { asm { OP_DROP } require(true); } }',
        /an asm block must be the whole body of a function/,
      ],
      [
        'contract T { int k; function f(int a) : int { asm { OP_FOO } } public function g(int a) { require(f(a) == 1); } }',
        /unknown opcode OP_FOO in asm/,
      ],
      [
        'contract T { int k; public function g(static const int n) { require(n == 1); } }',
        /public function g cannot take static const parameters/,
      ],
      ['contract T { int k; public function g(int a) { int b; require(a == 1); } }', /variable b needs an initial value/],
      [
        'contract T { int k; function f(int a) { require(a > 0); } public function g(int a) { require(a == 1); } }',
        /function f needs a return type/,
      ],
      ["contract T { int k; public function g(int a) { require(this.dataPart == b''); } }", /this.dataPart is set off-chain by scryptlib/],
      [
        'contract T { int k; public function g(int a) { require(len(this.getStateScript()) > a); } }',
        /getStateScript\(\) is for stateful contracts; T has no @state property/,
      ],
      [
        'contract T { @state int k; public function g(int a) { require(len(this.getStateScript()) > a); } }',
        /public function g uses the contract's state .* add one/,
      ],
      [
        'library L { int v; function get() : int { return this.v; } } contract T { int k; public function g(int a) { require(L.get() == a); } }',
        /L.get is not static; call it on a L value/,
      ],
      [
        'contract T { int k; public function g(int a) { auto p = {a, 1}; require(a == 1); } }',
        /a struct literal \{…\} needs a declared struct type/,
      ],
      ['contract T { int k; public function g(int a) { require(a << -1 == 4); } }', /the shift count of an int must not be negative/],
      // A loop count no locking script could hold (each iteration costs at least its OP_NOP).
      [
        'contract T { int k; public function g(int a) { loop (10000000) { a++; } require(a > 0); } }',
        /the loop count must be at most 9999936/,
      ],
      [
        'contract T { int k; public function g(bytes b) { require(reverseBytes(b, 10000000) == b); } }',
        /the size of reverseBytes\(\) must be from 0 to 9999936/,
      ],
      [
        'library L { int v; function get() : int { return this.v; } } contract T { int k; public function g(int a, int i) { L[2] ls = [new L(a), new L(a)]; require(ls[i].get() == a); } }',
        /get\(\) is called on a L value, which must be a variable/,
      ],
      [
        "contract T { static const int N = len(b'00'); int k; public function g(int a) { require(a == N); } }",
        /the value of static const N must be computable at compile time/,
      ],
      [
        'contract T { int k = 3; public function g(int a) { require(a == this.k); } }',
        /property k cannot have an initial value unless it is static const/,
      ],
      [
        'library L { int v; constructor(int a) { this.v = a; } } contract T { L[2] l; public function g(int a) { require(a == 1); } }',
        /property l: an array of library values with an explicit constructor cannot be a property/,
      ],
      ['contract T { int k; public function g(int a) { require(this == this); } }', /'this' can only be used as this.member/],
      [
        'library L<T> { static function f(T a) : T { return a; } } contract C { int k; public function g(int a) { require(L.f(a) == a); } }',
        /static function f cannot use the type parameter T of L/,
      ],
    ];
    for (const [source, message] of cases) {
      const found = errors(source);
      assert.ok(
        found.some((d) => message.test(d)),
        `${source}\n→ ${JSON.stringify(found)}`,
      );
      assert.ok(!found.some((d) => d.includes('internal compiler error')), `${source}\n→ ${JSON.stringify(found)}`);
    }
  });

  it('a generic library instantiated with a type its code does not fit is reported at the code, once', () => {
    const found = errors(`library Box<T> { T v; function twice() : T { return this.v + this.v; } function neg() : T { return -this.v; } }
      contract C { int k; public function g(bytes b) { Box<bytes> x = new Box(b); require(x.neg() == b); } }`);
    assert.equal(found.length, 1, JSON.stringify(found));
    assert.match(found[0], /T.scrypt:1:\d+: error: unary - needs an int, not bytes/);
  });

  it('the front end hands code generation an IR it can always emit', () => {
    const { front, diagnostics } = frontEnd(
      'contract T { int[2] a; public function g(int i) { require(this.a[i] + this.a[1] == 3); } }',
      'T.scrypt',
    );
    assert.deepEqual(diagnostics.items, []);
    assert.ok(front);
    assert.ok(generate(front.ir, front.layout).length > 10);
  });
});
