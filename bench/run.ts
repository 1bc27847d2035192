import os from 'node:os';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ONLY, SAMPLES, type Sample } from './lib.js';

/**
 * `npm run bench [-- --only <name>]… [--runs <n>] [--json] [file prefix…]`: runs bench/*.bench.ts, each
 * measure `--runs` times (default 3), and reports each measure's median ratio against its floor measured
 * in the same run, with the absolute times beside it and the machine's core count. `--json` prints one
 * JSON object on the last line: {"cores", "measures": [{"name", "ratio", "goal", "ours_ms", "floor_ms"}…]}
 * (the benches' own lines then go to stderr).
 */
const dir = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const json = args.includes('--json');
let runs = Number(process.env.BENCH_RUNS ?? 3);
const prefixes: string[] = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--only') ONLY.add(args[++i]);
  else if (args[i] === '--runs') runs = Number(args[++i]);
  else if (args[i] !== '--json') prefixes.push(args[i]);
}
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a whole number ≥ 1');
if (json) console.log = (...a: unknown[]) => console.error(...a);

const benches = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => prefixes.length === 0 || prefixes.some((w) => f.startsWith(w)))
  .sort();
for (const file of benches) {
  const mod = (await import(path.join(dir, file))) as { run: () => Promise<void>; MEASURES: readonly string[] };
  if (ONLY.size && !mod.MEASURES.some((m) => ONLY.has(m))) continue;
  for (let r = 0; r < runs; r++) await mod.run();
}

/** Per measure, the sample with the median ratio (its absolute times with it). */
const byName = new Map<string, Sample[]>();
for (const s of SAMPLES) byName.set(s.name, [...(byName.get(s.name) ?? []), s]);
const medians = [...byName.values()].map((samples) => [...samples].sort((a, b) => a.ratio - b.ratio)[Math.floor((samples.length - 1) / 2)]);
const cores = os.availableParallelism?.() ?? os.cpus().length;
const table = [
  `\nSummary (median of ${runs} run${runs === 1 ? '' : 's'}, ${cores} cores)`,
  `${'measure'.padEnd(22)}${'ratio'.padStart(8)}${'goal'.padStart(9)}${'ours ms'.padStart(12)}${'floor ms'.padStart(12)}  met`,
  ...medians.map((m) => {
    const goal = m.goal === null ? '—' : `${m.higherIsBetter ? '≥' : '≤'}${m.goal}`;
    const met = m.goal === null ? '' : (m.higherIsBetter ? m.ratio >= m.goal : m.ratio <= m.goal) ? 'yes' : 'NO';
    return `${m.name.padEnd(22)}${m.ratio.toFixed(2).padStart(8)}${goal.padStart(9)}${m.ours_ms.toFixed(3).padStart(12)}${m.floor_ms.toFixed(3).padStart(12)}  ${met}`;
  }),
];
for (const line of table) console.log(line);
if (json) {
  const out = {
    cores,
    runs,
    measures: medians.map((m) => ({
      name: m.name,
      ratio: round(m.ratio),
      goal: m.goal,
      higherIsBetter: m.higherIsBetter,
      ours_ms: round(m.ours_ms),
      floor_ms: round(m.floor_ms),
    })),
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
