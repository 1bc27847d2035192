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

export const ADMIN = { organisation: 'Acme Ltd', email: 'ada@acme.io', password: 'correct-horse-1', firstName: 'Ada', lastName: 'Lovelace' };
