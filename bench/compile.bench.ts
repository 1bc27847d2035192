import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileScrypt } from '../main/contracts/scrypt/compile.js';
import { report, wanted, type Timing } from './lib.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** A contract with `n` public functions, each a few statements: a program that grows linearly with n. */
function program(n: number): string {
  const fns = Array.from(
    { length: n },
    (_, i) => `  public function f${i}(int a, bytes b) {
    int s = a + ${i};
    if (s > 10) {
      s = s - 1;
    }
    require(len(b) == ${i % 7} || sha256(b) == this.h);
    require(s * 2 >= this.limit && hash160(b) != this.p);
  }`,
  );
  return `contract Big {\n  int limit;\n  Sha256 h;\n  Ripemd160 p;\n${fns.join('\n')}\n}\n`;
}

function timeCompile(label: string, source: string, rounds: number): Timing {
  for (let i = 0; i < 3; i++) compileScrypt(source);
  const t = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) {
    if (!compileScrypt(source).artifact) throw new Error(`${label} did not compile`);
  }
  const totalMs = Number(process.hrtime.bigint() - t) / 1e6;
  return { label, iterations: rounds, totalMs, perOpMs: totalMs / rounds };
}

/** Compile time of a program and of the same program ten times larger (goal ≤ 10×: linear); corpus throughput. */
export const MEASURES = ['compile-scaling', 'compile-corpus'];

export async function run(): Promise<void> {
  const small = timeCompile('program with 20 functions', program(20), 40);
  const large = timeCompile('the same, 10× larger (200 functions)', program(200), 4);
  report({ name: 'compile-scaling', bench: 'compile a 10× larger program / 1×', floor: small, measured: large, goal: 10 });
  if (!wanted('compile-corpus')) return;

  const dir = path.join(root, 'test', 'fixtures', 'scrypt');
  const corpus = readdirSync(dir)
    .filter((f) => f.endsWith('.scrypt'))
    .map((f) => readFileSync(path.join(dir, f), 'utf8'))
    .filter((s) => compileScrypt(s).artifact);
  const rounds = 100;
  const timed = (optimize: boolean) => {
    const t = process.hrtime.bigint();
    for (let i = 0; i < rounds; i++) for (const s of corpus) compileScrypt(s, { optimize });
    return Number(process.hrtime.bigint() - t) / 1e6 / rounds;
  };
  const plainMs = timed(false);
  const optMs = timed(true);
  // Script bytes, constructor placeholders left out.
  const bytes = (optimize: boolean) =>
    corpus.reduce((n, s) => n + compileScrypt(s, { optimize }).hex!.replace(/<[^>]*>/g, '').length / 2, 0);
  const plainBytes = bytes(false);
  const optBytes = bytes(true);
  console.log(
    `  corpus    ${corpus.length} contracts: plain ${plainMs.toFixed(1)} ms per pass (${Math.round((corpus.length * 1000) / plainMs)} contracts/s), -O ${optMs.toFixed(1)} ms (${(optMs / plainMs).toFixed(2)}×)`,
  );
  console.log(`  size      plain ${plainBytes} bytes, -O ${optBytes} bytes (${((100 * optBytes) / plainBytes).toFixed(1)} % of plain)`);
}
