/** A small JSON client for tests: always returns status, headers and the parsed envelope. */
export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export async function request<T = any>(
  base: string,
  method: string,
  path: string,
  opts: { body?: unknown; raw?: string; headers?: Record<string, string> } = {},
): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  let body: string | undefined;
  if (opts.raw !== undefined) body = opts.raw;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(base + path, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON: keep the text */
  }
  return { status: res.status, headers: res.headers, body: parsed as T };
}

export const ADMIN = {
  organisation: 'Acme Ltd',
  email: 'ada@acme.io',
  password: 'correct-horse-1',
  firstName: 'Ada',
  lastName: 'Lovelace',
};

/**
 * A request with a Host header of our choosing (fetch will not send one): what a reverse proxy or a
 * DNS-rebinding page sends. Same reply shape as `request`.
 */
export function requestAs<T = any>(
  hostHeader: string,
  base: string,
  method: string,
  path: string,
  opts: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<Reply<T>> {
  return import('node:http').then(
    ({ request: raw }) =>
      new Promise((resolve, reject) => {
        const url = new URL(base);
        const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
        const req = raw(
          {
            host: url.hostname,
            port: url.port,
            method,
            path,
            headers: {
              ...opts.headers,
              host: hostHeader,
              ...(body ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}),
            },
          },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (c) => (text += c));
            res.on('end', () => {
              let parsed: unknown = text;
              try {
                parsed = JSON.parse(text);
              } catch {
                /* not JSON: keep the text */
              }
              resolve({ status: res.statusCode ?? 0, headers: new Headers(res.headers as Record<string, string>), body: parsed as T });
            });
          },
        );
        req.on('error', reject);
        req.end(body);
      }),
  );
}
