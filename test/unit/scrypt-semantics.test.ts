import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Program } from '../../main/contracts/scrypt/ast.js';
import { compileScrypt, relocateStdlibDiagnostics, withStdlib } from '../../main/contracts/scrypt/compile.js';
import { Diagnostics, formatDiagnostic } from '../../main/contracts/scrypt/diagnostics.js';
import { parse } from '../../main/contracts/scrypt/parser.js';
import { checkProgram } from '../../main/contracts/scrypt/semantics/index.js';
import { ROOT } from '../helpers/headless.js';

const FIXTURES = path.join(ROOT, 'test', 'fixtures');
const ERRORS = path.join(FIXTURES, 'scrypt-errors');

const scryptFiles = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.scrypt'))
    .map((f) => ({ file: `${path.basename(dir)}/${f}`, source: readFileSync(path.join(dir, f), 'utf8') }));

/** Every valid source we have: the compiler corpus, the parse-only sources, the saved scrypt-ts transpiler output. */
const corpus = [
  ...scryptFiles(path.join(FIXTURES, 'scrypt')),
  ...scryptFiles(path.join(FIXTURES, 'scrypt-parse')),
  ...scryptFiles(path.join(FIXTURES, 'scrypt-ts', 'transpiled')),
];

/**
 * Parses and runs the semantic passes; `stdlib` adds the standard library as compile.ts does (a declaration
 * taking one of its names is refused there, before the passes), and moves any diagnostic arising in library
 * code into the user's file.
 */
function check(source: string, file = 'T.scrypt', stdlib = true): string[] {
  const { program, diagnostics } = parse(source, file);
  assert.deepEqual(diagnostics.items.map(formatDiagnostic), [], `${file} parses`);
  const full: Program = stdlib ? withStdlib(program, diagnostics) : program;
  if (!diagnostics.hasErrors) checkProgram(full, diagnostics);
  if (stdlib) relocateStdlibDiagnostics(diagnostics, program.items[program.items.length - 1]?.at ?? { line: 1, column: 1 });
  return diagnostics.items.map(formatDiagnostic);
}

