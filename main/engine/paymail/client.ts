import { resolveSrv } from 'node:dns/promises';
import { guardedRequest, PAYMAIL_LIMITS, OutboundError, checkTarget, type OutboundLimits, type Resolver } from '../../net/guarded-http.js';
import { DomainError } from '../../../shared/errors.js';
import { cleanRemoteText } from '../../../shared/remote-text.js';
import { parseBasicDestination, parseP2pDestination, type P2pDestination } from './destination-answer.js';
import { PaymailVouches } from './vouched.js';

/** BRFC ids of the capabilities Keystead uses. */
export const CAP = {
  pki: 'pki',
  paymentDestination: 'paymentDestination',
  senderValidation: '6745385c3fc0',
  verifyPubkey: 'a9f510c16bde',
  publicProfile: 'f12f968c92d6',
  p2pDestination: '2a40af698840',
  receiveTransaction: '5f1323cddf31',
  beef: '5c55a7fdb7bb',
} as const;

export type SrvResolver = (name: string) => Promise<{ name: string; port: number; priority: number; weight: number }[]>;

/** Domains whose capabilities are remembered, and for how long. */
const CAP_CACHE_ENTRIES = 1_000;
const CAP_CACHE_MS = 5 * 60_000;
/** The longest capability URL kept (a template with {alias} and {domain.tld}). */
const CAP_URL_LENGTH = 2_048;

/** A host name (labels of letters, digits and hyphens; `localhost`, an IPv4 address): what a paymail domain is. */
export function isPaymailDomain(domain: string): boolean {
  return domain.length <= 253 && /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i.test(domain);
}

/** Of a host's capabilities, only those Keystead uses, as URLs of bounded length or flags; null when it names none. */
function keptCapabilities(caps: unknown): Record<string, string | boolean> | null {
  if (caps === null || typeof caps !== 'object' || Array.isArray(caps)) return null;
  const kept: Record<string, string | boolean> = {};
  for (const id of Object.values(CAP)) {
    const v = (caps as Record<string, unknown>)[id];
    if (typeof v === 'boolean' || (typeof v === 'string' && v.length <= CAP_URL_LENGTH)) kept[id] = v;
  }
  return kept;
}

/** Test seams: shorter caps, and a resolver standing in for DNS. */
export interface PaymailTransport {
  limits?: Partial<OutboundLimits>;
  resolve?: Resolver;
}

/**
 * Finds a paymail's host and talks to it: the host map first (for local domains such as localhost),
 * then DNS SRV `_bsvalias._tcp.<domain>`, then the domain itself; then `/.well-known/bsvalias`.
 * Every request goes through the guarded client (main/net/guarded-http.ts): only public addresses,
 * except the exact origin an admin mapped the paymail's own domain to.
 */
export class PaymailClient {
  private readonly capCache = new Map<string, { at: number; caps: Record<string, string | boolean> }>();
  private readonly limits: OutboundLimits;
  /** The addresses this client's resolutions were answered with: what a payment's paymail is believed for (vouched.ts). */
  readonly vouches = new PaymailVouches();

  constructor(
    private readonly hostMap: () => ReadonlyMap<string, string>,
    private readonly srv: SrvResolver = resolveSrv,
    private readonly transport: PaymailTransport = {},
  ) {
    this.limits = { ...PAYMAIL_LIMITS, ...transport.limits };
  }

  /** The origin an admin mapped this domain to, or null. */
  private mappedOrigin(domain: string): string | null {
    const mapped = this.hostMap().get(domain.toLowerCase());
    return mapped ? originOf(mapped) : null;
  }

  /**
   * A URL met in `domain`'s paymail service (its host, its capability templates) may be private only if
   * it is the very origin an admin mapped that domain to; anything else must resolve to public addresses.
   */
  private async checkFor(url: string, domain: string): Promise<void> {
    const own = this.mappedOrigin(domain);
    try {
      await checkTarget(url, { trusted: (origin) => origin === own, resolve: this.transport.resolve }, this.limits.timeoutMs);
    } catch (err) {
      if (err instanceof OutboundError)
        throw new DomainError(
          'PAYMAIL_FAILED',
          cleanRemoteText(`${domain}'s paymail service points at ${destinationHost(url)}: ${err.message}.`, 500),
        );
      throw err;
    }
  }

