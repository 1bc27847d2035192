/**
 * What kind of address a host is, for deciding whether Keystead may connect to it on behalf of a
 * remote party. Only `public` may be reached; everything else (loopback, private networks, link-local,
 * multicast, the unspecified and broadcast addresses, and the ranges IANA keeps for special use) is
 * refused, including the same addresses written another way: IPv4 in decimal, hex or octal, IPv6 in
 * brackets, IPv4-mapped/NAT64/6to4 IPv6, and names with a trailing dot.
 */
export type AddressClass = 'public' | 'loopback' | 'private' | 'link-local' | 'multicast' | 'unspecified' | 'broadcast' | 'reserved';

/** A host string: an address class, `name` (must be resolved first) or `invalid` (refused). */
export type HostClass = AddressClass | 'name' | 'invalid';

/** IPv4 in any form inet_aton and the WHATWG URL parser accept (1–4 parts, decimal/0x hex/0 octal), as a uint32. */
export function parseIPv4(text: string): number | null {
  const parts = text.split('.');
  // One trailing dot is allowed, as URL parsers and resolvers do.
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length < 1 || parts.length > 4) return null;
  const values: number[] = [];
  for (const p of parts) {
    let v: number;
    if (/^0x[0-9a-f]*$/i.test(p)) v = p.length === 2 ? 0 : parseInt(p.slice(2), 16);
    else if (/^0[0-7]+$/.test(p)) v = parseInt(p, 8);
    else if (/^(0|[1-9][0-9]*)$/.test(p)) v = Number(p);
    else return null;
    if (!Number.isSafeInteger(v)) return null;
    values.push(v);
  }
  const last = values.pop()!;
  if (values.some((v) => v > 255)) return null;
  if (last >= 256 ** (4 - values.length)) return null;
  let n = 0;
  for (const v of values) n = n * 256 + v;
  return n * 256 ** (4 - values.length) + last;
}

/** IPv6 (with `::`, an embedded dotted IPv4 tail, optionally bracketed, zone id dropped) as eight 16-bit groups. */
export function parseIPv6(text: string): number[] | null {
  let s = text;
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const groups = (half: string): number[] | null => {
    if (half === '') return [];
    const out: number[] = [];
    const items = half.split(':');
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (i === items.length - 1 && item.includes('.')) {
        if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(item)) return null;
        const octets = item.split('.').map(Number);
        if (octets.some((o) => o > 255)) return null;
        out.push(octets[0] * 256 + octets[1], octets[2] * 256 + octets[3]);
      } else {
        if (!/^[0-9a-f]{1,4}$/i.test(item)) return null;
        out.push(parseInt(item, 16));
      }
    }
    return out;
  };
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  if (!head || !tail) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  if (head.length + tail.length > 7) return null;
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}

const inV4 = (n: number, base: string, bits: number) => {
  const b = parseIPv4(base)!;
  const size = 2 ** (32 - bits);
  return Math.floor(n / size) === Math.floor(b / size);
};

export function classifyIPv4(n: number): AddressClass {
  if (n === 0) return 'unspecified';
  if (n === 0xffffffff) return 'broadcast';
  if (inV4(n, '127.0.0.0', 8)) return 'loopback';
  if (inV4(n, '10.0.0.0', 8) || inV4(n, '172.16.0.0', 12) || inV4(n, '192.168.0.0', 16) || inV4(n, '100.64.0.0', 10)) return 'private';
  if (inV4(n, '169.254.0.0', 16)) return 'link-local';
  if (inV4(n, '224.0.0.0', 4)) return 'multicast';
  const reserved = [
    ['0.0.0.0', 8], // "this network"
    ['192.0.0.0', 24], // IETF protocol assignments
    ['192.0.2.0', 24], // documentation
    ['192.88.99.0', 24], // 6to4 relay anycast
    ['198.18.0.0', 15], // benchmarking
    ['198.51.100.0', 24], // documentation
    ['203.0.113.0', 24], // documentation
    ['240.0.0.0', 4], // future use
  ] as const;
  return reserved.some(([base, bits]) => inV4(n, base, bits)) ? 'reserved' : 'public';
}

export function classifyIPv6(g: number[]): AddressClass {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const v4 = (hi: number, lo: number) => hi * 65536 + lo;
  if (zeros(0, 8)) return 'unspecified';
  if (zeros(0, 7) && g[7] === 1) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d) reaches the IPv4 address itself.
  if (zeros(0, 5) && g[5] === 0xffff) return classifyIPv4(v4(g[6], g[7]));
  // IPv4-compatible (::a.b.c.d), deprecated; some stacks still route it to IPv4.
  if (zeros(0, 6)) return 'reserved';
  // NAT64 (64:ff9b::/96) reaches the embedded IPv4 address; its local-use block (64:ff9b:1::/48) is private.
  if (g[0] === 0x64 && g[1] === 0xff9b) return zeros(2, 6) ? classifyIPv4(v4(g[6], g[7])) : 'reserved';
  if ((g[0] & 0xfe00) === 0xfc00) return 'private'; // unique local fc00::/7
  if ((g[0] & 0xffc0) === 0xfe80) return 'link-local';
  if ((g[0] & 0xffc0) === 0xfec0) return 'private'; // site-local, deprecated
  if ((g[0] & 0xff00) === 0xff00) return 'multicast';
  // 6to4 (2002::/16) reaches the IPv4 address in its next 32 bits.
  if (g[0] === 0x2002) return classifyIPv4(v4(g[1], g[2]));
  // Only global unicast (2000::/3) is public, less its special-purpose blocks.
  if ((g[0] & 0xe000) !== 0x2000) return 'reserved';
  if (g[0] === 0x2001 && g[1] < 0x0200) return 'reserved'; // 2001::/23: Teredo, benchmarking, ORCHID, …
  if (g[0] === 0x2001 && g[1] === 0x0db8) return 'reserved'; // documentation
  if (g[0] === 0x3fff && g[1] < 0x1000) return 'reserved'; // documentation (3fff::/20)
  return 'public';
}

/** The class of an address as a resolver returns it (IPv4 dotted or IPv6 text). */
export function classifyAddress(address: string): AddressClass | 'invalid' {
  const v6 = address.includes(':') ? parseIPv6(address) : null;
  if (v6) return classifyIPv6(v6);
  const v4 = parseIPv4(address);
  return v4 === null ? 'invalid' : classifyIPv4(v4);
}

/**
 * The class of a URL's host: an IP literal in any spelling is classified; `localhost` and its
 * subdomains are loopback by definition (RFC 6761); any other name must be resolved and each of its
 * addresses classified. A name whose last label is a number is an IPv4 literal or invalid (WHATWG).
 */
export function classifyHost(host: string): HostClass {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') || h.includes(':')) {
    const v6 = parseIPv6(h);
    return v6 ? classifyIPv6(v6) : 'invalid';
  }
  if (h.endsWith('.')) h = h.slice(0, -1);
  if (h === '' || h.endsWith('.')) return 'invalid';
  const lastLabel = h.slice(h.lastIndexOf('.') + 1);
  if (/^(0x[0-9a-f]*|[0-9]+)$/i.test(lastLabel)) {
    const v4 = parseIPv4(h);
    return v4 === null ? 'invalid' : classifyIPv4(v4);
  }
  if (h === 'localhost' || h.endsWith('.localhost')) return 'loopback';
  return 'name';
}
