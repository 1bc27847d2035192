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