  /**
   * Where `domain`'s paymail service is: the host an admin mapped it to, else its DNS SRV record's target, else
   * the domain itself. An SRV answer is not authenticated (no DNSSEC is checked here), so it is followed only
   * to the domain itself or one of its subdomains, whose TLS certificates speak for the domain: a forged SRV
   * answer pointing anywhere else would hand the domain's payments to that host. A paymail hosted elsewhere
   * is paid once an admin maps the domain to its host (Paymail hosts), an explicit and audited trust.
   */
  async hostFor(domain: string): Promise<string> {
    const mapped = this.hostMap().get(domain.toLowerCase());
    if (mapped) return mapped.replace(/\/+$/, '');
    let records: Awaited<ReturnType<SrvResolver>> = [];
    try {
      records = await Promise.race([
        this.srv(`_bsvalias._tcp.${domain}`),
        new Promise<never>((_, rej) => setTimeout(() => rej(new Error('timeout')), 3000)),
      ]);
    } catch {
      /* no SRV record: the domain itself serves paymail */
    }
    const best = [...records].sort((a, b) => a.priority - b.priority || b.weight - a.weight)[0];
    if (!best) return `https://${domain}`;
    const target = String(best.name).replace(/\.$/, '').toLowerCase();
    const own = domain.toLowerCase().replace(/\.$/, '');
    if (target !== own && !target.endsWith(`.${own}`))
      throw new DomainError(
        'PAYMAIL_FAILED',
        cleanRemoteText(
          `${domain}'s DNS SRV record points at ${target}, outside ${domain}; an unauthenticated DNS answer cannot vouch for another host. An admin can map ${domain} to its paymail host under Paymail hosts.`,
          500,
        ),
      );
    return `https://${target}:${best.port}`;
  }

  async capabilities(domain: string): Promise<Record<string, string | boolean>> {
    // The domains asked about are chosen by others (payees, senders): only a host name is one, so that a
    // domain with a path or query cannot name one host under ever new cache keys.
    if (!isPaymailDomain(domain))
      throw new DomainError('PAYMAIL_FAILED', cleanRemoteText(`${domain} is not a paymail domain (a host name).`, 300));
    const key = domain.toLowerCase();
    const cached = this.capCache.get(key);
    if (cached && Date.now() - cached.at < CAP_CACHE_MS) return cached.caps;
    if (cached) this.capCache.delete(key);
    const host = await this.hostFor(domain);
    await this.checkFor(`${host}/.well-known/bsvalias`, domain);
    const r = await this.call(`${host}/.well-known/bsvalias`, 'GET', undefined, `${domain} has no paymail service`);
    const caps = keptCapabilities((r as { capabilities?: unknown }).capabilities);
    if (!caps) throw new DomainError('PAYMAIL_FAILED', `${domain} answered /.well-known/bsvalias without capabilities.`);
    // Bounded: the oldest entry goes first; each holds only the capabilities Keystead uses.
    if (this.capCache.size >= CAP_CACHE_ENTRIES) this.capCache.delete(this.capCache.keys().next().value!);
    this.capCache.set(key, { at: Date.now(), caps });
    return caps;
  }

  /** The capability's URL for this paymail, or null when the host does not offer it. */
  async endpoint(paymail: string, cap: string, pubkey?: string): Promise<string | null> {
    const [alias, domain] = paymail.split('@');
    const template = (await this.capabilities(domain))[cap];
    if (typeof template !== 'string') return null;
    const url = template
      .replace('{alias}', alias)
      .replace('{domain.tld}', domain)
      .replace('{pubkey}', pubkey ?? '');
    // Checked now, not only when used: a receive-transaction URL is contacted after the payment is signed.
    await this.checkFor(url, domain);
    return url;
  }

  /**
   * Where to pay `satoshis` to a paymail (P2P). The host's answer is checked before it is used (see
   * destination-answer.ts): it must pay exactly `satoshis` to standard scripts. `token` asks a Keystead
   * host for a token destination (an extension; other hosts ignore the field).
   */
  async p2pDestination(
    paymail: string,
    satoshis: number,
    opts: { token?: { tokenId: string; protocol: string } } = {},
  ): Promise<P2pDestination> {
    const url = await this.endpoint(paymail, CAP.p2pDestination);
    if (!url) throw new DomainError('PAYMAIL_FAILED', `${paymail} does not offer P2P payment destinations.`);
    const body = opts.token ? { satoshis, token: { tokenId: opts.token.tokenId, protocol: opts.token.protocol } } : { satoshis };
    const r = await this.call(url, 'POST', body, `${paymail} refused a payment destination`);
    const dest = parseP2pDestination(r, satoshis, `${paymail} (host ${destinationHost(url)})`);
    this.vouches.record(
      paymail,
      dest.outputs.map((o) => o.script),
    );
    return dest;
  }

