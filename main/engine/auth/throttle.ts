/**
 * Throttles failed logins per key (an account and a client each get one). The first few failures are
 * free; after that each further failure doubles the wait, up to a ceiling. A success clears the key.
 * Kept in memory: a restart forgets it, which is acceptable for a local server behind loopback.
 */
export interface ThrottleOptions {
  freeFailures: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Failures older than this are forgotten. */
  windowMs: number;
}

export const DEFAULT_THROTTLE: ThrottleOptions = { freeFailures: 5, baseDelayMs: 1_000, maxDelayMs: 15 * 60_000, windowMs: 15 * 60_000 };

interface Entry {
  failures: number;
  lastFailure: number;
  blockedUntil: number;
}

export class LoginThrottle {
  private readonly entries = new Map<string, Entry>();
  constructor(
    private readonly opts: ThrottleOptions = DEFAULT_THROTTLE,
    private readonly now: () => number = Date.now,
  ) {}

  /** Milliseconds the caller must still wait before trying any of these keys; 0 when free to try. */
  waitMs(keys: readonly string[]): number {
    const t = this.now();
    let wait = 0;
    for (const key of keys) {
      const e = this.fresh(key, t);
      if (e) wait = Math.max(wait, e.blockedUntil - t);
    }
    return Math.max(0, wait);
  }

  fail(keys: readonly string[]): void {
    const t = this.now();
    for (const key of keys) {
      const e = this.fresh(key, t) ?? { failures: 0, lastFailure: t, blockedUntil: 0 };
      e.failures += 1;
      e.lastFailure = t;
      const over = e.failures - this.opts.freeFailures;
      if (over > 0) e.blockedUntil = t + Math.min(this.opts.maxDelayMs, this.opts.baseDelayMs * 2 ** (over - 1));
      this.entries.set(key, e);
    }
    if (this.entries.size > 10_000) this.sweep(t);
  }

  succeed(keys: readonly string[]): void {
    for (const key of keys) this.entries.delete(key);
  }

  private fresh(key: string, t: number): Entry | undefined {
    const e = this.entries.get(key);
    if (e && t - e.lastFailure > this.opts.windowMs && t >= e.blockedUntil) {
      this.entries.delete(key);
      return undefined;
    }
    return e;
  }

  private sweep(t: number): void {
    for (const key of [...this.entries.keys()]) this.fresh(key, t);
  }
}
