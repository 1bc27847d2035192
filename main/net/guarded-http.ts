import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingMessage, type RequestOptions } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { classifyAddress, classifyHost } from './address-class.js';

/**
 * The one client for requests to hosts someone else chose (paymail hosts, senders' hosts, providers).
 * Their answers are hostile bytes: every request has a total time cap (resolve + connect + headers +
 * body), a size cap enforced while streaming, redirects followed by hand (GET only, few, each target
 * checked like the first) and, where JSON is expected, a JSON content type. Unless the origin is one an
 * admin configured, the host is resolved here, every address it resolves to must be public, and the
 * connection goes to the address that was checked (so a second DNS answer cannot point it elsewhere).
 * Nothing is retried here: a POST that may have been received is never sent twice.
 */
export interface OutboundLimits {
  /** Total time for the request and its redirects, in ms. */
  timeoutMs: number;
  /** Largest answer body read, in bytes; larger answers are cut off and refused. */
  maxBytes: number;
  /** Redirects followed (GET only). */
  maxRedirects: number;
}

/** For paymail hosts: answers are small JSON documents. */
export const PAYMAIL_LIMITS: OutboundLimits = { timeoutMs: 10_000, maxBytes: 1024 * 1024, maxRedirects: 3 };

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export interface OutboundRequest {
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** `json`: a 2xx answer must be labelled JSON. */
  expect: 'json' | 'any';
  limits: OutboundLimits;
  /**
   * Whether this origin (`scheme://host:port`) may be reached whatever its address: only what an admin
   * configured (a paymail host map entry, a chain provider). Everything else must resolve to public addresses.
   */
  trusted: (origin: string) => boolean;
  /**
   * Whether loopback addresses may be reached besides public ones (never private, link-local or other
   * special ranges): only for a party already on this machine, which could reach them itself.
   */
  allowLoopback?: boolean;
  resolve?: Resolver;
}

export interface OutboundReply {
  status: number;
  contentType: string;
  text: string;
  /** The URL that answered, after redirects. */
  url: string;
}

/** An answer as bytes, with every header (the raw pairs, in order): for protocols that read headers (BRC-104). */
export interface OutboundExchange {
  status: number;
  contentType: string;
  /** Name/value pairs as received (names as sent by the host; repeated headers repeat). */
  headers: [string, string][];
  body: Buffer;
  /** The URL that answered, after redirects. */
  url: string;
}

export type OutboundFailure = 'address' | 'url' | 'too-large' | 'timeout' | 'content-type' | 'redirect' | 'network';

export class OutboundError extends Error {
  constructor(
    readonly kind: OutboundFailure,
    message: string,
    /** True once a connection was made: the request may have been received, so a POST must not be resent. */
    readonly maybeReceived: boolean,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export function isJsonType(contentType: string): boolean {
  return /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i.test(contentType.trim());
}

export async function guardedRequest(url: string, req: OutboundRequest): Promise<OutboundReply> {
  const r = await guardedExchange(url, req);
  return { status: r.status, contentType: r.contentType, text: r.body.toString('utf8'), url: r.url };
}

/** guardedRequest with the answer's headers and its body as bytes; the same checks and caps. */
export async function guardedExchange(url: string, req: OutboundRequest): Promise<OutboundExchange> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), req.limits.timeoutMs);
  try {
    let target = parseTarget(url);
    for (let redirects = 0; ; redirects++) {
      const pinned = await untilAborted(pinAddress(target, req), deadline.signal, req.limits.timeoutMs, false);
      const res = await exchange(target, pinned, req, deadline.signal);
      const location = res.headers.location;
      if (REDIRECTS.has(res.statusCode ?? 0) && location) {
        res.destroy();
        if (req.method !== 'GET')
          throw new OutboundError('redirect', `${target.host} answered the ${req.method} with a redirect, which is not followed`, true);
        if (redirects >= req.limits.maxRedirects)
          throw new OutboundError('redirect', `${target.host} redirected more than ${req.limits.maxRedirects} times`, true);
        target = parseTarget(location, target);
        continue;
      }
      const contentType = String(res.headers['content-type'] ?? '');
      const status = res.statusCode ?? 0;
      if (req.expect === 'json' && status >= 200 && status < 300 && !isJsonType(contentType)) {
        res.destroy();
        throw new OutboundError(
          'content-type',
          `${target.host} answered with ${contentType ? `content type ${contentType.slice(0, 80)}` : 'no content type'} where JSON was expected`,
          true,
        );
      }
      const body = await readCapped(res, target, req.limits, deadline.signal);
      const headers: [string, string][] = [];
      for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.push([res.rawHeaders[i], res.rawHeaders[i + 1]]);
      return { status, contentType, headers, body, url: target.href };
    }
  } finally {
    clearTimeout(timer);
  }
}

