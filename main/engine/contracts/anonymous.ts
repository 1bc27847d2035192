import { DomainError } from '../../../shared/errors.js';
import type { OpContext } from '../context.js';
import type { ContractServices } from './services.js';
import { clientKey } from '../client-key.js';

/** Calls a client without credentials may make: a burst, then this many a minute (compiles and transpiles together). */
export const ANONYMOUS_PER_MINUTE = 30;
export const ANONYMOUS_BURST = 10;

interface Bucket {
  tokens: number;
  at: number;
}

// One table of buckets per engine (its compile pool identifies it), so two engines in one process (tests) stay apart.
const tables = new WeakMap<object, Map<string, Bucket>>();

/**
 * Whose share of the workers a call is: the signed-in user's, or, for a call without credentials (the public
 * service's SDK lets scripts call the toolchain so), the client's; an anonymous client is also rate-limited
 * (a token bucket per client address), so it cannot starve the organisation's own users.
 */
export function workerOwner(ctx: OpContext<ContractServices>): string {
  if (ctx.caller) return ctx.caller.uid;
  // Every loopback address is one client (as for sign-in throttling): a local process cannot mint new buckets
  // by sending from 127.0.0.2, 127.0.0.3, …
  const client = clientKey(ctx.meta.clientId);
  let table = tables.get(ctx.services.compiler);
  if (!table) tables.set(ctx.services.compiler, (table = new Map()));
  const now = ctx.services.now();
  const b = table.get(client) ?? { tokens: ANONYMOUS_BURST, at: now };
  b.tokens = Math.min(ANONYMOUS_BURST, b.tokens + ((now - b.at) * ANONYMOUS_PER_MINUTE) / 60_000);
  b.at = now;
  if (table.size > 10_000) table.clear(); // a flood of client ids: start over rather than grow
  table.set(client, b);
  if (b.tokens < 1) {
    const retryAfter = Math.max(1, Math.ceil(((1 - b.tokens) * 60) / ANONYMOUS_PER_MINUTE));
    throw new DomainError(
      'RATE_LIMITED',
      `Too many compiles and transpiles without credentials from this client (${ANONYMOUS_PER_MINUTE} a minute). Retry in ${retryAfter} s, or send an authToken.`,
      { retryAfter },
    );
  }
  b.tokens -= 1;
  return client;
}
