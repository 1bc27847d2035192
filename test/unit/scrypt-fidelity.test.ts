import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildContractClass, Bytes, Int } from 'scryptlib';
import { compileScrypt } from '../../main/contracts/scrypt/compile.js';
import { spends } from '../helpers/scrypt-spend.js';

/**
 * The official compiler's code shapes, each on a contract of our own whose expected output follows from
 * the documented rule (README, "Fidelity to the official compiler"): non-int static constants at the
 * bottom (library first, in declaration order: OpCode, SigHash, Tx; then the user's), negative literals
 * as one push, x++ keeping its value, multi-leaf assignment's roll/drop pattern, the standard library's
 * locals. Every contract still spends, plain and -O.
 */
const asmOf = (source: string, optimize = false) => {
  const r = compileScrypt(source, { optimize });
  assert.ok(r.asm, JSON.stringify(r.diagnostics));
  return r;
};

const HOIST = `
contract Hoist {
  static const bytes TAG = b'cafe';
  static const int[2] W = [7, 9];
  static const int K = 300;
  PubKeyHash owner;
  public function spend(SigHashPreimage txPreimage, int i) {
    require(Tx.checkPreimage(txPreimage));
    bytes out = Utils.buildPublicKeyHashScript(this.owner) + TAG;
    require(len(out) + W[i] == K);
  }
}`;

const SHAPES = `
struct P { int a; int b; }
contract Shapes {
  int x;
  public function f(int n) {
    int i = -1;
    int j = i++ + -5;
    ++i;
    P p = { 1, 2 };
    p = { j, -200 };
    require(p.a + p.b + i == n + this.x);
  }
}`;

