import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Bytes, Int, Sha256 } from 'scryptlib';
import { compileScrypt, type CompileOptions } from '../../main/contracts/scrypt/compile.js';
import { compiledScrypt, runsAsExpected } from '../helpers/scrypt-run.js';

/**
 * Forms that published contracts use and the compiler once refused (the corpus has a contract of each:
 * lib-new-expr, lib-call-result, hashed-set-legacy, asm-loop-const, own-state-names, length-old-name,
 * lib-ctor-nested, lib-ctor-nested-param): here, their code shape and the edges around them, each program
 * our own and run plain and with -O. Also the rules published contracts showed the compiler lacked: `this`
 * in a static function, the older `struct T` type form, and bytes becoming a subtype only through a cast.
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

describe('this in a static function', () => {
  // In a static function `this` names its contract or library itself, as `this` in a static method of a
  // TypeScript class (what scrypt-ts contracts are): this.f(…) is Owner.f(…), this.N is Owner.N.
  const lib = `library Sq {
      static const int K = 3;
      static function sq(int x) : int { return x * x; }
      static function sq3(int x) : int { int[this.K] a = repeat(this.sq(x), this.K); return a[0] + a[1] + a[2]; } }`;
  const source = `${lib} contract A {
      static const int M = 2;
      static function dbl(int x) : int { int s = 0; loop (this.M) { s += x; } return s; }
      static function both(int x) : int { return this.dbl(x) + Sq.sq3(x); }
      public function f(int x, int y) { require(A.both(x) == y); } }`;

  it('calls the static functions and reads the static consts of its own contract or library', () => {
    runs(source, 'f', [
      [[Int(2), Int(4 + 12)], true],
      [[Int(-3), Int(-6 + 27)], true],
      [[Int(2), Int(15)], false],
    ]);
  });

  it('in a generic library, takes the type arguments of the value whose method called it', () => {
    const generic = `library G<T> { T v;
      static function id(T x) : T { return x; }
      static function twice(T x) : T[2] { return [this.id(x), G.id(x)]; }
      function get() : T { return this.twice(this.v)[1]; } }
      contract A { public function f(int x, bytes b) { G<int> g = new G(x); G<bytes> h = new G(b); require(g.get() == x && h.get() == b); } }`;
    runs(generic, 'f', [
      [[Int(7), Bytes('abcd')], true],
      [[Int(-1), Bytes('')], true],
    ]);
  });

  it('compiles this.f(…) and this.N to the code of Owner.f(…) and Owner.N, in contracts and libraries', () => {
    const byName = source.replace(/this\.(sq|K)\b/g, 'Sq.$1').replace(/this\.(dbl|M)\b/g, 'A.$1');
    assert.notEqual(byName, source);
    assert.equal(compiled(source).hex, compiled(byName).hex);
    assert.equal(compiled(source, { optimize: true }).hex, compiled(byName, { optimize: true }).hex);
  });

  it('refuses what belongs to a value: a function or property that is not static, the stateful members', () => {
    assert.deepEqual(
      errorsOf(`contract A { int p; function g(int x) : int { return x + this.p; }
      static function s(int x) : int { return this.g(x) + this.p; }
      public function f(int x) { require(A.s(x) == x); } }`),
      [
        '2:47 g is not static, so static function s cannot use this.g(…): in a static function this names A itself, not a value of it',
        '2:59 p is not static, so static function s cannot use this.p: in a static function this names A itself, not a value of it',
      ],
    );
    assert.deepEqual(
      errorsOf(`contract A { @state int n;
      static function s(int x) : bytes { this.n = x; return this.getStateScript(); }
      public function f(SigHashPreimage p) { require(A.s(1) == b'' && this.updateState(p, 1)); } }`),
      [
        '2:42 n is not static, so static function s cannot use this.n: in a static function this names A itself, not a value of it',
        '2:61 getStateScript is not static, so static function s cannot use this.getStateScript(…): in a static function this names A itself, not a value of it',
      ],
    );
    // A member it does not have, `this` as a value, and `this` where there is no function at all.
    assert.deepEqual(
      errorsOf(
        'library L { static function s(int x) : int { return this.t(x); } } contract A { public function f(int x) { require(L.s(x) == x); } }',
      ),
      ["1:57 L has no function 't'"],
    );
    assert.match(
      errorsOf(
        'contract A { static function s(int x) : int { auto t = this; return x; } public function f(int x) { require(A.s(x) == x); } }',
      )[0] ?? '',
      /'this' cannot be used in static function s/,
    );
    assert.deepEqual(
      errorsOf('contract A { static const int N = 1; static const int M = this.N; public function f(int x) { require(x == A.M); } }'),
      ["1:59 'this' cannot be used in static property M"],
    );
  });
});

describe('struct T as a type (the older form)', () => {
  const source = (s: string) => `struct Point { int x; int y; }
    struct Pair<T> { T a; T b; }
    library Box<T> { T v; function get() : T { return this.v; } }
    contract A {
      ${s}Point start;
      static const ${s}Point[2] CORNERS = [{0, 0}, {1, 1}];
      static function flip(${s}Point p) : ${s}Point { return {p.y, p.x}; }
      function sum(${s}Point[2] ps) : int { return ps[0].x + ps[1].y; }
      public function f(int x, ${s}Pair<int> q) {
        ${s}Point p = A.flip({x, 1});
        ${s}Pair<int>[1] qs = [q];
        Box<${s}Point> b = new Box(p);
        require(this.sum([p, this.start]) == 1 + this.start.y && b.get().y == x && qs[0].a + qs[0].b == x && A.CORNERS[1].x == 1);
      }
    }`;

  it('is the struct wherever a struct name is: locals, parameters, return types, properties, constants, arrays, type arguments', () => {
    const start = { x: Int(5), y: Int(7) };
    runs(
      source('struct '),
      'f',
      [
        [[Int(3), { a: Int(1), b: Int(2) }], true],
        [[Int(3), { a: Int(1), b: Int(1) }], false],
      ],
      [start],
    );
    const tagged = compiled(source('struct '));
    const plain = compiled(source(''));
    assert.equal(tagged.hex, plain.hex);
    assert.deepEqual(tagged.artifact!.abi, plain.artifact!.abi);
    assert.deepEqual(tagged.artifact!.structs, plain.artifact!.structs);
  });

  it('must name a struct', () => {
    assert.deepEqual(
      errorsOf(`type P = int; library L<T> { T v; static function id(struct T t) : int { return 1; } }
      contract A { function g(struct int a, struct P b, struct L c, struct Nope d) : bool { return true; }
      public function f(int x) { struct A a = new A(); require(x == 1); } }`),
      [
        '1:61 struct T names a struct, but T is a type parameter',
        '2:38 struct int names a struct, but int is a basic type',
        '2:52 struct P names a struct, but P is a type alias',
        '2:64 struct L names a struct, but L is a library',
        '2:76 unknown type Nope',
        '3:41 struct A names a struct, but A is a contract',
      ],
    );
    // Without a name after it, struct is not a type.
    assert.deepEqual(errorsOf('contract A { public function f(int x) { struct = 1; require(x == 1); } }'), [
      "1:41 expected an expression but found 'struct'",
    ]);
  });
});

describe('bytes to a subtype of bytes needs a cast', () => {
  // syntax.rst, "Subtypes of bytes": "to cast a supertype bytes to them, a function of the type name must be
  // explicitly called". A subtype goes where bytes is expected as it is.
  it('accepts PubKey(b), a subtype where bytes goes, and operators that keep the subtype', () => {
    const source = `contract A {
      Sha256 h;
      static function raw(bytes b) : bytes { return b; }
      public function f(bytes x, bytes hb) {
        Sha256 d = Sha256(hb);
        Sha256[2] ds = [sha256(x), d];
        bytes b = d;
        SigHashType t = SigHash.ALL | SigHash.ANYONECANPAY;
        OpCodeType o = OpCode.OP_DUP + OpCode.OP_ADD;
        bytes either = len(x) > 0 ? d : x;
        require(ds[0] == this.h && ds[1] == ds[0] && A.raw(ds[1]) == hb && b == either && t == SigHashType(b'81') && o == OpCodeType(b'7693'));
      }
    }`;
    const h = Sha256('2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824'); // sha256('hello')
    runs(
      source,
      'f',
      [
        [[Bytes('68656c6c6f'), Bytes('2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824')], true],
        [[Bytes('68656c6c6f'), Bytes('2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9825')], false],
      ],
      [h],
    );
  });

  it('refuses plain bytes where a subtype is expected, at the value, saying which cast it needs', () => {
    assert.deepEqual(
      errorsOf(`struct K { PubKey k; }
library L { static function pk(bytes b) : PubKey { return b; } }
contract A {
  PubKey owner;
  public function f(bytes b, Sig s, bytes[2] bs) {
    PubKey pk = b;
    PubKey[2] ks = bs;
    K k = {b};
    this.owner = b;
    Ripemd160[1] rs = [b'00'];
    require(checkSig(s, b) && L.pk(b) == PubKey(b));
  }
}`),
      [
        '2:59 pk returns PubKey, not bytes: bytes becomes PubKey only through an explicit cast, PubKey(…)',
        '6:17 cannot assign bytes to PubKey pk: bytes becomes PubKey only through an explicit cast, PubKey(…)',
        '7:20 cannot assign bytes[2] to PubKey[2] ks: bytes becomes PubKey only through an explicit cast (of each item), PubKey(…)',
        '8:12 field k of K must be PubKey, not bytes: bytes becomes PubKey only through an explicit cast, PubKey(…)',
        '9:18 cannot assign bytes to this.owner (PubKey): bytes becomes PubKey only through an explicit cast, PubKey(…)',
        '10:24 item 0 must be Ripemd160, not bytes: bytes becomes Ripemd160 only through an explicit cast, Ripemd160(…)',
        '11:25 argument 2 of checkSig() must be PubKey, not bytes: bytes becomes PubKey only through an explicit cast, PubKey(…)',
      ],
    );
  });

  it('reads a stateful contract’s subtype state back with a cast that costs no code', () => {
    const source = (t: string) => `contract S {
      @state ${t} owner;
      @state int n;
      public function bump(SigHashPreimage p, int amount) { this.n++; require(this.updateState(p, amount)); } }`;
    assert.equal(compiled(source('PubKeyHash')).hex, compiled(source('bytes')).hex);
    assert.equal(compiled(source('PubKey')).hex, compiled(source('bytes')).hex);
  });
});
