import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { generate } from '../../main/contracts/scrypt/codegen/contract.js';
import { compileScrypt, frontEnd } from '../../main/contracts/scrypt/compile.js';
import { ROOT } from '../helpers/headless.js';

// Mutations at the token level keep most of a program well-formed, so they reach the semantic passes and
// code generation, where a crash would otherwise hide. Any outcome is fine except an exception, a failure
// without a diagnostic, or a diagnostic without a position.
const dirs = ['scrypt', 'scrypt-parse'].map((d) => path.join(ROOT, 'test', 'fixtures', d));
const sources = dirs.flatMap((dir) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.scrypt'))
    .map((f) => readFileSync(path.join(dir, f), 'utf8')),
);
const tokenize = (s: string) => s.match(/\s+|[A-Za-z_]\w*|0x[0-9a-fA-F]+|\d+|b'[0-9a-fA-F]*'|"[^"]*"|\S/g) ?? [];

function mutate(src: string, edits: [number, number, number][]): string {
  const tokens = tokenize(src);
  for (const [kind, a, b] of edits) {
    if (!tokens.length) break;
    const i = a % tokens.length;
    const j = b % tokens.length;
    if (kind === 0)
      tokens.splice(i, 1); // delete
    else if (kind === 1)
      tokens.splice(i, 0, tokens[j]); // duplicate another token here
    else if (kind === 2)
      tokens[i] = tokens[j]; // replace
    else [tokens[i], tokens[j]] = [tokens[j], tokens[i]]; // swap
  }
  return tokens.join('');
}

describe('sCrypt compiler fuzz', () => {
  it('mutated corpus programs never crash the compiler, and every failure is explained at a position', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...sources),
        fc.array(fc.tuple(fc.nat(3), fc.nat(), fc.nat()), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        (src, edits, optimize) => {
          const s = mutate(src, edits);
          const r = compileScrypt(s, { file: 'F.scrypt', optimize });
          if (r.artifact) assert.ok(r.hex && r.asm !== null);
          else assert.ok(r.diagnostics.length > 0, `no diagnostic for:\n${s}`);
          for (const d of r.diagnostics) assert.ok(d.line >= 1 && d.column >= 1, JSON.stringify(d));
          // The front end reports what it does not accept; the lowering and code generation never find a problem of their own.
          for (const d of r.diagnostics) assert.ok(!d.message.includes('internal compiler error'), `${d.message} for:\n${s}`);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('whatever the front end accepts, code generation emits', () => {
    let accepted = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...sources),
        fc.array(fc.tuple(fc.nat(3), fc.nat(), fc.nat()), { minLength: 1, maxLength: 3 }),
        (src, edits) => {
          const { front } = frontEnd(mutate(src, edits), 'F.scrypt');
          if (!front) return;
          accepted++;
          assert.ok(generate(front.ir, front.layout).length > 0);
        },
      ),
      { numRuns: 600 },
    );
    assert.ok(accepted > 20, `only ${accepted} mutated programs were accepted`);
  });

  it('random text never crashes it', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (s) => {
        const r = compileScrypt(`contract A { int x; public function f(int a) { ${s} require(true); } }`);
        assert.ok(r.artifact || r.diagnostics.length > 0);
      }),
      { numRuns: 300 },
    );
  });
});
