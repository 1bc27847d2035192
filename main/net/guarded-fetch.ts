import { guardedExchange, OutboundError, type OutboundExchange, type OutboundRequest } from './guarded-http.js';

/** What `fetch` is to a library that takes one (the subset such libraries call). */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Who may be contacted and how much is read: guarded-http's rule, the same for every request of this fetch. */
export type GuardedFetchRule = Pick<OutboundRequest, 'limits' | 'trusted' | 'allowLoopback' | 'resolve'>;

/** Statuses whose Response may not carry a body (the Response constructor throws otherwise). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * A `fetch` for libraries that take one (@bsv/sdk's SimplifiedFetchTransport, for BRC-104), made of the
 * guarded client: the host's addresses checked by `rule`, one time cap for the whole request, the body
 * capped in bytes while it streams, redirects followed for GET only (each target checked again) and never
 * for POST. It answers status, headers and body, as fetch does; anything it refuses rejects with an
 * OutboundError (whose message is Keystead's own, never text from the host). GET and POST only, bodies
 * as strings or bytes; `signal` and `redirect` are not honoured (the rule's time cap and redirect policy are).
 */
export function guardedFetch(rule: GuardedFetchRule): FetchLike {
  return async (input, init = {}) => {
    if (typeof input !== 'string' && !(input instanceof URL)) throw new OutboundError('url', 'only a URL is fetched, not a Request', false);
    const method = (init.method ?? 'GET').toUpperCase();
    if (method !== 'GET' && method !== 'POST')
      throw new OutboundError('url', `only GET and POST are sent, not ${method.slice(0, 20)}`, false);
    const reply = await guardedExchange(String(input), {
      method,
      headers: headerRecord(init.headers),
      body: bodyOf(init.body),
      expect: 'any',
      limits: rule.limits,
      trusted: rule.trusted,
      allowLoopback: rule.allowLoopback,
      resolve: rule.resolve,
    });
    return toResponse(reply);
  };
}

function headerRecord(headers: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers === undefined) return out;
  const pairs = headers instanceof Headers ? [...headers.entries()] : Array.isArray(headers) ? headers : Object.entries(headers);
  for (const [k, v] of pairs) out[k.toLowerCase()] = String(v);
  return out;
}

function bodyOf(body: RequestInit['body']): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  throw new OutboundError('url', 'only string and byte bodies are sent', false);
}

function toResponse(r: OutboundExchange): Response {
  const host = new URL(r.url).host;
  if (r.status < 200 || r.status > 599) throw new OutboundError('network', `${host} answered with HTTP status ${r.status}`, true);
  const headers = new Headers();
  try {
    for (const [k, v] of r.headers) headers.append(k, v);
  } catch {
    throw new OutboundError('network', `${host} answered with a malformed header`, true);
  }
  return new Response(NULL_BODY.has(r.status) ? null : new Uint8Array(r.body), { status: r.status, headers });
}