describe('fidelity to the official compiler', () => {
  it("non-int static constants are pushed once at the bottom: OpCode, SigHash, Tx, then the user's; int constants are inlined", () => {
    const { asm } = asmOf(HOIST);
    const head = asm!.split(' ').slice(0, 13).join(' ');
    assert.equal(
      head,
      '76 88 a9 ac OP_1 40 97dfd76851bf465e8f715593b217714858bbe9570ff3bd5e33840a34e20ff026 02ba79df5f8ae7604a9830f03c7933028186aede0675a16f025dc4f8be8eec0382 1008ce7480da41702918d1ec8e6849ba32b4d65b1e40dc669c31a1e6306b266c cafe OP_7 OP_9 $owner',
      'OpCode constants in opcode order, SigHash.ALL (01) and FORKID (40), privKey, pubKey, rBigEndian, TAG, W, the property',
    );
    assert.ok(asm!.includes('2c01 OP_NUMEQUAL'), 'K = 300 (an int) is pushed where it is used, not at the bottom');
    assert.ok(asm!.includes('OP_OR'), 'checkPreimage ORs SigHash.ALL and SigHash.FORKID at run time');
  });

  it('the standard library keeps the official locals: the preimage hash, s and N in sign, the preimage length in the tail accessors', () => {
    const { asm } = asmOf(`contract L { int x; public function f(SigHashPreimage p, bytes o) {
      require(Tx.checkPreimageSigHashType(p, SigHashType(b'c1')));
      require(hash256(o) == SigHash.hashOutputs(p));
      require(SigHash.nLocktime(p) == this.x); } }`);
    const N = '414136d08c5ed2bf3ba048afe6dcaebafeffffffffffffffffffffffffffffff00';
    assert.ok(
      asm!.includes('OP_6 OP_PICK OP_HASH256 OP_0 OP_PICK OP_NOP OP_0 OP_PICK OP_1 OP_SPLIT'),
      'hash = hash256(preimage), then fromBEUnsigned(hash)',
    );
    assert.ok(asm!.includes(`OP_MUL OP_ADD OP_MUL ${N} OP_1 OP_PICK OP_1 OP_PICK OP_NOP`), 's, then the local N, then normalize(s, N)');
    assert.ok(
      asm!.includes('OP_2 OP_DIV OP_GREATERTHAN OP_IF OP_0 OP_PICK OP_2 OP_PICK OP_SUB OP_2 OP_ROLL OP_DROP OP_1 OP_ROLL OP_ENDIF'),
      'low S: s = N - s',
    );
    assert.ok(
      asm!.includes(
        'OP_0 OP_PICK OP_SIZE OP_NIP OP_1 OP_PICK OP_1 OP_PICK OP_8 OP_SUB OP_SPLIT OP_DROP OP_1 OP_PICK 28 OP_SUB OP_SPLIT OP_NIP',
      ),
      'hashOutputs: l = len(preimage), preimage[l - 40 : l - 8]',
    );
    assert.ok(
      asm!.includes('OP_1 OP_PICK OP_1 OP_PICK OP_4 OP_SUB OP_SPLIT OP_DROP OP_1 OP_PICK OP_8 OP_SUB OP_SPLIT OP_NIP'),
      'nLocktimeRaw: preimage[l - 8 : l - 4], then converted',
    );
    assert.ok(asm!.includes('c1 OP_NOP'), 'a literal sighash type is pushed at the call');
  });

  it('negative literals, x++ and ++x as values, and a struct assigned as a whole, in the official shapes', () => {
    const { asm } = asmOf(SHAPES);
    assert.equal(
      asm,
      [
        '$x OP_1NEGATE', // int i = -1: one push
        'OP_0 OP_PICK OP_DUP OP_1ADD OP_2 OP_ROLL OP_DROP OP_1 OP_ROLL 85 OP_ADD', // j = i++ + -5: the old value stays, -5 is 0x85
        'OP_1 OP_PICK OP_DUP OP_1ADD OP_3 OP_ROLL OP_DROP OP_2 OP_ROLL OP_2 OP_ROLL OP_DROP', // ++i; its unused value dropped
        'OP_1 OP_2', // P p = { 1, 2 }
        'OP_2 OP_PICK c880 OP_3 OP_ROLL OP_3 OP_ROLL OP_DROP OP_DROP', // p = { j, -200 }: n × d ROLL, n × DROP
        'OP_1 OP_PICK OP_1 OP_PICK OP_ADD OP_4 OP_PICK OP_ADD OP_6 OP_PICK OP_6 OP_PICK OP_ADD OP_NUMEQUAL',
        'OP_NIP OP_NIP OP_NIP OP_NIP OP_NIP OP_NIP',
      ].join(' '),
    );
    for (const optimize of [false, true]) {
      const C = buildContractClass(asmOf(SHAPES, optimize).artifact as never);
      const c = new C(Int(5)) as any;
      // i: -1 → 0 (j = -6) → 1; p = { -6, -200 }: -205 == n + 5.
      assert.equal(
        spends(c.lockingScript.toHex(), () => c.f(Int(-210)).unlockingScript.toHex()),
        true,
        `-O ${optimize}`,
      );
      assert.equal(
        spends(c.lockingScript.toHex(), () => c.f(Int(-209)).unlockingScript.toHex()),
        false,
        `-O ${optimize}`,
      );
    }
  });

  it("array reads, constant or run-time index: a parameter's element is PICKed in place through the alt stack; a property's (or a struct element) is read from a copy", () => {
    const src = `struct Q { bytes k; int v; }
contract Arr {
  int[3] a;
  Q[2] q;
  public function f(int i, int[2] p) {
    require(this.a[i] + p[1] + this.q[1].v == i);
  }
}`;
    const check = (size: string) => `OP_DUP OP_0 OP_GREATERTHANOREQUAL OP_VERIFY OP_DUP ${size} OP_LESSTHAN OP_VERIFY`;
    assert.equal(
      asmOf(src).asm,
      [
        '$a[0] $a[1] $a[2] $q[0].k $q[0].v $q[1].k $q[1].v',
        // this.a[i]: a copy of a, then (size − i) × 1 − 1 through the alt stack, the copy dropped
        'OP_6 OP_PICK OP_6 OP_PICK OP_6 OP_PICK OP_3 OP_13 OP_PICK',
        check('OP_3'),
        'OP_SUB OP_1 OP_MUL OP_1SUB',
        'OP_TOALTSTACK OP_FROMALTSTACK OP_DUP OP_TOALTSTACK OP_PICK OP_FROMALTSTACK OP_DROP OP_TOALTSTACK OP_DROP OP_DROP OP_DROP OP_FROMALTSTACK',
        // p[1]: in place, p[0] being 9 deep: 9 − 1 × 1
        'OP_9 OP_1',
        check('OP_2'),
        'OP_1 OP_MUL OP_SUB OP_TOALTSTACK OP_FROMALTSTACK OP_DUP OP_TOALTSTACK OP_PICK OP_FROMALTSTACK OP_DROP',
        'OP_ADD',
        // this.q[1].v: a copy of q, the element's two leaves, the copy dropped, .v kept
        'OP_4 OP_PICK OP_4 OP_PICK OP_4 OP_PICK OP_4 OP_PICK OP_2 OP_1',
        check('OP_2'),
        'OP_SUB OP_2 OP_MUL OP_1SUB',
        'OP_TOALTSTACK OP_FROMALTSTACK OP_DUP OP_TOALTSTACK OP_PICK OP_FROMALTSTACK OP_DUP OP_TOALTSTACK OP_PICK OP_FROMALTSTACK OP_DROP',
        'OP_TOALTSTACK OP_TOALTSTACK OP_DROP OP_DROP OP_DROP OP_DROP OP_FROMALTSTACK OP_FROMALTSTACK',
        'OP_0 OP_ROLL OP_1 OP_ROLL OP_DROP',
        'OP_ADD OP_10 OP_PICK OP_NUMEQUAL OP_NIP OP_NIP OP_NIP OP_NIP OP_NIP OP_NIP OP_NIP OP_NIP OP_NIP OP_NIP',
      ].join(' '),
    );
    for (const optimize of [false, true]) {
      const C = buildContractClass(asmOf(src, optimize).artifact as never);
      const c = new C(
        [Int(6), Int(8), Int(3)],
        [
          { k: Bytes('aa'), v: Int(5) },
          { k: Bytes('bb'), v: Int(-9) },
        ],
      ) as any;
      const call = (i: number, p1: number) => spends(c.lockingScript.toHex(), () => c.f(Int(i), [Int(0), Int(p1)]).unlockingScript.toHex());
      // a[i] + p[1] + q[1].v == i: 6 + 3 − 9 == 0 holds for i = 0, p[1] = 3.
      assert.equal(call(0, 3), true, `-O ${optimize}`);
      assert.equal(call(0, 4), false, `-O ${optimize}`);
      assert.equal(call(1, 3), false, `-O ${optimize}`);
      assert.equal(call(3, 3), false, `-O ${optimize}: out of bounds`);
      assert.equal(call(-1, 3), false, `-O ${optimize}: negative index`);
    }
  });

  it('stateful contracts: __codePart__ is the last property; the prelude reads the state through getStateStart; the next state through serializeState', () => {
    const { asm } = asmOf(`contract Tally {
  @state int n;
  @state bool open;
  public function bump(SigHashPreimage txPreimage, int amount) {
    require(Tx.checkPreimage(txPreimage));
    this.n++;
    require(hash256(Utils.buildOutput(this.getStateScript(), amount)) == SigHash.hashOutputs(txPreimage));
  }
}`);
    const tokens = asm!.split(' ');
    assert.equal(tokens.slice(5, 8).join(' '), '$n $open $__codePart__');
    // SigHash.scriptCode(txPreimage): preimage[104:], then readVarint with its locals l and ret.
    assert.equal(tokens.slice(8, 18).join(' '), 'OP_9 OP_PICK OP_NOP OP_0 OP_PICK 68 OP_SPLIT OP_NIP OP_NOP OP_0');
    assert.ok(
      asm!.includes(
        'OP_0 OP_PICK OP_SIZE OP_NIP OP_1 OP_PICK OP_1 OP_PICK OP_1 OP_SUB OP_SPLIT OP_DROP OP_1 OP_PICK OP_4 OP_SUB OP_1 OP_SUB OP_SPLIT OP_NIP OP_0 OP_PICK OP_BIN2NUM',
      ),
      'getStateStart: the length bytes before the version byte',
    );
    assert.ok(
      asm!.includes('OP_0 OP_PICK OP_SIZE OP_NIP OP_4 OP_NUM2BIN OP_1 OP_PICK OP_1 OP_PICK OP_CAT OP_0 OP_1 OP_NUM2BIN OP_CAT'),
      'serializeState: the state, its 4-byte length, the version',
    );
    assert.ok(asm!.includes('00 OP_1 OP_PICK OP_EQUAL OP_NOT'), "readBool: b'00' != the byte");
  });

  it('static const arrays are read at run-time indices from the bottom of the stack', () => {
    const src = `contract M { static const int[2][2] T = [[1, 2], [3, 4]]; int x;
      public function f(int i, int j) { require(T[i][j] == this.x); } }`;
    const C = buildContractClass(asmOf(src).artifact as never);
    const c = new C(Int(3)) as any;
    assert.equal(
      spends(c.lockingScript.toHex(), () => c.f(Int(1), Int(0)).unlockingScript.toHex()),
      true,
    );
    assert.equal(
      spends(c.lockingScript.toHex(), () => c.f(Int(0), Int(1)).unlockingScript.toHex()),
      false,
    );
    assert.equal(
      spends(c.lockingScript.toHex(), () => c.f(Int(2), Int(0)).unlockingScript.toHex()),
      false,
      'out of bounds',
    );
  });
});