/** Valid programs written for these passes: each exercises features a careless checker would reject. */
const VALID: { name: string; source: string }[] = [
  {
    name: 'generics',
    source: String.raw`
struct Pair<K, V> {
  K key;
  V value;
}

library Box<T> {
  T item;
  int count;

  constructor(T item, int count) {
    this.item = item;
    this.count = count;
  }

  function get() : T {
    return this.item;
  }

  function same(T other) : bool {
    return this.item == other;
  }

  function bump(int by) : int {
    return this.count + by + this.helper();
  }

  private function helper() : int {
    return 1;
  }
}

contract Generic {
  Pair<int, bytes> stored;

  public function check(int k, bytes v) {
    Pair<int, bytes> p = {k, v};
    Box<int> b = new Box(k, 2);
    Box<bytes> c = new Box(v, 0);
    auto got = b.get();
    require(got + 1 > k);
    require(c.same(v) && b.bump(1) == 4);
    require(p.key == this.stored.key && p.value + b'00' != this.stored.value);
  }
}
`,
  },
  {
    name: 'arrays',
    source: String.raw`
static const int N = 3;
type Row = int[N];

library Util {
  static const int SIZE = 2;

  static function total(static const int n, int[n] xs) : int {
    int s = 0;
    loop (n) : i {
      s += xs[i];
    }
    return s;
  }

  static function bumped(static const int n, int[n] xs) : int[n] {
    loop (n) : i {
      xs[i] += i;
    }
    return xs;
  }
}

contract Arrays {
  int[2][N] grid;
  Row base;

  public function check(int[Util.SIZE] pair, int k) {
    int[2][3] d = [[11, 12, 13], [21, 22, 23]];
    d[1][2] = k;
    d[0][1]++;
    int[3] row = d[1];
    require(row == d[1]);
    Row r = Util.bumped(N, repeat(1, N));
    int[N] ones = repeat(1, N);
    int[2][N] zeros = repeat(repeat(0, N), 2);
    require(zeros[0] == this.grid[1] || Util.total(N, r) == 6);
    auto xs = [1, 2, 3];
    xs[0] = xs[k];
    require(Util.total(3, xs) + ones[0] + this.base[2] > pair[1]);
    loop (Util.SIZE) : i {
      loop (N) : j {
        this.grid[i][j] = i * j;
      }
    }
    require(this.grid[1][2] == d[0][k]);
  }
}
`,
  },
  {
    name: 'structs',
    source: String.raw`
struct Point {
  int x;
  int y;
}

struct Line {
  Point start;
  Point end;
}

contract Structs {
  Line line;
  const Point origin;

  constructor(Line line, Point origin) {
    this.line = line;
    this.origin = origin;
  }

  static function add(Point a, Point b) : Point {
    return {a.x + b.x, a.y + b.y};
  }

  public function check(Point p, int dx) {
    Point q = p;
    q.y = 20;
    Line l = {p, q};
    l.start.x = l.end.y + 1;
    Point s = Structs.add(l.start, this.origin);
    Point[2] ps = [p, {dx, dx}];
    ps[1].x = 3;
    require(s == add(p, q) || ps[1] != this.line.end);
    this.line.start = {1, 2};
    require(this.line.start.x + ps[0].y >= dx);
  }
}
`,
  },
  {
    name: 'multi',
    source: String.raw`
contract HashLock {
  Ripemd160 hash;

  public function spend(bytes preimage) {
    require(hash160(preimage) == this.hash);
  }
}

contract PayToKey {
  PubKey pubKey;

  public function spend(Sig sig) {
    require(checkSig(sig, this.pubKey));
  }
}

contract Both {
  PubKeyHash pkh;

  public function spend(Sig sig, PubKey pubKey) {
    HashLock hl = new HashLock(this.pkh);
    require(hl.spend(pubKey));
    PayToKey pk = new PayToKey(pubKey);
    require(pk.spend(sig));
  }
}
`,
  },
  {
    name: 'misc',
    source: String.raw`
type Hash = Sha256;
type Age = int;

contract Misc {
  static const int LIMIT = 10;
  static const int NEG = -1;
  const int scale;
  @state int counter;
  @state bytes log;
  PubKey[3] keys;
  PrivKey secret;

  constructor(int scale, int counter, bytes log, PubKey[3] keys, PrivKey secret) {
    this.scale = scale;
    this.counter = counter;
    this.log = log;
    this.keys = keys;
    this.secret = secret;
  }

  private function pick(bool c, PubKey a, PubKey b) : PubKey {
    return c ? a : b;
  }

  function noThis(int a) : int {
    return a * Misc.LIMIT + LIMIT + NEG;
  }

  public function run(int x, bytes b, Sig s1, Sig s2, SigHashPreimage txPreimage) {
    int y = x;
    {
      int y = 2;
      y++;
    }
    if (x) {
      y -= 1;
    }
    if (b) {
      exit(true);
    }
    if (x == 0) y = 1; else if (x < 0) y = -x; else {
      y = x % 3;
    }
    const int k = 5;
    Age age = k + y;
    Hash h = sha256(b + "text");
    Sha256 raw = Sha256(b'00');
    bytes joined = b'10' & b'73';
    joined += b'ff';
    joined = joined | b'00';
    int bits = (x << 2) >> 1 ^ 7 & ~y | 1;
    PubKey k0 = PubKey(b);
    Sig s0 = Sig(b'30');
    SigHashType t = SigHashType(b'41');
    PrivKey pk = PrivKey(0x12);
    Ripemd160 r = Ripemd160(sha256(k0));
    PubKeyHash pkh = hash160(this.pick(x > 1, k0, this.keys[0]));
    require(r != pkh && len(s0) > 0 && t == b'41' && pk + 1 > 0);
    require(h != raw && joined != b'' && within(bits, -10, 1000) && min(age, 3) == max(1, 2));
    require(abs(this.noThis(k)) >= 0 && unpack(num2bin(x, 4)) == x && pack(x) == reverseBytes(pack(x), 1));
    ***
    asm {
      OP_NOP
    }
    require(checkMultiSig([s1, s2], this.keys));
    this.counter++;
    this.log = this.log + pack(this.counter);
    bytes outputScript = this.getStateScript();
    require(this.updateState(txPreimage, SigHash.value(txPreimage)));
    require(len(outputScript) > 0 && Tx.checkPreimage(txPreimage));
  }

  public function other(int a) {
    require(++a > 1 && a-- != 3);
  }
}
`,
  },
  {
    name: 'transpiled',
    source: String.raw`
struct Point {
  int x;
  int y;
}

struct Line {
  Point a;
  Point b;
}

library MathLib {
  static function sum(int[3] xs) : int {
    int s = 0;
    loop (3) : i {
        s += xs[i];
      }
    return s;
  }
  static function add(Point p, Point q) : Point {
    return {p.x + q.x, p.y + q.y};
  }
}
struct __scrypt_ts_Change {  int amount;  Ripemd160 address;}

contract Rich {
  @state int total;
  @state bytes[3] tags;
  const Ripemd160 owner;
  const Point origin;
  bytes __scrypt_ts_ctx_hashoutputs;
  int __scrypt_ts_ctx_locktime;
  int __scrypt_ts_ctx_sequence;
  int __scrypt_ts_ctx_value;
  __scrypt_ts_Change __scrypt_ts_change;
  constructor(int total, bytes[3] tags, Ripemd160 owner, Point origin) {
    this.total = total;
    this.tags = tags;
    this.owner = owner;
    this.origin = origin;
  }
  private function mix(int a, bytes b) : bytes {
    int n = a < 0 ? -a : a;
    return num2bin(n, 4) + b + pack(n);
  }
  public function step(int delta, Sig sig, PubKey pubKey, Point[2] ps, SigHashPreimage __scrypt_ts_txPreimage, int __scrypt_ts_changeAmount, Ripemd160 __scrypt_ts_changeAddress) {
    require(Tx.checkPreimageSigHashType(__scrypt_ts_txPreimage, SigHashType(b'41')));
    this.__scrypt_ts_ctx_hashoutputs = SigHash.hashOutputs(__scrypt_ts_txPreimage);
    this.__scrypt_ts_ctx_locktime = SigHash.nLocktime(__scrypt_ts_txPreimage);
    this.__scrypt_ts_ctx_sequence = SigHash.nSequence(__scrypt_ts_txPreimage);
    this.__scrypt_ts_ctx_value = SigHash.value(__scrypt_ts_txPreimage);
    this.__scrypt_ts_change = {__scrypt_ts_changeAmount, __scrypt_ts_changeAddress};
    require(hash160(pubKey) == this.owner);
    require(checkSig(sig, pubKey));
    require(within(delta, 0, 100));
    int[3] xs = repeat(delta, 3);
    Line line = {ps[0], MathLib.add(ps[1], this.origin)};
    this.total += MathLib.sum(xs) + line.a.x + max(min(abs(delta), 5), 1);
    loop (3) : i {
        this.tags[i] = this.mix(delta + (i), this.tags[i]);
      }
    bytes head = this.tags[0][0 : 2];
    bytes rev = reverseBytes(head, 2);
    require(len(rev) == 2 || unpack(rev) != 0);
    Sha256 h = sha256("hello");
    require(h != Sha256(b''));
    bytes outputs = this.buildStateOutput(this.__scrypt_ts_ctx_value);
    outputs += this.buildChangeOutput();
    require(this.__scrypt_ts_ctx_hashoutputs == hash256(outputs));
  }
  public function unlockLater(int locktime, SigHashPreimage __scrypt_ts_txPreimage) {
    require(Tx.checkPreimageSigHashType(__scrypt_ts_txPreimage, SigHashType(b'41')));
    this.__scrypt_ts_ctx_hashoutputs = SigHash.hashOutputs(__scrypt_ts_txPreimage);
    this.__scrypt_ts_ctx_locktime = SigHash.nLocktime(__scrypt_ts_txPreimage);
    this.__scrypt_ts_ctx_sequence = SigHash.nSequence(__scrypt_ts_txPreimage);
    this.__scrypt_ts_ctx_value = SigHash.value(__scrypt_ts_txPreimage);
    require(this.timeLock(locktime));
    if(locktime > 5) {
        require(true);
      } else {
        require(locktime >= 0);
      }
    require(true);
  }
  function timeLock(int locktime): bool {  bool res = true;  res = this.__scrypt_ts_ctx_sequence < 0xffffffff;  if (    locktime < 500000000  ) {    res = res && this.__scrypt_ts_ctx_locktime < 500000000;  }  return res && this.__scrypt_ts_ctx_locktime >= locktime;}
  function buildStateOutput(int amount) : bytes {  return Utils.buildOutput(this.getStateScript(), amount);}
  function buildChangeOutput() : bytes {  return this.__scrypt_ts_change.amount > 0 ? Utils.buildOutput(Utils.buildPublicKeyHashScript(this.__scrypt_ts_change.address), this.__scrypt_ts_change.amount) : b'';}
}
`,
  },
  {
    name: 'asm-function',
    source: String.raw`
contract AsmFunction {
  Ripemd160 pkh;

  // A function written in Script (asm.rst): no return statement, the result is left on the stack.
  function len(bytes b) : int {
    asm {
      OP_SIZE
      OP_NIP
    }
  }

  public function unlock(bytes b, int n) {
    int len = len(b);
    require(len == n && hash160(b) == this.pkh);
  }
}
`,
  },
];