  /** Basic address resolution: the host's answer must be one standard P2PKH output script. */
  async basicDestination(
    paymail: string,
    request: { senderHandle: string; senderName?: string; dt: string; amount: number; purpose: string; signature?: string },
  ): Promise<string> {
    const url = await this.endpoint(paymail, CAP.paymentDestination);
    if (!url) throw new DomainError('PAYMAIL_FAILED', `${paymail} offers no payment destination.`);
    const r = await this.call(url, 'POST', request, `${paymail} refused a payment destination`);
    const script = parseBasicDestination(r, `${paymail} (host ${destinationHost(url)})`);
    this.vouches.record(paymail, [script]);
    return script;
  }

  async pki(paymail: string): Promise<string> {
    const url = await this.endpoint(paymail, CAP.pki);
    if (!url) throw new DomainError('PAYMAIL_FAILED', `${paymail} offers no public key.`);
    const r = (await this.call(url, 'GET', undefined, `${paymail} has no public key`)) as { pubkey?: string };
    if (typeof r.pubkey !== 'string') throw new DomainError('PAYMAIL_FAILED', `${paymail} answered without a pubkey.`);
    return r.pubkey;
  }

  async verifyPubkey(paymail: string, pubkey: string): Promise<boolean> {
    const url = await this.endpoint(paymail, CAP.verifyPubkey, pubkey);
    if (!url) return false;
    const r = (await this.call(url, 'GET', undefined, `${paymail} could not verify the key`)) as { match?: boolean };
    return r.match === true;
  }

  /** Hands a signed transaction to the receiver (P2P), which checks and broadcasts it. */
  async deliver(
    peer: string,
    body: ({ hex: string } | { beef: string }) & { reference: string; metadata: Record<string, string> },
  ): Promise<{ txid: string; note?: string }> {
    const r = (await this.call(peer, 'POST', body, 'the receiver refused the transaction')) as { txid?: string; note?: string };
    if (typeof r.txid !== 'string') throw new DomainError('PAYMAIL_FAILED', 'The receiver answered without a txid.');
    return { txid: r.txid, note: r.note };
  }

  /**
   * One request through the guarded client, never retried (a POST may have been received). Private
   * addresses are reached only at the URL's own origin and only if an admin mapped a domain to exactly
   * that origin (callers check that the URL belongs to that domain: checkFor); a redirect elsewhere is
   * checked as a stranger's URL.
   */
  private async call(url: string, method: 'GET' | 'POST', body: unknown, failure: string): Promise<unknown> {
    const start = originOf(url);
    const mapped = start !== null && [...this.hostMap().values()].some((u) => originOf(u) === start);
    let r: { status: number; body: unknown };
    try {
      const res = await guardedRequest(url, {
        method,
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        expect: 'json',
        limits: this.limits,
        trusted: (origin) => mapped && origin === start,
        resolve: this.transport.resolve,
      });
      r = { status: res.status, body: parseJson(res.text) };
    } catch (err) {
      if (!(err instanceof OutboundError)) throw err;
      // Only a request Keystead refused to send is a definite failure; an unusable answer (too large, not
      // JSON, cut off) may come from a host that acted on the request, so its outcome stays open.
      const definite = err.kind === 'address' || err.kind === 'url';
      throw new DomainError('PAYMAIL_FAILED', cleanRemoteText(`${failure}: ${err.message}`, 500), { definite });
    }
    if (r.status >= 400) {
      const said = (r.body as { message?: unknown } | null)?.message;
      // The host's words reach history, the API and a terminal: one inert line (SECURITY.md, counterparty text).
      const msg = (typeof said === 'string' && cleanRemoteText(said, 300)) || `HTTP ${r.status}`;
      // A 4xx is the host's definite answer; anything else (unreachable, 5xx) leaves the outcome open.
      throw new DomainError(r.status === 404 ? 'NOT_FOUND' : 'PAYMAIL_FAILED', `${failure}: ${msg}`, { definite: r.status < 500 });
    }
    // A foreign host may answer anything: what is not a JSON object reads as an empty one.
    return r.body !== null && typeof r.body === 'object' && !Array.isArray(r.body) ? r.body : {};
  }
}

/** The host part of a capability URL, to name the host in a refusal (the URL itself may be long). */
function destinationHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url.slice(0, 100);
  }
}

/** `scheme://host:port` of a URL, or null when it is not one. */
function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** The answer as JSON; what does not parse is kept as text (and later read as an empty object). */
function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return text;
  }
}
