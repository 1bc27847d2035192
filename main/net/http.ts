import { guardedRequest, OutboundError } from './guarded-http.js';

/**
 * HTTP for the network providers (ARC, WhatsOnChain, a remote Keystead node): through the guarded
 * client for its time and size caps (an admin chose these hosts, so their addresses are not checked,
 * but their answers are still foreign bytes), with bounded retries and exponential backoff for what
 * may pass (network errors, 429, 5xx). 4xx answers are returned, never retried, and a POST is resent
 * only when it cannot have been received (no connection was made, or a 429 said it was not taken).
 */
export interface HttpOptions {
  /** Per attempt, all of it: connect, headers and body. */
  timeoutMs: number;
  retries: number;
  backoffMs: number;
  /** Largest answer read, in bytes (default PROVIDER_MAX_BYTES). */
  maxBytes?: number;
}

/** Providers answer transactions as hex and address histories; 32 MiB holds a 16 MB transaction. */
export const PROVIDER_MAX_BYTES = 32 * 1024 * 1024;

export const DEFAULT_HTTP: HttpOptions = { timeoutMs: 15_000, retries: 3, backoffMs: 250, maxBytes: PROVIDER_MAX_BYTES };

export interface HttpReply {
  status: number;
  /** Parsed JSON when the body is JSON, else the text. */
  body: unknown;
}

export class HttpUnavailable extends Error {
  constructor(
    readonly url: string,
    readonly lastError: string,
  ) {
    super(`${url} did not answer: ${lastError}`);
    this.name = 'HttpUnavailable';
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function httpRequest(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
  opts: HttpOptions = DEFAULT_HTTP,
): Promise<HttpReply> {
  const method = init.method === 'POST' ? 'POST' : 'GET';
  let last = '';
  for (let attempt = 0; attempt <= opts.retries; attempt++) {
    if (attempt > 0) await sleep(opts.backoffMs * 2 ** (attempt - 1));
    try {
      const res = await guardedRequest(url, {
        method,
        headers: init.headers,
        body: init.body,
        expect: 'any',
        limits: { timeoutMs: opts.timeoutMs, maxBytes: opts.maxBytes ?? PROVIDER_MAX_BYTES, maxRedirects: 3 },
        trusted: () => true,
      });
      let body: unknown = res.text;
      try {
        body = res.text ? JSON.parse(res.text) : null;
      } catch {
        /* not JSON */
      }
      if (res.status === 429 || res.status >= 500) {
        last = `HTTP ${res.status}`;
        // A 5xx to a POST may come after the request was acted on: not sent again.
        if (method === 'POST' && res.status !== 429) break;
        continue;
      }
      return { status: res.status, body };
    } catch (err) {
      if (!(err instanceof OutboundError)) throw err;
      last = err.message;
      // An answer past the size cap will be as large next time; a POST that may have arrived is not resent.
      if (err.kind === 'too-large' || err.kind === 'url' || (method === 'POST' && err.maybeReceived)) break;
    }
  }
  throw new HttpUnavailable(url, last);
}
