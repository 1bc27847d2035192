/** Tiny benchmark helpers: time a batch after a warm-up, and print measured-vs-floor ratios. */
export interface Timing {
  label: string;
  iterations: number;
  totalMs: number;
  perOpMs: number;
}

export async function time(label: string, iterations: number, op: (i: number) => unknown | Promise<unknown>, warmup = Math.min(50, iterations)): Promise<Timing> {
  for (let i = 0; i < warmup; i++) await op(i);
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) await op(i);
  const totalMs = Number(process.hrtime.bigint() - start) / 1e6;
  return { label, iterations, totalMs, perOpMs: totalMs / iterations };
}

export interface RatioLine {
  bench: string;
  floor: Timing;
  measured: Timing;
  goal?: number;
}

export function report({ bench, floor, measured, goal }: RatioLine): void {
  const ratio = measured.perOpMs / floor.perOpMs;
  const fmt = (t: Timing) => `${t.label}: ${t.perOpMs.toFixed(3)} ms/op (${t.iterations} ops)`;
  console.log(`\n[${bench}]`);
  console.log(`  floor     ${fmt(floor)}`);
  console.log(`  measured  ${fmt(measured)}`);
  console.log(`  ratio     ${ratio.toFixed(2)}×${goal ? `  (goal ≤ ${goal}×: ${ratio <= goal ? 'met' : 'NOT met'})` : ''}`);
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
export async function interleaved(floor: [string, () => Promise<unknown>], measured: [string, () => Promise<unknown>], n: number, warmup: number): Promise<{ floor: Timing; measured: Timing }> {
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
