import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Bytes, Int } from 'scryptlib';
import { compileScrypt, type CompileOptions } from '../../main/contracts/scrypt/compile.js';
import { transpileScryptTsSource } from '../../main/contracts/scrypt-ts/transpile-source.js';
import { compiledScrypt, runsAsExpected } from '../helpers/scrypt-run.js';

/**
 * Constructs that published sCrypt and scrypt-ts projects use (issue 28), each in a program of our own:
 * compiled plain and with -O, and every call run through @bsv/sdk's Spend, right and wrong arguments.
 */
const compiled = (source: string, opts: CompileOptions = {}) => compiledScrypt(source, opts).artifact!;

const runs = runsAsExpected;

function errorsOf(source: string): string[] {
  return compileScrypt(source).diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`);
}

describe('constructs of published sCrypt and scrypt-ts projects', () => {
  it('array types with omitted sizes take them from their array-literal initialiser (syntax.rst), as if written', () => {
    const omitted = `
static const int[] TOP = [5, 6];
contract A {
  static const bytes[] NAMES = [b'01', b'0203', b'040506'];
  public function f(int i, int want) {
    int[] e = [1, 4, 2];
    int[][] g = [[11, 12, 13], [21, 22, 23]];
    require(e[i] + g[1][i] + TOP[1] + len(NAMES[i]) == want);
  }
}`;
    const written = omitted
      .replace('int[] TOP', 'int[2] TOP')
      .replace('bytes[] NAMES', 'bytes[3] NAMES')
      .replace('int[] e', 'int[3] e')
      .replace('int[][] g', 'int[2][3] g');
    for (const optimize of [false, true]) assert.equal(compiled(omitted, { optimize }).hex, compiled(written, { optimize }).hex);
    // e[i] + g[1][i] + 6 + (i + 1): i = 0 → 1 + 21 + 6 + 1 = 29, i = 1 → 4 + 22 + 6 + 2 = 34, i = 2 → 2 + 23 + 6 + 3 = 34.
    runs(omitted, 'f', [
      [[Int(0), Int(29)], true],
      [[Int(1), Int(34)], true],
      [[Int(2), Int(34)], true],
      [[Int(2), Int(33)], false],
      [[Int(3), Int(34)], false], // out of bounds
    ]);
  });

  it('an omitted array size anywhere but a declaration with an array literal is refused at its position', () => {
    assert.deepEqual(errorsOf('contract A { public function f(int[] a) { require(true); } }'), [
      '1:35 an array size can be omitted only where a variable or constant is declared with an array literal',
    ]);
    assert.deepEqual(errorsOf('contract A { public function f(int x) { int[] a = x; require(true); } }'), [
      '1:44 an omitted array size needs an array literal as the initial value; write the size',
    ]);
    assert.deepEqual(errorsOf('contract A { public function f(int x) { int[][] a = [1, 2]; require(true); } }'), [
      '1:46 an omitted array size needs an array literal as the initial value; write the size',
    ]);
    assert.deepEqual(errorsOf('contract A { int[] a; public function f(int x) { require(true); } }'), [
      '1:17 an omitted array size needs an array literal as the initial value; write the size',
    ]);
  });
});

/**
 * A scrypt-ts contract of our own with the constructs we met in published scrypt-ts projects (a library
 * value whose methods change its own property inside a bounded loop with a done flag, `static readonly`
 * constants with and without `@prop()`, an enum, locals and parameters named like built-ins, a name
 * declared again in sibling blocks, UTF-8 `toByteString(…, true)`), transpiled by the published
 * transpiler, compiled, and run.
 */
const SCRYPT_TS_SOURCE = `
import { assert, ByteString, byteString2Int, int2ByteString, len, method, prop, slice, SmartContract, SmartContractLib, toByteString } from 'scrypt-ts'

export enum Mode { Off, On }

export class Cells extends SmartContractLib {
    @prop()
    items: ByteString
    static readonly WIDTH: bigint = 2n
    @prop()
    static readonly NOTHING: ByteString = toByteString('')
    static readonly CAPACITY = 5
    static readonly MISSING: bigint = -4242n

    constructor(items: ByteString) {
        super(...arguments)
        this.items = Cells.NOTHING
    }

    @method()
    put(x: bigint): boolean {
        this.items += int2ByteString(x, Cells.WIDTH)
        return true
    }

    @method()
    count(): bigint {
        return BigInt(len(this.items)) / Cells.WIDTH
    }

    @method()
    take(): bigint {
        let out: bigint = Cells.MISSING
        const last = this.count() - 1n
        if (last > -1) {
            out = byteString2Int(slice(this.items, last * Cells.WIDTH, (last + 1n) * Cells.WIDTH))
            this.items = slice(this.items, 0n, last * Cells.WIDTH)
        }
        return out
    }

    @method()
    find(x: bigint): bigint {
        let found = -1n
        let stop = false
        const n = this.count()
        for (let i = 0n; i < Cells.CAPACITY; i++) {
            if (i < n && !stop) {
                if (byteString2Int(slice(this.items, i * Cells.WIDTH, (i + 1n) * Cells.WIDTH)) == x) {
                    found = i
                    stop = true
                }
            }
        }
        return found
    }
}

export class CellsUser extends SmartContract {
    @prop()
    mode: Mode

    constructor(mode: Mode) {
        super(...arguments)
        this.mode = mode
    }

    @method()
    static skip(b: ByteString): bigint {
        let len = 0n
        const header: bigint = byteString2Int(slice(b, 0n, 1n))
        if (header < 0x4cn) {
            len = header + 1n
        }
        return len
    }

    @method()
    public run(x: bigint, min: bigint, label: ByteString) {
        assert(this.mode == Mode.On, 'off')
        const s: Cells = new Cells(toByteString('aabb'))
        s.put(7n)
        s.put(x)
        s.put(-3n)
        assert(s.find(x) == 1n, 'find')
        assert(s.find(1000n) == -1n, 'missing')
        assert(s.take() == -3n && s.take() == x && s.count() == 1n, 'take')
        assert(s.take() == 7n && s.take() == Cells.MISSING, 'empty')
        if (min > 0n) {
            const y = min + 1n
            assert(y > 1n)
        } else {
            const y = min - 1n
            assert(y < 0n)
        }
        assert(CellsUser.skip(label) == len(label), 'push')
        assert(slice(label, 1n) == toByteString('héllo ✓', true), 'utf-8')
    }
}
`;

describe('a scrypt-ts contract with the constructs of published projects, transpiled and compiled', () => {
  it('compiles and its calls run as the TypeScript says', () => {
    const t = transpileScryptTsSource(SCRYPT_TS_SOURCE, 'cellsUser.ts');
    assert.deepEqual(t.errors, []);
    const label = Buffer.from('héllo ✓', 'utf8');
    const labelHex = Buffer.concat([Buffer.from([label.length]), label]).toString('hex');
    runs(
      t.scrypt!,
      'run',
      [
        [[Int(300), Int(2), Bytes(labelHex)], true],
        [[Int(-20), Int(-2), Bytes(labelHex)], true],
        [[Int(300), Int(2), Bytes('00' + labelHex.slice(2))], false],
        [[Int(70000), Int(2), Bytes(labelHex)], false], // does not fit in 2 bytes
      ],
      [Int(1)],
    );
    runs(t.scrypt!, 'run', [[[Int(300), Int(2), Bytes(labelHex)], false]], [Int(0)]);
  });
});

describe('scrypt-ts glue', () => {
  // The transpiler writes every `import "…";` of a contract on one line: each of them is read (the pattern
  // was once anchored at the line start, and a contract using two scrypt-ts-lib libraries missed the second).
  it('a contract importing two scrypt-ts-lib libraries gets both files', () => {
    const source = `
import { assert, method, SmartContract, ByteString, toByteString } from 'scrypt-ts'
import { ArrayUtils, Shift10 } from 'scrypt-ts-lib'

export class TwoLibs extends SmartContract {
    @method()
    public check(packed: ByteString, x: bigint) {
        assert(ArrayUtils.getElemAt(packed, 0n) == toByteString('01'))
        assert(Shift10.left(x, 1n) == x * 10n)
    }
}
`;
    const t = transpileScryptTsSource(source, 'twoLibs.ts');
    assert.deepEqual(t.errors, []);
    const r = compileScrypt(t.scrypt!, { file: 'twoLibs.scrypt', readImport: (p) => t.imports[p] ?? null });
    assert.deepEqual(r.diagnostics, []);
  });
});

describe('a scrypt-ts library value returned by a static method', () => {
  // The transpiler writes `return new Tally(start + 1n)` as `return new Tally(start + 1);` and
  // `Tally.make(y).get()` as it is: `new` inside a return, and a method called on a call's result.
  const source = `
import { assert, method, prop, SmartContract, SmartContractLib } from 'scrypt-ts'

export class Tally extends SmartContractLib {
    @prop()
    v: bigint

    constructor(v: bigint) {
        super(...arguments)
        this.v = v
    }

    @method()
    get(): bigint {
        return this.v
    }

    @method()
    static make(start: bigint): Tally {
        return new Tally(start + 1n)
    }
}

export class TallyUser extends SmartContract {
    @prop()
    x: bigint

    constructor(x: bigint) {
        super(...arguments)
        this.x = x
    }

    @method()
    public unlock(y: bigint) {
        assert(Tally.make(y).get() == this.x)
    }
}
`;

  it('compiles, and unlock(y) holds exactly when y + 1 is x', () => {
    const t = transpileScryptTsSource(source, 'tallyUser.ts');
    assert.deepEqual(t.errors, []);
    assert.match(t.scrypt!, /return new Tally\(/);
    assert.match(t.scrypt!, /Tally\.make\(y\)\.get\(\)/);
    runs(
      t.scrypt!,
      'unlock',
      [
        [[Int(6)], true],
        [[Int(7)], false],
      ],
      [Int(7)],
    );
  });
});
