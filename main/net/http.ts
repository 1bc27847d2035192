/**
 * HTTP for the network providers: a timeout on every request, and bounded retries with exponential
 * backoff for what may pass (network errors, 429, 5xx). 4xx answers are returned, never retried.
 */
export interface HttpOptions {
  timeoutMs: number;
  retries: number;
  backoffMs: number;
}

export const DEFAULT_HTTP: HttpOptions = { timeoutMs: 15_000, retries: 3, backoffMs: 250 };

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
  let last = '';
  for (let attempt = 0; attempt <= opts.retries; attempt++) {
    if (attempt > 0) await sleep(opts.backoffMs * 2 ** (attempt - 1));
    try {
      const res = await fetch(url, { ...init, signal: AbortSignal.timeout(opts.timeoutMs) });
      const text = await res.text();
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        /* not JSON */
      }
      if (res.status === 429 || res.status >= 500) {
        last = `HTTP ${res.status}`;
        continue;
      }
      return { status: res.status, body };
    } catch (err) {
      last = (err as Error).name === 'TimeoutError' ? `timed out after ${opts.timeoutMs} ms` : (err as Error).message;
    }
  }
  throw new HttpUnavailable(url, last);
}
