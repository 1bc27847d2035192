import { DomainError } from '../../../shared/errors.js';

/**
 * Throttles password guesses per key (an account, a client, the database). The first few failures are
 * free; after that each further failure doubles the wait, up to a ceiling; a success clears the account.
 *
 * The check happens, and a slot is reserved, before the expensive password hash runs: a guess being
 * evaluated counts against its keys at once, so guesses sent in parallel are admitted no faster than the
 * same guesses sent one after another. Kept in memory: a restart forgets it, which is acceptable for a
 * server behind loopback (a restart costs the attacker far more than the free failures it resets).
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
  /** Guesses admitted and still being evaluated. */
  inFlight: number;
  lastFailure: number;
  blockedUntil: number;
}

/** One admitted guess. Say how it went; a ticket never settled (an exception) counts as a failure. */
export interface ThrottleTicket {
  /** The password was right: the keys in `clear` start over, the others just release this guess. */
  succeed(clear?: readonly string[]): void;
  fail(): void;
  /** Settles as a failure unless already settled: for `finally`. */
  release(): void;
}

export const accountKey = (emailOrUid: string) => `account:${emailOrUid.trim().toLowerCase()}`;

export class Throttle {
  private readonly entries = new Map<string, Entry>();
  constructor(
    private readonly opts: ThrottleOptions = DEFAULT_THROTTLE,
    private readonly now: () => number = Date.now,
  ) {}

  /** Milliseconds before a guess on these keys would be admitted; 0 when it would be now. */
  waitMs(keys: readonly string[]): number {
    const t = this.now();
    let wait = 0;
    for (const key of keys) {
      const e = this.fresh(key, t);
      if (!e) continue;
      wait = Math.max(wait, e.blockedUntil - t);
      // Past the free failures, one guess at a time: the next waits for this one's answer.
      if (e.inFlight > 0 && e.failures + e.inFlight > this.opts.freeFailures) wait = Math.max(wait, 1_000);
    }
    return Math.max(0, wait);
  }

  /** Admits one guess on these keys, or throws RATE_LIMITED with `retryAfter` (seconds). */
  admit(keys: readonly string[], what = 'Too many wrong passwords'): ThrottleTicket {
    const wait = this.waitMs(keys);
    if (wait > 0) {
      const retryAfter = Math.ceil(wait / 1000);
      throw new DomainError('RATE_LIMITED', `${what}. Try again in ${retryAfter} s.`, { retryAfter });
    }
    const t = this.now();
    for (const key of keys) {
      const e = this.fresh(key, t) ?? { failures: 0, inFlight: 0, lastFailure: t, blockedUntil: 0 };
      e.inFlight += 1;
      this.entries.set(key, e);
    }
    let settled = false;
    const settle = (failed: boolean, clear: readonly string[]) => {
      if (settled) return;
      settled = true;
      const at = this.now();
      for (const key of keys) {
        const e = this.entries.get(key);
        if (!e) continue;
        e.inFlight = Math.max(0, e.inFlight - 1);
        if (failed) this.countFailure(e, at);
        if (!failed && clear.includes(key)) this.entries.delete(key);
      }
      if (this.entries.size > 10_000) this.sweep(at);
    };
    return {
      succeed: (clear = keys) => settle(false, clear),
      fail: () => settle(true, []),
      release: () => settle(true, []),
    };
  }

  private countFailure(e: Entry, t: number): void {
    e.failures += 1;
    e.lastFailure = t;
    const over = e.failures - this.opts.freeFailures;
    if (over > 0) e.blockedUntil = t + Math.min(this.opts.maxDelayMs, this.opts.baseDelayMs * 2 ** (over - 1));
  }

  private fresh(key: string, t: number): Entry | undefined {
    const e = this.entries.get(key);
    if (e && e.inFlight === 0 && t - e.lastFailure > this.opts.windowMs && t >= e.blockedUntil) {
      this.entries.delete(key);
      return undefined;
    }
    return e;
  }

  private sweep(t: number): void {
    for (const key of [...this.entries.keys()]) this.fresh(key, t);
  }
}
