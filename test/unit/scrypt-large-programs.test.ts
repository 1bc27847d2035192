import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileScrypt } from '../../main/contracts/scrypt/compile.js';
import { MAX_LOCKING_SCRIPT_BYTES, MAX_SCRIPT_SIZE_POLICY, MAX_TX_SIZE_POLICY } from '../../main/contracts/scrypt/codegen/script-size.js';
import { explainSpend } from '../helpers/scrypt-spend.js';

/**
 * Programs whose unrolled loops are large. The size limit is the Bitcoin SV node's default relay policy
 * (maxtxsizepolicy: a transaction of at most 10,000,000 bytes must carry the locking script), counted in
 * bytes; not a count of script elements. Each expected size is derived here from the official code shape
 * (each iteration an OP_NOP then its body; reads are `d OP_PICK`, assignments `d OP_ROLL OP_DROP`, the final
 * require's value then an OP_NIP per other stack item), not read off the compiler's output.
 */
const bytesOf = (hex: string) => hex.length / 2;
const pushLength = (n: number) => (n < 0x4c ? 1 : n <= 0xff ? 2 : 3); // the push opcode and its length bytes

describe('sCrypt programs with large unrolled loops', () => {
  it('the limit is the default relay policy, less the smallest transaction around the output', () => {
    assert.equal(MAX_TX_SIZE_POLICY, 10_000_000);
    assert.equal(MAX_SCRIPT_SIZE_POLICY, 500_000);
    // version 4, input count 1, outpoint 36, empty unlocking script's length 1, sequence 4, output count 1,
    // value 8, the script's length as a 5-byte varint, lock time 4.
    assert.equal(MAX_LOCKING_SCRIPT_BYTES, 10_000_000 - (4 + 1 + 36 + 1 + 4 + 1 + 8 + 5 + 4));
  });

  it('a program of more than 2,000,000 script elements compiles, at the size its shape gives, and runs', () => {
    // 16,000 iterations reversing 32 bytes: far over the old 2,000,000-element limit, far under the relay limit.
    const source = `
contract Reverser {
  public function run(bytes h0, bytes want) {
    bytes h = h0;
    loop (16) {
      loop (1000) {
        h = reverseBytes(h, 32);
      }
    }
    require(h == want);
  }
}`;
    const r = compileScrypt(source);
    assert.ok(r.hex, JSON.stringify(r.diagnostics));
    // Stack [h0, want]. `bytes h = h0`: OP_1 OP_PICK (2).
    const prologue = 2;
    // An inner iteration: OP_NOP; h read, OP_0 OP_PICK (2); reverseBytes(h, 32), 31 × (OP_1 OP_SPLIT) then
    // 31 × (OP_SWAP OP_CAT) (124); the new h replaces the old one just below it, OP_1 OP_ROLL OP_DROP (3).
    const inner = 1 + 2 + 31 * 2 + 31 * 2 + 3;
    const outer = 1 + 1000 * inner;
    // h == want: OP_0 OP_PICK, OP_2 OP_PICK, OP_EQUAL (5); then one OP_NIP for each of h0, want, h (3).
    const epilogue = 5 + 3;
    const expected = prologue + 16 * outer + epilogue;
    assert.equal(bytesOf(r.hex), expected);
    const elements = r.asm!.split(' ').length;
    assert.equal(elements, expected, 'every element here is one byte');
    assert.ok(elements > 2_000_000, 'more elements than the old limit allowed');
    assert.equal(r.hex.slice(0, 8), '51796161', 'OP_1 OP_PICK, then the outer and the inner loop each start with OP_NOP');

    // Larger than default nodes run when it is spent: compiled, with a warning naming the policy.
    const warnings = r.diagnostics.filter((d) => d.severity === 'warning');
    assert.equal(warnings.length, 1, JSON.stringify(r.diagnostics));
    assert.match(warnings[0].message, /locking script is 2,080,026 bytes; .* at most 500,000 bytes by default \(maxscriptsizepolicy\)/);
    assert.equal(r.diagnostics.filter((d) => d.severity === 'error').length, 0);

    // It runs: an even number of reversals gives the input back.
    const h0 = Buffer.from(Array.from({ length: 32 }, (_, i) => i + 1)).toString('hex');
    const reversed = Buffer.from(h0, 'hex').reverse().toString('hex');
    assert.equal(
      explainSpend(r.hex, () => `20${h0}20${h0}`),
      true,
    );
    assert.notEqual(
      explainSpend(r.hex, () => `20${h0}20${reversed}`),
      true,
    );
  });

  /**
   * `count` iterations each checking a literal of `literal` bytes, then one more literal of `last` bytes:
   * an iteration is OP_NOP, the push, OP_SIZE OP_NIP (len), OP_0 OP_GREATERTHAN, OP_VERIFY; the final
   * `require(s == 1)` is OP_0 OP_PICK OP_1 OP_NUMEQUAL then one OP_NIP for s.
   */
  const literals = (count: number, literal: number, last: number) => ({
    source: `contract Big {
  public function f(int s) {
    loop (${count}) {
      require(len(b'${'ab'.repeat(literal)}') > 0);
    }
    require(len(b'${'cd'.repeat(last)}') > 0);
    require(s == 1);
  }
}`,
    bytes: count * (1 + pushLength(literal) + literal + 5) + (pushLength(last) + last + 5) + 4 + 1,
  });
  // 10,000 iterations of 999 bytes, and a last check that brings the script to exactly the limit.
  const atLimit = literals(10_000, 990, 9_923);
  const overLimit = literals(10_000, 990, 9_924);

  it('a locking script of exactly the largest size a relayed transaction can carry compiles', () => {
    assert.equal(atLimit.bytes, MAX_LOCKING_SCRIPT_BYTES);
    const r = compileScrypt(atLimit.source);
    assert.ok(r.hex, JSON.stringify(r.diagnostics));
    assert.equal(bytesOf(r.hex), MAX_LOCKING_SCRIPT_BYTES);
    assert.equal(
      explainSpend(r.hex, () => '51'),
      true,
      'and it runs',
    );
  });

  it('one byte more is refused, at the contract, naming the relay policy and its number', () => {
    assert.equal(overLimit.bytes, MAX_LOCKING_SCRIPT_BYTES + 1);
    const r = compileScrypt(overLimit.source, { file: 'Big.scrypt' });
    assert.equal(r.hex, null);
    assert.equal(r.artifact, null);
    assert.equal(r.diagnostics.length, 1, JSON.stringify(r.diagnostics));
    const [d] = r.diagnostics;
    assert.deepEqual([d.file, d.line, d.column, d.severity], ['Big.scrypt', 1, 1, 'error']);
    assert.equal(
      d.message,
      'the locking script is at least 9,999,937 bytes; Bitcoin SV nodes relay transactions of at most 10,000,000 bytes by default ' +
        '(maxtxsizepolicy), so no transaction could carry it (at most 9,999,936 bytes of locking script); unroll fewer loop iterations',
    );
  });

  it('with -O the limit applies to the optimised script: code over it that optimises to under it compiles', () => {
    const r = compileScrypt(overLimit.source, { optimize: true });
    assert.ok(r.hex, JSON.stringify(r.diagnostics));
    assert.ok(bytesOf(r.hex) < MAX_LOCKING_SCRIPT_BYTES, 'the OP_NOPs are gone');
    assert.equal(
      explainSpend(r.hex, () => '51'),
      true,
    );
  });

  it('a program far over the limit is stopped while it is generated, without filling memory', () => {
    // 10,000 iterations of 10 kB: 100 MB of script if it were all generated.
    const r = compileScrypt(literals(10_000, 10_000, 1).source);
    assert.equal(r.hex, null);
    assert.match(r.diagnostics[0].message, /^the locking script is at least [\d,]+ bytes; .*maxtxsizepolicy/);
  });

  it('a literal of 64 kB or more is pushed with OP_PUSHDATA4 and its 4-byte length', () => {
    const r = compileScrypt(`contract C { public function f(int n) { require(len(b'${'ab'.repeat(70_000)}') == n); } }`);
    assert.ok(r.hex, JSON.stringify(r.diagnostics));
    // 70,000 = 0x011170: 4e 70110100 and the data, then OP_SIZE OP_NIP (len), n read (OP_1 OP_PICK), OP_NUMEQUAL, one OP_NIP.
    assert.equal(r.hex.slice(0, 10), '4e70110100');
    assert.equal(bytesOf(r.hex), 5 + 70_000 + 2 + 2 + 1 + 1);
    assert.equal(
      explainSpend(r.hex, () => '03701101'),
      true,
    );
    assert.notEqual(
      explainSpend(r.hex, () => '03711101'),
      true,
    );
  });

  it('a script under 500,000 bytes has no warning', () => {
    const r = compileScrypt(literals(100, 990, 1).source);
    assert.ok(r.hex);
    assert.deepEqual(r.diagnostics, []);
  });

  it('a loop of more than 10,000 iterations compiles: the loop count is bounded by the script size, not a number of its own', () => {
    // 20,000 iterations of an empty body: each costs its OP_NOP. Stack [x]; the final require reads x
    // (OP_0 OP_PICK), compares it with 0 (OP_0 OP_GREATERTHAN), then one OP_NIP.
    const r = compileScrypt('contract L { public function f(int x) { loop (20000) { } require(x > 0); } }');
    assert.ok(r.hex, JSON.stringify(r.diagnostics));
    assert.equal(bytesOf(r.hex), 20_000 + 2 + 2 + 1);
    assert.equal(
      explainSpend(r.hex, () => '55'),
      true,
    ); // OP_5
    assert.notEqual(
      explainSpend(r.hex, () => '00'),
      true,
    );
  });
});