describe('sCrypt semantic passes: no false positives', () => {
  it('finds the corpus', () => assert.ok(corpus.length >= 10, `${corpus.length} files`));

  for (const { file, source } of corpus) {
    it(`${file}: no semantic errors, with the standard library and without it`, () => {
      assert.deepEqual(check(source, file), []);
      assert.deepEqual(check(source, file, false), [], 'undeclared standard names (Tx, SigHash, Utils) are accepted');
    });
  }

  for (const { name, source } of VALID) {
    it(`accepts ${name}`, () => {
      assert.deepEqual(check(source, `${name}.scrypt`), []);
    });
  }

  it('accepts the standard library itself', () => {
    assert.deepEqual(
      check('contract A { public function f(SigHashPreimage p) { require(Tx.checkPreimage(p) && SigHash.value(p) > 0); } }'),
      [],
    );
  });
});

/** `// expect: <line>:<column> <message regex>` on the first line of each negative fixture. */
const negative = readdirSync(ERRORS).flatMap((errorClass) =>
  readdirSync(path.join(ERRORS, errorClass))
    .filter((f) => f.endsWith('.scrypt'))
    .map((f) => {
      const source = readFileSync(path.join(ERRORS, errorClass, f), 'utf8');
      const m = /^\/\/ expect: (\d+):(\d+) (.+)$/.exec(source.split('\n')[0]);
      assert.ok(m, `${errorClass}/${f} starts with // expect: <line>:<column> <regex>`);
      return { errorClass, file: f, source, line: Number(m[1]), column: Number(m[2]), message: new RegExp(m[3]) };
    }),
);

