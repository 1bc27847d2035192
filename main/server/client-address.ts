import { isIP } from 'node:net';

/**
 * Who a request on the public listener comes from, for its per-client limits. The connecting peer is the
 * only thing a stranger cannot choose; `X-Forwarded-For` is believed only from a configured trusted
 * proxy, and then only its rightmost entry that is not itself a trusted proxy (what the nearest proxy
 * wrote: everything left of it is whatever the client sent).
 */

/** One spelling per address: IPv4-mapped IPv6 (`::ffff:1.2.3.4`, as a dual-stack socket reports) is IPv4. */
export function normaliseAddress(address: string): string {
  const a = address.trim().toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(a);
  return mapped ? mapped[1] : a;
}

/** An `X-Forwarded-For` entry as an address: `[v6]:port` and `v4:port` lose the port. Null if it is none. */
function hopAddress(entry: string): string | null {
  let e = entry.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(e);
  if (bracketed) e = bracketed[1];
  else if (/^\d{1,3}(?:\.\d{1,3}){3}:\d+$/.test(e)) e = e.slice(0, e.lastIndexOf(':'));
  return isIP(e) ? normaliseAddress(e) : null;
}

/**
 * The client's address. `trusted` holds normalised proxy addresses (`--trust-proxy`); when the peer is
 * not one of them, the peer is the client whatever the headers say.
 */
export function clientAddress(peer: string | undefined, forwardedFor: string | string[] | undefined, trusted: ReadonlySet<string>): string {
  const from = normaliseAddress(peer ?? 'unknown');
  if (!trusted.has(from)) return from;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? '')).split(',').filter((h) => h.trim() !== '');
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hopAddress(hops[i]);
    // Not an address where the proxy should have written one: a misconfigured proxy passing the client's
    // own text through. All such requests share one key, so varying the text buys nothing.
    if (hop === null) return `unreadable-via:${from}`;
    if (!trusted.has(hop)) return hop;
  }
  // Only proxies on the path (or no header): the request started at a proxy.
  return hops.length ? (hopAddress(hops[0]) ?? from) : from;
}

/**
 * The key limits count against: an IPv4 address, or an IPv6 address's /64 (what one subscriber is
 * usually given whole, so stepping through it does not buy fresh allowances).
 */
export function limitKey(address: string): string {
  if (isIP(address) !== 6) return address;
  const bare = address.split('%')[0];
  const [head, tail] = bare.includes('::') ? bare.split('::') : [bare, undefined];
  const groups = (s: string | undefined) => (s ? s.split(':') : []);
  // An embedded IPv4 tail (64:ff9b::1.2.3.4) fills two groups.
  const width = (gs: string[]) => gs.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
  const h = groups(head);
  const t = groups(tail);
  const all = tail === undefined ? h : [...h, ...Array<string>(8 - width(h) - width(t)).fill('0'), ...t];
  return `${all
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/** Parses `--trust-proxy`: a comma-separated list of IP addresses. Throws on anything else. */
export function parseTrustedProxies(list: string): string[] {
  const entries = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const e of entries) if (!isIP(e)) throw new Error(`"${e}" is not an IP address`);
  if (entries.length === 0) throw new Error('no address given');
  return [...new Set(entries.map(normaliseAddress))];
}

/** Whether a client address (as clientAddress gives it) is this machine's: 127.0.0.0/8 or ::1. */
export function isLoopbackAddress(address: string): boolean {
  return address === '::1' || /^127(\.\d{1,3}){3}$/.test(address);
}
