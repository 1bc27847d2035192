import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Int } from 'scryptlib';
import { compileScrypt } from '../../main/contracts/scrypt/compile.js';
import { runsAsExpected } from '../helpers/scrypt-run.js';

/**
 * Forms found in published contracts from outside the corpus (scryptlib's and py-scryptlib's fixtures,
 * community token and game projects) that the compiler refused or compiled wrong: here, each as a program of
 * our own, run plain and with -O through @bsv/sdk's Spend.
 */
function errorsOf(source: string): string[] {
  return compileScrypt(source).diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`);
}

describe('an array of library values with an explicit constructor as a property', () => {
  // Acc's constructor adds 7, so a value built from default arguments (0, 0) holds 7, not the 0 of an
  // empty slot: a test that the defaults were really built.
  const ACC = `library Acc {
    int total;
    constructor(int a, int b) { this.total = a + b + 7; }
    function get() : int { return this.total; }
  }`;

  it('in a contract with a constructor: elements it sets keep their values, the others are built from defaults', () => {
    const source = `${ACC}
      contract Pair {
        int k;
        Acc[2] accs;
        Acc[3] idle;
        constructor(int k) {
          this.k = k;
          this.accs[1] = new Acc(k, 1);
        }
        public function check(int x) {
          require(this.accs[0].get() + this.accs[1].get() + this.idle[2].get() == x);
        }
      }`;
    // accs[0] and idle[2] from defaults: 7 each; accs[1] = 5 + 1 + 7 = 13.
    runsAsExpected(
      source,
      'check',
      [
        [[Int(27)], true],
        [[Int(20)], false],
        [[Int(13)], false],
      ],
      [Int(5)],
    );
  });

  it('inside a struct property, built where it stands, whether the constructor leaves the property alone or sets parts of it', () => {
    const holder = (body: string) => `${ACC}
      struct Slots { int n; Acc[2] accs; }
      contract Holder {
        int k;
        Slots slots;
        constructor(int k) { this.k = k; ${body} }
        public function check(int x) {
          require(this.slots.accs[0].get() + this.slots.accs[1].get() + this.slots.n + this.k == x);
        }
      }`;
    // Left alone: 7 + 7 + 0 + 3.
    runsAsExpected(
      holder(''),
      'check',
      [
        [[Int(17)], true],
        [[Int(3)], false],
      ],
      [Int(3)],
    );
    // A field and one element set: the other element still from defaults, 7 + (3 + 0 + 7) + 3 + 3.
    runsAsExpected(
      holder('this.slots.n = k; this.slots.accs[1] = new Acc(k, 0);'),
      'check',
      [
        [[Int(23)], true],
        [[Int(16)], false],
      ],
      [Int(3)],
    );
  });

  it('without a contract constructor is still refused, at the property, saying what would allow it', () => {
    const found = errorsOf(`${ACC} contract T { Acc[2] accs; public function g(int a) { require(a == 1); } }`);
    assert.ok(
      found.some((d) =>
        /^5:\d+ property accs: an array of library values with an explicit constructor cannot be a property of a contract without a constructor/.test(
          d,
        ),
      ),
      JSON.stringify(found),
    );
  });
});

describe('documentation excerpts', () => {
  // Tutorials and language pages publish contracts with `...` for the parts they leave out; compiled as
  // they are, the error names the `...` itself (not a stray '.') at its position.
  it('refuses ... where code was left out, naming it at its line and column', () => {
    const inBody = errorsOf(`contract Excerpt {
  ...
  public function f(int a) {
    require(a == 1);
  }
}`);
    assert.match(inBody[0], /^2:3 expected a type but found '\.\.\.', which stands for code left out/);
    const inValue = errorsOf(`struct Point { int x; int y; }
contract Excerpt {
  public function f(int a) {
    Point p = {...};
    require(a == 1);
  }
}`);
    assert.match(inValue[0], /^4:16 expected an expression but found '\.\.\.', which stands for code left out/);
  });

  it('keeps a single . for member access and two dots as two tokens', () => {
    assert.deepEqual(errorsOf('contract T { int k; public function f(int a) { require(this.k == a); } }'), []);
    assert.ok(errorsOf('contract T { int k; public function f(int a) { require(this..k == a); } }').some((d) => /found '\.'/.test(d)));
  });
});
