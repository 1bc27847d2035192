/** The first pause between probes; each later pause doubles, up to MAX_PAUSE_MS. */
const FIRST_PAUSE_MS = 5;
/** Long enough not to hammer a server being probed, short enough that a test waits little past the moment it could go on. */
const MAX_PAUSE_MS = 100;

/**
 * Reads `read()` until `ready` holds for what it returned, and returns that value; fails after `ms` with the
 * last value read, so a timeout says how far things got. Probes back off from 5 ms to 100 ms.
 */
export async function untilValue<T>(what: string, read: () => Promise<T>, ready: (value: T) => boolean, ms = 15_000): Promise<T> {
  const started = Date.now();
  const end = started + ms;
  let pause = FIRST_PAUSE_MS;
  let probes = 0;
  for (;;) {
    const value = await read();
    probes += 1;
    if (ready(value)) return value;
    const left = end - Date.now();
    if (left <= 0) {
      throw new Error(`timed out after ${Date.now() - started} ms (${probes} probes) waiting for ${what}; last seen: ${shown(value)}`);
    }
    // The last pause ends at the deadline, so the final probe is made then rather than skipped.
    await new Promise((r) => setTimeout(r, Math.min(pause, left)));
    pause = Math.min(pause * 2, MAX_PAUSE_MS);
  }
}

/** Polls `probe` until it returns something other than undefined, or fails after `ms`. */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  return (await untilValue(what, probe, (v) => v !== undefined, ms)) as T;
}

/** The value as a short line of JSON (String() where JSON cannot say it). */
function shown(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    /* a cycle or a BigInt: String() below */
  }
  text ??= String(value);
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}
