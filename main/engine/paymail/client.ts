import { resolveSrv } from 'node:dns/promises';
import { httpRequest, type HttpOptions } from '../../net/http.js';
import { DomainError } from '../../../shared/errors.js';

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

const HTTP: HttpOptions = { timeoutMs: 10_000, retries: 1, backoffMs: 200 };

/**
 * Finds a paymail's host and talks to it: the host map first (for local domains such as localhost),
 * then DNS SRV `_bsvalias._tcp.<domain>`, then the domain itself; then `/.well-known/bsvalias`.
 */
export class PaymailClient {
  private readonly capCache = new Map<string, { at: number; caps: Record<string, string | boolean> }>();

  constructor(
    private readonly hostMap: () => ReadonlyMap<string, string>,
    private readonly srv: SrvResolver = resolveSrv,
  ) {}

  async hostFor(domain: string): Promise<string> {
    const mapped = this.hostMap().get(domain.toLowerCase());
    if (mapped) return mapped.replace(/\/+$/, '');
    try {
      const records = await Promise.race([this.srv(`_bsvalias._tcp.${domain}`), new Promise<never>((_, rej) => setTimeout(() => rej(new Error('timeout')), 3000))]);
      const best = [...records].sort((a, b) => a.priority - b.priority || b.weight - a.weight)[0];
      if (best) return `https://${best.name.replace(/\.$/, '')}:${best.port}`;
    } catch {
      /* no SRV record: the domain itself serves paymail */
    }
    return `https://${domain}`;
  }

  async capabilities(domain: string): Promise<Record<string, string | boolean>> {
    const cached = this.capCache.get(domain);
    if (cached && Date.now() - cached.at < 5 * 60_000) return cached.caps;
    const host = await this.hostFor(domain);
    const r = await this.call(`${host}/.well-known/bsvalias`, 'GET', undefined, `${domain} has no paymail service`);
    const caps = (r as { capabilities?: Record<string, string | boolean> }).capabilities;
    if (!caps) throw new DomainError('PAYMAIL_FAILED', `${domain} answered /.well-known/bsvalias without capabilities.`);
    this.capCache.set(domain, { at: Date.now(), caps });
    return caps;
  }

  /** The capability's URL for this paymail, or null when the host does not offer it. */
  async endpoint(paymail: string, cap: string, pubkey?: string): Promise<string | null> {
    const [alias, domain] = paymail.split('@');
    const template = (await this.capabilities(domain))[cap];
    if (typeof template !== 'string') return null;
    return template.replace('{alias}', alias).replace('{domain.tld}', domain).replace('{pubkey}', pubkey ?? '');
  }

  async p2pDestination(paymail: string, satoshis: number): Promise<{ outputs: { script: string; satoshis: number }[]; reference: string }> {
    const url = await this.endpoint(paymail, CAP.p2pDestination);
    if (!url) throw new DomainError('PAYMAIL_FAILED', `${paymail} does not offer P2P payment destinations.`);
    const r = (await this.call(url, 'POST', { satoshis }, `${paymail} refused a payment destination`)) as { outputs?: { script: string; satoshis: number }[]; reference?: string };
    if (!Array.isArray(r.outputs) || !r.outputs.length || typeof r.reference !== 'string') throw new DomainError('PAYMAIL_FAILED', `${paymail} answered without outputs or reference.`);
    return { outputs: r.outputs, reference: r.reference };
  }

  async basicDestination(paymail: string, request: { senderHandle: string; senderName?: string; dt: string; amount: number; purpose: string; signature?: string }): Promise<string> {
    const url = await this.endpoint(paymail, CAP.paymentDestination);
    if (!url) throw new DomainError('PAYMAIL_FAILED', `${paymail} offers no payment destination.`);
    const r = (await this.call(url, 'POST', request, `${paymail} refused a payment destination`)) as { output?: string };
    if (typeof r.output !== 'string' || !/^[0-9a-f]+$/i.test(r.output)) throw new DomainError('PAYMAIL_FAILED', `${paymail} answered without an output script.`);
    return r.output;
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
  async deliver(peer: string, body: ({ hex: string } | { beef: string }) & { reference: string; metadata: Record<string, string> }): Promise<{ txid: string; note?: string }> {
    const r = (await this.call(peer, 'POST', body, 'the receiver refused the transaction')) as { txid?: string; note?: string };
    if (typeof r.txid !== 'string') throw new DomainError('PAYMAIL_FAILED', 'The receiver answered without a txid.');
    return { txid: r.txid, note: r.note };
  }

  private async call(url: string, method: 'GET' | 'POST', body: unknown, failure: string): Promise<unknown> {
    let r;
    try {
      r = await httpRequest(url, { method, headers: { 'content-type': 'application/json', accept: 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }, HTTP);
    } catch (err) {
      throw new DomainError('PAYMAIL_FAILED', `${failure}: ${(err as Error).message}`);
    }
    if (r.status >= 400) {
      const said = (r.body as { message?: unknown } | null)?.message;
      const msg = typeof said === 'string' ? said.slice(0, 300) : `HTTP ${r.status}`;
      // A 4xx is the host's definite answer; anything else (unreachable, 5xx) leaves the outcome open.
      throw new DomainError(r.status === 404 ? 'NOT_FOUND' : 'PAYMAIL_FAILED', `${failure}: ${msg}`, { definite: r.status < 500 });
    }
    // A foreign host may answer anything: what is not a JSON object reads as an empty one.
    return r.body !== null && typeof r.body === 'object' && !Array.isArray(r.body) ? r.body : {};
  }
}