describe('sCrypt semantic passes: errors (test/fixtures/scrypt-errors/<ErrorClass>/<case>.scrypt)', () => {
  it('has at least two cases for every error class', () => {
    const counts = new Map<string, number>();
    for (const n of negative) counts.set(n.errorClass, (counts.get(n.errorClass) ?? 0) + 1);
    assert.ok(counts.size >= 15, `${counts.size} classes`);
    for (const [cls, n] of counts) assert.ok(n >= 2, `${cls} has ${n} case(s)`);
  });

  for (const n of negative) {
    it(`${n.errorClass}/${n.file}`, () => {
      const errors = check(n.source, n.file);
      const want = `${n.file}:${n.line}:${n.column}: error: `;
      assert.ok(
        errors.some((e) => e.startsWith(want) && n.message.test(e.slice(want.length))),
        `expected ${want}${n.message.source}\ngot:\n${errors.join('\n')}`,
      );
    });
  }

  it('reports several errors from one file at once, in source order, each with its position', () => {
    const source = [
      'struct Point {', //                                     1
      '  int x;', //                                             2
      '}', //                                                    3
      'contract A {', //                                         4
      '  static const int N = 2;', //                            5
      '  private function loopy(int a) : int {', //              6
      '    return this.loopy(a);', //                            7  recursion
      '  }', //                                                  8
      '  public function f(int a, int n, Sig s) {', //           9
      '    int b = missing + 1;', //                             10 undefined name
      '    int b = 2;', //                                       11 redeclaration
      '    N = 3;', //                                           12 assignment to a constant
      '    Point p = {a, a};', //                                13 struct literal size
      '    PubKey k = s;', //                                    14 Sig is not a PubKey
      '    loop (n) { b++; }', //                                15 not a compile-time constant
      '    require(b == this.loopy(a));', //                     16
      '    b = 0;', //                                           17 no final require
      '  }', //                                                  18
      '}', //                                                    19
    ].join('\n');
    const errors = check(source, 'Many.scrypt');
    const expected = [
      /^Many\.scrypt:7:12: error: recursion is not allowed: loopy → loopy$/,
      /^Many\.scrypt:9:3: error: public function f must end with require\(…\), not an assignment$/,
      /^Many\.scrypt:10:13: error: unknown name 'missing'$/,
      /^Many\.scrypt:11:5: error: 'b' is already declared in this scope \(line 10\)$/,
      /^Many\.scrypt:12:5: error: cannot assign to the constant N$/,
      /^Many\.scrypt:13:15: error: struct Point has 1 fields, not 2/,
      /^Many\.scrypt:14:16: error: cannot assign Sig to PubKey k$/,
      /^Many\.scrypt:15:11: error: the loop count must be a compile-time constant/,
    ];
    assert.equal(errors.length, expected.length, errors.join('\n'));
    expected.forEach((re, i) => assert.match(errors[i], re));
  });

  it('runs in compileScrypt between parsing and code generation: semantic errors stop the compile', () => {
    const bad = compileScrypt('contract A {\n  public function f(Sig s, PubKey k) {\n    require(checkSig(k, s));\n  }\n}\n', {
      file: 'A.scrypt',
    });
    assert.equal(bad.artifact, null);
    assert.deepEqual(bad.diagnostics.map(formatDiagnostic), [
      'A.scrypt:3:22: error: argument 1 of checkSig() must be Sig, not PubKey',
      'A.scrypt:3:25: error: argument 2 of checkSig() must be PubKey, not Sig',
    ]);
    const good = compileScrypt('contract A {\n  public function f(Sig s, PubKey k) {\n    require(checkSig(s, k));\n  }\n}\n');
    assert.deepEqual(good.diagnostics, []);
    assert.ok(good.hex);
  });

  it('reports into the Diagnostics it is given, one error per position', () => {
    const { program } = parse('contract A { public function f(int a) { require(nope(a) + nope(a)); } }');
    const diags = new Diagnostics('X.scrypt');
    checkProgram(program, diags);
    assert.deepEqual(diags.items.map(formatDiagnostic), [
      "X.scrypt:1:49: error: unknown function 'nope'",
      "X.scrypt:1:59: error: unknown function 'nope'",
    ]);
  });
});

