/** Tiny benchmark helpers: time a batch after a warm-up, and print measured-vs-floor ratios. */
export interface Timing {
  label: string;
  iterations: number;
  totalMs: number;
  perOpMs: number;
}

export async function time(
  label: string,
  iterations: number,
  op: (i: number) => unknown | Promise<unknown>,
  warmup = Math.min(50, iterations),
): Promise<Timing> {
  for (let i = 0; i < warmup; i++) await op(i);
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) await op(i);
  const totalMs = Number(process.hrtime.bigint() - start) / 1e6;
  return { label, iterations, totalMs, perOpMs: totalMs / iterations };
}

/**
 * Waits until the process is quiet: its threads together used under `busyBelow` of one core over a window
 * of `windowMs` (or `maxMs` passed). Work started by what ran before (worker threads loading their code,
 * a collection, a timer's flush) otherwise lands in the next measurement: a round measured while the
 * local node's script workers were still starting read a third slower, and flattered a ratio against it.
 */
export async function untilQuiet({ windowMs = 200, busyBelow = 0.1, maxMs = 20_000 } = {}): Promise<void> {
  const deadline = Date.now() + maxMs;
  while (Date.now() < deadline) {
    const before = process.cpuUsage();
    await new Promise((r) => setTimeout(r, windowMs));
    const used = process.cpuUsage(before);
    if ((used.user + used.system) / 1000 < busyBelow * windowMs) return;
  }
}

export interface RatioLine {
  /** The measure's name in `--only` and the JSON (pay-api, node-accept, …). */
  name: string;
  bench: string;
  floor: Timing;
  measured: Timing;
  goal?: number;
  /** Throughput measures: the ratio is measured/floor and the goal a minimum (≥). Default: time, a maximum (≤). */
  higherIsBetter?: boolean;
  /** The ratio when it is not measured/floor per op (e.g. a throughput ratio). */
  ratio?: number;
}

/** One sample of a measure, as the runner collects them (the median of a measure's samples is reported). */
export interface Sample {
  name: string;
  bench: string;
  ratio: number;
  goal: number | null;
  higherIsBetter: boolean;
  ours_ms: number;
  floor_ms: number;
}

export const SAMPLES: Sample[] = [];

/** The measures the runner was asked for (`--only`); empty: all. */
export const ONLY = new Set<string>();
/** Whether a bench should run this measure now. */
export const wanted = (name: string) => ONLY.size === 0 || ONLY.has(name);

export function report({ name, bench, floor, measured, goal, higherIsBetter = false, ratio: given }: RatioLine): void {
  const ratio = given ?? measured.perOpMs / floor.perOpMs;
  const met = goal === undefined ? null : higherIsBetter ? ratio >= goal : ratio <= goal;
  const fmt = (t: Timing) => `${t.label}: ${t.perOpMs.toFixed(3)} ms/op (${t.iterations} ops)`;
  console.log(`\n[${name}] ${bench}`);
  console.log(`  floor     ${fmt(floor)}`);
  console.log(`  measured  ${fmt(measured)}`);
  console.log(
    `  ratio     ${ratio.toFixed(2)}×${goal !== undefined ? `  (goal ${higherIsBetter ? '≥' : '≤'} ${goal}×: ${met ? 'met' : 'NOT met'})` : ''}`,
  );
  SAMPLES.push({ name, bench, ratio, goal: goal ?? null, higherIsBetter, ours_ms: measured.perOpMs, floor_ms: floor.perOpMs });
}

/**
 * Times floor and measured in alternating rounds and keeps each one's best round, so warm-up, JIT and
 * connection-pool effects do not favour whichever happens to run second.
 */
export async function compare(
  rounds: number,
  floor: [string, number, (i: number) => unknown],
  measured: [string, number, (i: number) => unknown],
): Promise<{ floor: Timing; measured: Timing }> {
  let bestFloor: Timing | undefined;
  let bestMeasured: Timing | undefined;
  for (let r = 0; r < rounds; r++) {
    const f = await time(floor[0], floor[1], floor[2]);
    const m = await time(measured[0], measured[1], measured[2]);
    if (!bestFloor || f.perOpMs < bestFloor.perOpMs) bestFloor = f;
    if (!bestMeasured || m.perOpMs < bestMeasured.perOpMs) bestMeasured = m;
  }
  return { floor: bestFloor!, measured: bestMeasured! };
}

/**
 * Times two async operations alternately, one call of each per round after `warmup` rounds of both, so
 * both see the same state of the machine (caches, a growing database): the floor and the measured total.
 */
export async function interleaved(
  floor: [string, () => Promise<unknown>],
  measured: [string, () => Promise<unknown>],
  n: number,
  warmup: number,
): Promise<{ floor: Timing; measured: Timing }> {
  for (let i = 0; i < warmup; i++) {
    await floor[1]();
    await measured[1]();
  }
  let floorMs = 0;
  let measuredMs = 0;
  for (let i = 0; i < n; i++) {
    let t = process.hrtime.bigint();
    await floor[1]();
    floorMs += Number(process.hrtime.bigint() - t) / 1e6;
    t = process.hrtime.bigint();
    await measured[1]();
    measuredMs += Number(process.hrtime.bigint() - t) / 1e6;
  }
  return {
    floor: { label: floor[0], iterations: n, totalMs: floorMs, perOpMs: floorMs / n },
    measured: { label: measured[0], iterations: n, totalMs: measuredMs, perOpMs: measuredMs / n },
  };
}
