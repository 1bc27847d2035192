import type { FastifyRequest } from 'fastify';
import { DomainError } from '../../shared/errors.js';
import type { RestBinding } from '../../shared/operation.js';
import { OPERATION_NAMES, OPERATIONS, type OperationName } from '../../shared/operations.js';
import { oneWalletId, WALLET_ID_CONFLICT, WALLET_ID_KEYS } from '../../shared/wallet-schemas.js';

/**
 * The REST face of the operations: every route comes from a contract's `rest` bindings (shared/contracts/),
 * with its input read from the query, headers and body as the binding says. Nothing is listed here.
 */
export interface RestRoute {
  method: RestBinding['method'];
  url: string;
  op: OperationName;
  input: (req: FastifyRequest) => Record<string, unknown>;
  bodyLimit?: number;
  serviceIdFromCredential: boolean;
}

const bodyOf = (req: FastifyRequest): Record<string, unknown> =>
  req.body !== null && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};

/**
 * Named parameters from the headers (Relysia's GET createWallet puts them there), else the query string.
 * Header names arrive lower-case; the input keeps the documented spelling.
 */
function fromHeaders(req: FastifyRequest, names: readonly string[]): Record<string, unknown> {
  const q = (req.query ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const v = req.headers[name.toLowerCase()] ?? q[name];
    if (v !== undefined) out[name] = Array.isArray(v) ? v.join(',') : v;
  }
  return out;
}

/**
 * The wallet id may come as a header, in the query or in the JSON body, spelled `walletID` (the public
 * service's), `walletId` or `walletid`. Two different ids are refused (400): a script must never act on a
 * wallet it did not name.
 */
function withWallet(req: FastifyRequest, input: Record<string, unknown>): Record<string, unknown> {
  const header = req.headers.walletid;
  const query = (req.query ?? {}) as Record<string, unknown>;
  const body = bodyOf(req);
  const one = oneWalletId([
    Array.isArray(header) ? header.join(',') : header,
    ...WALLET_ID_KEYS.map((k) => query[k]),
    ...WALLET_ID_KEYS.map((k) => body[k]),
  ]);
  if (one && 'conflict' in one) throw new DomainError('VALIDATION_FAILED', `walletID: ${WALLET_ID_CONFLICT}`);
  const out = { ...input };
  for (const k of WALLET_ID_KEYS) delete out[k];
  return one ? { ...out, walletId: one.id } : out;
}

/** Builds an operation's input from a request, as its binding says. */
export function inputReader(binding: RestBinding): (req: FastifyRequest) => Record<string, unknown> {
  return (req) => {
    const input: Record<string, unknown> = {};
    if (binding.query) Object.assign(input, req.query ?? {});
    if (binding.headers) Object.assign(input, fromHeaders(req, binding.headers));
    if (binding.body) Object.assign(input, bodyOf(req));
    if (binding.params) Object.assign(input, (req.params ?? {}) as Record<string, unknown>);
    for (const [header, field] of Object.entries(binding.renames ?? {})) {
      const v = req.headers[header];
      if (typeof v === 'string' && v) input[field] = v;
    }
    return binding.wallet ? withWallet(req, input) : input;
  };
}

export const REST_ROUTES: readonly RestRoute[] = OPERATION_NAMES.flatMap((op) =>
  OPERATIONS[op].rest.map((b: RestBinding) => ({
    method: b.method,
    url: b.path,
    op,
    input: inputReader(b),
    bodyLimit: b.bodyLimit,
    serviceIdFromCredential: b.serviceIdFromCredential === true,
  })),
);