describe('sCrypt semantic passes: robustness', () => {
  it('never crash, whatever tree the parser accepts (fuzz over edited valid sources)', () => {
    const sources = [...corpus.map((c) => c.source), ...VALID.map((v) => v.source)];
    const pieces = [
      'this',
      '.',
      'x',
      '(',
      ')',
      '[',
      ']',
      '{',
      '}',
      '0',
      '-1',
      'int',
      'a',
      'loop (2) : i',
      'return 1;',
      'require(true);',
      '<int>',
      '++',
      '=',
      ';',
      ',',
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...sources),
        fc.array(fc.tuple(fc.nat(), fc.nat(4), fc.oneof(fc.string({ maxLength: 3 }), fc.constantFrom(...pieces))), { maxLength: 5 }),
        (src, edits) => {
          let s = src;
          for (const [pos, del, ins] of edits) {
            const p = pos % (s.length + 1);
            s = s.slice(0, p) + ins + s.slice(p + del);
          }
          const { program, diagnostics } = parse(s);
          if (diagnostics.hasErrors) return;
          checkProgram(program, diagnostics);
          for (const d of diagnostics.items) assert.ok(d.line >= 1 && d.column >= 1 && d.message.length > 0);
        },
      ),
      { numRuns: 1500 },
    );
  });
});
