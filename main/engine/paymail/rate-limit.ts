/**
 * A token bucket per key: `capacity` requests at once, refilled at `perMinute`. Used where anyone who can
 * reach the paymail host may ask for something that costs the wallet (destinations, references).
 */
export class RateLimit {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly capacity: number,
    private readonly now: () => number,
  ) {}

  /** Takes one token; false (and nothing taken) when the key has none left. */
  take(key: string): boolean {
    const t = this.now();
    const b = this.buckets.get(key) ?? { tokens: this.capacity, at: t };
    b.tokens = Math.min(this.capacity, b.tokens + ((t - b.at) * this.perMinute) / 60_000);
    b.at = t;
    this.buckets.set(key, b);
    if (this.buckets.size > 10_000) this.buckets.clear(); // a flood of keys: start over rather than grow
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }

  /** Seconds until the key has a token again. */
  retryAfter(key: string): number {
    const b = this.buckets.get(key);
    return b ? Math.max(1, Math.ceil(((1 - b.tokens) * 60) / this.perMinute)) : 0;
  }
}
