import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { formatDiagnostic } from '../../main/contracts/scrypt/diagnostics.js';
import { parse } from '../../main/contracts/scrypt/parser.js';
import { ROOT } from '../helpers/headless.js';

// The compiled corpus, plus sources that only the parser takes (imports, every construct in one file).
const FIXTURES = ['scrypt', 'scrypt-parse'].map((d) => path.join(ROOT, 'test', 'fixtures', d));
const corpus = FIXTURES.flatMap((dir) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.scrypt'))
    .map((f) => ({ file: f, source: readFileSync(path.join(dir, f), 'utf8') })),
);

const errorsOf = (source: string) => parse(source, 'T.scrypt').diagnostics.items.map(formatDiagnostic);

describe('sCrypt parser', () => {
  for (const { file, source } of corpus) {
    it(`parses ${file} without errors`, () => {
      const { program, diagnostics } = parse(source, file);
      assert.deepEqual(diagnostics.items.map(formatDiagnostic), []);
      assert.ok(program.items.length > 0);
    });
  }

  it('builds the tree a compiler needs (contract, properties, functions, statements, precedence)', () => {
    const { program } = parse(corpus.find((c) => c.file === 'p2pkh.scrypt')!.source);
    const c = program.items[0];
    assert.equal(c.kind, 'contract');
    if (c.kind !== 'contract') return;
    assert.deepEqual(
      c.properties.map((p) => [p.type.name, p.name]),
      [['Ripemd160', 'pubKeyHash']],
    );
    const f = c.functions[0];
    assert.deepEqual(
      [f.name, f.visibility, f.params.map((p) => `${p.type.name} ${p.name}`)],
      ['unlock', 'public', ['Sig sig', 'PubKey pubKey']],
    );
    const first = f.body[0];
    assert.equal(first.kind, 'require');
    if (first.kind === 'require') {
      assert.equal(first.cond.kind, 'binary');
      if (first.cond.kind === 'binary') {
        assert.equal(first.cond.op, '==');
        assert.equal(first.cond.left.kind, 'call');
        assert.equal(first.cond.right.kind, 'member');
      }
    }
    const expr = parse('contract A { public function f(int a) { require(a + 2 * 3 == 7 || !true && a < 1); } }').program.items[0];
    const cond = expr.kind === 'contract' && expr.functions[0].body[0].kind === 'require' ? expr.functions[0].body[0].cond : null;
    assert.equal(cond?.kind === 'binary' && cond.op, '||', '|| binds loosest');
    const kitchen = parse(corpus.find((x) => x.file === 'kitchen-sink.scrypt')!.source).program;
    assert.deepEqual(
      kitchen.items.map((i) => `${i.kind} ${i.name}`),
      ['const N', 'alias Hash', 'struct Point', 'struct Pair', 'library Maths', 'library Box', 'contract KitchenSink'],
    );
    assert.deepEqual(
      kitchen.imports.map((i) => i.path),
      ['util.scrypt'],
    );
  });

  it('reports errors at their line and column, several in one run', () => {
    const errors = errorsOf(
      [
        'contract A {',
        '  int x',
        '  public function f(int a) {',
        '    require(a == 1)',
        '    int b = ;',
        '    require(b > 0);',
        '  }',
        '}',
      ].join('\n'),
    );
    assert.deepEqual(errors, [
      "T.scrypt:3:3: error: expected ';' but found 'public'",
      "T.scrypt:5:5: error: expected ';' but found 'int'",
      "T.scrypt:5:13: error: expected an expression but found ';'",
    ]);
  });

  it('explains lexical errors', () => {
    assert.deepEqual(errorsOf("contract A { bytes b = b'abc'; }"), [
      "T.scrypt:1:24: error: bytes literal b'abc' must be an even number of hex digits",
    ]);
    assert.deepEqual(errorsOf('contract A { int x = 1 # 2; }'), [
      "T.scrypt:1:24: error: unexpected character '#'",
      "T.scrypt:1:26: error: expected ';' but found '2'",
    ]);
    assert.match(errorsOf('contract A { /* never closed')[0], /1:14: error: unterminated comment/);
    assert.match(errorsOf('contract A { @statee int x; }')[0], /unknown annotation @statee/);
    assert.match(errorsOf('struct S { }')[0], /struct S needs at least one field/);
  });

  it('never crashes, whatever the input (fuzz)', () => {
    const all = corpus.map((c) => c.source);
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (s) => {
        parse(s);
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...all),
        fc.array(fc.tuple(fc.nat(), fc.nat(6), fc.string({ maxLength: 4 })), { maxLength: 6 }),
        (src, edits) => {
          let s = src;
          for (const [pos, del, ins] of edits) {
            const p = pos % (s.length + 1);
            s = s.slice(0, p) + ins + s.slice(p + del);
          }
          const { diagnostics } = parse(s);
          for (const d of diagnostics.items) assert.ok(d.line >= 1 && d.column >= 1);
        },
      ),
      { numRuns: 500 },
    );
  });
});
