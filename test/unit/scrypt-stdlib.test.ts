import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { compileScrypt } from '../../main/contracts/scrypt/compile.js';
import { parse } from '../../main/contracts/scrypt/parser.js';
import { STDLIB_FILE, STDLIB_FILES, STDLIB_NAMES, stdlibSource } from '../../main/contracts/scrypt/stdlib.js';
import { ROOT } from '../helpers/headless.js';

const DIR = path.join(ROOT, 'main', 'contracts', 'scrypt', 'stdlib');

describe('sCrypt standard library sources', () => {
  it('loads every .scrypt file of stdlib/, and only those', () => {
    // A file left out of STDLIB_FILES would be copied into the build but never compiled.
    const onDisk = readdirSync(DIR).filter((f) => f.endsWith('.scrypt'));
    assert.deepEqual([...STDLIB_FILES].sort(), onDisk.sort());
  });

  it('parses, and declares exactly the names STDLIB_NAMES lists, in that order', () => {
    const { program, diagnostics } = parse(stdlibSource(), STDLIB_FILE);
    assert.deepEqual(diagnostics.items, []);
    assert.deepEqual(
      program.items.map((i) => i.name),
      STDLIB_NAMES,
    );
  });
});

describe('sCrypt standard library names: taken, and never a diagnostic inside the library', () => {
  const libraryKind = new Map(parse(stdlibSource(), STDLIB_FILE).program.items.map((i) => [i.name, i.kind]));
  const USE = 'contract Main {\n  public function f(int x) {\n    require(x == 1);\n  }\n}\n';
  const declare = (kind: 'contract' | 'library' | 'struct', name: string) =>
    kind === 'struct'
      ? `struct ${name} {\n  int a;\n}\n`
      : kind === 'library'
        ? `library ${name} {\n  static const int OutputValueLen = 8;\n}\n`
        : `contract ${name} {\n  static const int PubKeyHashLen = 20;\n  public function g(int y) {\n    require(y == 2);\n  }\n}\n`;

  /** Every diagnostic is in `file`, at a line the file has. */
  function inside(diagnostics: { file: string; line: number; message: string }[], sources: Record<string, string>): void {
    for (const d of diagnostics) {
      assert.ok(d.file in sources, `${d.file}:${d.line}: ${d.message} is in a file the user gave`);
      assert.ok(d.line >= 1 && d.line <= sources[d.file].split('\n').length, `${d.file}:${d.line}: ${d.message} is at a line of the file`);
    }
  }

  it('covers every name the library declares', () => assert.deepEqual([...libraryKind.keys()], STDLIB_NAMES));

  for (const name of STDLIB_NAMES)
    for (const kind of ['contract', 'library', 'struct'] as const)
      for (const where of ['before the main contract', 'as the last declaration'] as const) {
        it(`${kind} ${name}, ${where}: one error at the declaration, naming the clash`, () => {
          const mine = declare(kind, name);
          const source = where === 'before the main contract' ? `${mine}\n${USE}` : `${USE}\n${mine}`;
          const line = where === 'before the main contract' ? 1 : USE.split('\n').length + 1;
          const result = compileScrypt(source, { file: 'User.scrypt' });
          assert.equal(result.artifact, null);
          inside(result.diagnostics, { 'User.scrypt': source });
          assert.deepEqual(
            result.diagnostics.map((d) => `${d.file}:${d.line}:${d.column}: ${d.message}`),
            [
              `User.scrypt:${line}:1: ${kind} ${name} has the name of the standard library's ${libraryKind.get(name)} ${name}, which every program sees without an import; give it another name`,
            ],
          );
        });
      }

  it('in an imported file, the error is at the declaration in that file', () => {
    const lib = '\nlibrary Tx {\n  static const int N = 1;\n}\n';
    const source = `import "./lib.scrypt";\n${USE}`;
    const result = compileScrypt(source, { file: 'User.scrypt', readImport: (p) => (p === 'lib.scrypt' ? lib : null) });
    inside(result.diagnostics, { 'User.scrypt': source, 'lib.scrypt': lib });
    assert.deepEqual(
      result.diagnostics.map((d) => `${d.file}:${d.line}:${d.column}: ${d.message}`),
      [
        "lib.scrypt:2:1: library Tx has the name of the standard library's library Tx, which every program sees without an import; give it another name",
      ],
    );
  });

  it('the library keeps its own declarations: a program of similar names compiles as without them', () => {
    const uses = `contract Main {\n  public function f(bytes script, bytes out) {\n    require(Utils.buildOutput(script, 1) == out);\n  }\n}\n`;
    const near = `library MyConstants {\n  static const int OutputValueLen = 9;\n}\n${uses}`;
    const a = compileScrypt(uses);
    const b = compileScrypt(near);
    assert.deepEqual(b.diagnostics, []);
    assert.ok(a.hex);
    assert.equal(b.hex, a.hex);
  });

  it('an error arising in library code is reported in the user file and says it arose in the standard library', () => {
    // A library named like a built-in function the standard library calls (len): the library's code that
    // calls len(…) is what fails, so the error is moved to the contract being compiled and names its origin.
    const source = `library len {\n  static const int Q = 1;\n}\n\ncontract Main {\n  public function f(bytes b) {\n    require(Utils.writeVarint(b) == b);\n  }\n}\n`;
    const result = compileScrypt(source, { file: 'User.scrypt' });
    assert.equal(result.artifact, null);
    assert.ok(result.diagnostics.length > 0);
    inside(result.diagnostics, { 'User.scrypt': source });
    for (const d of result.diagnostics) {
      assert.equal(`${d.line}:${d.column}`, '5:1', 'at the contract being compiled');
      assert.match(d.message, /^in the standard library's library \w+: len\(…\) is not a function/);
    }
    const messages = result.diagnostics.map((d) => d.message);
    assert.equal(new Set(messages).size, messages.length, 'the same error at several places of the library is reported once');
  });
});
