import type { AnyContract, HttpMethod, RestBinding } from './operation.js';

/** One HTTP request for an operation, before it is sent: the path is relative to the server's address. */
export interface ApiRequest {
  method: HttpMethod;
  path: string;
  headers: Record<string, string>;
  /** The JSON body; none for a route that takes none. */
  body?: unknown;
}

/** The UI's RPC: every operation is POST /rpc/<name>, its whole input the body. */
export function rpcRequest(op: AnyContract, input: unknown): ApiRequest {
  return { method: 'POST', path: `/rpc/${op.name}`, headers: {}, body: input ?? {} };
}

/** The route a script calls: the first that takes a JSON body (which keeps numbers numbers), else the first. */
export function restBinding(op: AnyContract): RestBinding {
  const binding = op.rest.find((b) => b.body) ?? op.rest[0];
  if (!binding) throw new TypeError(`${op.name} has no REST route`);
  return binding;
}

function headerValue(op: AnyContract, field: string, value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new TypeError(`${op.name}: ${field} travels in a header, so it must be a string, number or boolean`);
}

/**
 * The public REST request for an operation, the inverse of how the server reads its route (main/server/
 * routes.ts): path parameters into the path; the wallet id as the `walletID` header (the public service's
 * spelling); renamed fields back into their headers (`idempotencyKey` → `idempotency-key`); the rest in the
 * JSON body, or, for a route without one, in its named headers or the query string. A field the route
 * has no place for is a mistake in the caller, refused rather than dropped.
 */
export function restRequest(op: AnyContract, input: unknown): ApiRequest {
  if (input !== undefined && (input === null || typeof input !== 'object' || Array.isArray(input)))
    throw new TypeError(`${op.name}: the input must be an object`);
  const binding = restBinding(op);
  const fields: Record<string, unknown> = Object.fromEntries(Object.entries(input ?? {}).filter(([, v]) => v !== undefined));
  const headers: Record<string, string> = {};
  const take = (field: string) => {
    const value = fields[field];
    delete fields[field];
    return value;
  };

  const path = binding.params
    ? binding.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
        if (fields[name] === undefined) throw new TypeError(`${op.name}: ${name} is part of the path ${binding.path}`);
        return encodeURIComponent(headerValue(op, name, take(name)));
      })
    : binding.path;
  if (binding.wallet && fields.walletId !== undefined) headers.walletID = headerValue(op, 'walletId', take('walletId'));
  for (const [header, field] of Object.entries(binding.renames ?? {})) {
    if (fields[field] !== undefined) headers[header] = headerValue(op, field, take(field));
  }
  if (binding.body) return { method: binding.method, path, headers, body: fields };

  for (const name of binding.headers ?? []) {
    if (fields[name] !== undefined) headers[name] = headerValue(op, name, take(name));
  }
  const rest = Object.keys(fields);
  if (rest.length && !binding.query)
    throw new TypeError(`${op.name}: ${binding.method} ${binding.path} has no place for ${rest.join(', ')}`);
  const query = new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, headerValue(op, k, v)])).toString();
  return { method: binding.method, path: query ? `${path}?${query}` : path, headers };
}