function parseTarget(url: string, base?: URL): URL {
  let u: URL;
  try {
    u = new URL(url, base);
  } catch {
    throw new OutboundError('url', `not a URL: ${url.slice(0, 100)}`, false);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new OutboundError('url', `only http and https are used, not ${u.protocol}`, false);
  if (u.username || u.password) throw new OutboundError('url', 'URLs with credentials are not used', false);
  return u;
}

/**
 * Refuses a URL that the guarded client would refuse to contact (scheme, credentials, address), without
 * contacting it: for URLs that are stored now and used later (a receive-transaction endpoint).
 */
export async function checkTarget(
  url: string,
  rule: Pick<OutboundRequest, 'trusted' | 'resolve' | 'allowLoopback'>,
  timeoutMs = PAYMAIL_LIMITS.timeoutMs,
): Promise<void> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  try {
    await untilAborted(pinAddress(parseTarget(url), rule), deadline.signal, timeoutMs, false);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The address to connect to, checked: null when the host is an IP literal or a trusted origin (the
 * connection then goes where the URL says). Every address a name resolves to must be public, so a name
 * cannot pass with one public and one private answer.
 */
async function pinAddress(
  u: URL,
  req: Pick<OutboundRequest, 'trusted' | 'resolve' | 'allowLoopback'>,
): Promise<{ address: string; family: number } | null> {
  if (req.trusted(u.origin)) return null;
  const host = u.hostname;
  const cls = classifyHost(host);
  const allowed = (c: string) => c === 'public' || (c === 'loopback' && req.allowLoopback === true);
  if (allowed(cls)) return null;
  if (cls !== 'name')
    throw new OutboundError('address', `${host} is a ${cls} address, which Keystead does not contact for a remote party`, false);
  let addresses: { address: string; family: number }[];
  try {
    addresses = await (req.resolve ?? systemResolver)(host);
  } catch (err) {
    throw new OutboundError(
      'network',
      `${host} could not be resolved (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
      false,
    );
  }
  if (!addresses.length) throw new OutboundError('network', `${host} resolves to no address`, false);
  for (const a of addresses) {
    const c = classifyAddress(a.address);
    if (!allowed(c))
      throw new OutboundError('address', `${host} resolves to a ${c} address, which Keystead does not contact for a remote party`, false);
  }
  return addresses[0];
}

/** Resolves `p` unless the deadline passes first (DNS lookups take no signal). */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal, timeoutMs: number, maybeReceived: boolean): Promise<T> {
  if (signal.aborted) return Promise.reject(timedOut(timeoutMs, maybeReceived));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(timedOut(timeoutMs, maybeReceived));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

const timedOut = (ms: number, maybeReceived: boolean) => new OutboundError('timeout', `timed out after ${ms} ms`, maybeReceived);

/**
 * A socket `lookup` that answers every name with the address that was checked, never with a fresh DNS
 * answer (which a hostile name server could point at a private address between the check and the connect).
 */
export function pinnedLookup(pinned: { address: string; family: number }): LookupFunction {
  return (_host, opts, cb) => {
    if ((opts as { all?: boolean }).all) (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [pinned]);
    else cb(null, pinned.address, pinned.family);
  };
}

/** One request and its response head; the body is left to readCapped. */
function exchange(
  u: URL,
  pinned: { address: string; family: number } | null,
  req: OutboundRequest,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    let connected = false;
    const lookup = pinned ? pinnedLookup(pinned) : undefined;
    const body = req.body === undefined ? undefined : typeof req.body === 'string' ? Buffer.from(req.body) : Buffer.from(req.body);
    const options: RequestOptions = {
      method: req.method,
      hostname: u.hostname.replace(/^\[|\]$/g, ''),
      port: u.port || undefined,
      path: `${u.pathname}${u.search}`,
      headers: { ...req.headers, ...(body ? { 'content-length': String(body.length) } : {}) },
      // A fresh connection per request: a pooled socket must not outlive the check that allowed it.
      agent: false,
      lookup,
    };
    const r = (u.protocol === 'https:' ? https : http).request(options, resolve);
    const onAbort = () => r.destroy();
    if (signal.aborted) return reject(timedOut(req.limits.timeoutMs, false));
    signal.addEventListener('abort', onAbort, { once: true });
    r.once('socket', (s) => {
      if (!s.connecting) connected = true;
      s.once('connect', () => (connected = true));
    });
    r.once('response', () => signal.removeEventListener('abort', onAbort));
    r.once('error', (err: NodeJS.ErrnoException) => {
      signal.removeEventListener('abort', onAbort);
      if (signal.aborted) reject(timedOut(req.limits.timeoutMs, connected));
      else reject(new OutboundError('network', `${u.host}: ${err.code ?? err.message}`, connected));
    });
    r.end(body);
  });
}

/** Reads the body, refusing it as soon as it passes the cap, and within the deadline. */
function readCapped(res: IncomingMessage, u: URL, limits: OutboundLimits, signal: AbortSignal): Promise<Buffer> {
  const tooLarge = () => new OutboundError('too-large', `${u.host} answered with more than ${limits.maxBytes} bytes`, true);
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > limits.maxBytes) {
    res.destroy();
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (err: Error | null, body?: Buffer) => {
      if (done) return;
      done = true;
      signal.removeEventListener('abort', onAbort);
      if (err) {
        res.destroy();
        reject(err);
      } else resolve(body!);
    };
    const onAbort = () => finish(timedOut(limits.timeoutMs, true));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limits.maxBytes) return finish(tooLarge());
      chunks.push(chunk);
    });
    res.once('end', () => finish(null, Buffer.concat(chunks)));
    res.once('error', (err) => finish(new OutboundError('network', `${u.host}: ${err.message}`, true)));
    res.once('close', () => {
      if (!res.complete) finish(new OutboundError('network', `${u.host} closed the connection mid-answer`, true));
    });
  });
}
