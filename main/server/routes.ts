import type { FastifyRequest } from 'fastify';
import { DomainError } from '../../shared/errors.js';
import type { OperationName } from '../../shared/operations.js';
import { oneWalletId, WALLET_ID_CONFLICT, WALLET_ID_KEYS } from '../../shared/wallet-schemas.js';

/**
 * The REST face of the operations table: the spec's (and Relysia's) paths, methods and where each input
 * comes from. Adding a capability adds rows here; behaviour and authorization stay in the engine.
 */
export interface RestRoute {
  method: 'GET' | 'POST' | 'DELETE' | 'PUT';
  url: string;
  op: OperationName;
  /** Builds the operation input from the request; the body by default. */
  input?: (req: FastifyRequest) => unknown;
  /** Overrides the server's body limit, for routes that take large sources. */
  bodyLimit?: number;
}

const none = () => ({});
const query = (req: FastifyRequest) => req.query;

/**
 * Reads named parameters from the headers (Relysia's GET createWallet puts them there), falling back to
 * the query string. Header names arrive lower-case; the input keeps the documented spelling.
 */
const fromHeaders =
  (...names: string[]) =>
  (req: FastifyRequest): Record<string, unknown> => {
    const q = (req.query ?? {}) as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const name of names) {
      const v = req.headers[name.toLowerCase()] ?? q[name];
      if (v !== undefined) out[name] = Array.isArray(v) ? v.join(',') : v;
    }
    return out;
  };

/** Headers first, then the JSON body (if any) on top: for routes that take both. */
const headersAndBody =
  (...names: string[]) =>
  (req: FastifyRequest) => ({ ...fromHeaders(...names)(req), ...bodyOf(req) });

const bodyOf = (req: FastifyRequest): Record<string, unknown> =>
  req.body !== null && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};

/**
 * For operations on a wallet: the id may come as a header, in the query or in the JSON body, spelled
 * `walletID` (the public service's), `walletId` or `walletid`. Two different ids are refused (400): a
 * script must never act on a wallet it did not name.
 */
const withWallet =
  (build: (req: FastifyRequest) => Record<string, unknown>) =>
  (req: FastifyRequest): Record<string, unknown> => {
    const header = req.headers.walletid;
    const query = (req.query ?? {}) as Record<string, unknown>;
    const body = bodyOf(req);
    const one = oneWalletId([Array.isArray(header) ? header.join(',') : header, ...WALLET_ID_KEYS.map((k) => query[k]), ...WALLET_ID_KEYS.map((k) => body[k])]);
    if (one && 'conflict' in one) throw new DomainError('VALIDATION_FAILED', `walletID: ${WALLET_ID_CONFLICT}`);
    const input = { ...build(req) };
    for (const k of WALLET_ID_KEYS) delete input[k];
    return one ? { ...input, walletId: one.id } : input;
  };

const walletOnly = withWallet(() => ({}));

/** pay: the payment request is the body (or under `data`); the wallet, its password and the idempotency key are headers. */
const payInput = withWallet((req: FastifyRequest) => {
  const h = fromHeaders('walletPassword')(req);
  const key = req.headers['idempotency-key'];
  return { ...bodyOf(req), ...h, ...(typeof key === 'string' && key ? { idempotencyKey: key } : {}) };
});
const CREATE_WALLET_FIELDS = ['walletTitle', 'mnemonicPhrase', 'derivationPath', 'paymail', 'paymailActivate', 'type', 'walletLogo', 'serviceId', 'walletPassword', 'members'];

export const REST_ROUTES: readonly RestRoute[] = [
  { method: 'GET', url: '/api/v1/status', op: 'appStatus', input: none },
  { method: 'POST', url: '/api/v1/setup', op: 'setup' },
  { method: 'POST', url: '/api/v1/login', op: 'login' },
  { method: 'POST', url: '/api/v1/logout', op: 'logout', input: none },
  { method: 'GET', url: '/api/v1/me', op: 'me', input: none },
  { method: 'POST', url: '/api/v1/changePassword', op: 'changePassword' },
  { method: 'POST', url: '/api/v1/apiKeys', op: 'createApiKey' },
  { method: 'GET', url: '/api/v1/apiKeys', op: 'listApiKeys', input: none },
  { method: 'POST', url: '/api/v1/apiKeys/rotate', op: 'rotateApiKey' },
  { method: 'POST', url: '/api/v1/apiKeys/revoke', op: 'revokeApiKey' },
  // Enterprise user management (the spec's paths): headers authToken + serviceid.
  { method: 'POST', url: '/api/v1/createUser', op: 'createUser' },
  { method: 'POST', url: '/api/v1/updateUser', op: 'updateUser' },
  { method: 'POST', url: '/api/v1/deleteUser', op: 'deleteUser' },
  { method: 'GET', url: '/api/v1/users', op: 'listUsers', input: none },
  { method: 'GET', url: '/api/v1/audit', op: 'auditLog', input: query },
  // Wallet API (the spec's /v1 paths). The wallet comes from the walletID header (any case), else the default wallet.
  { method: 'GET', url: '/v1/createWallet', op: 'createWallet', input: fromHeaders(...CREATE_WALLET_FIELDS) },
  { method: 'POST', url: '/v1/createWallet', op: 'createWallet', input: headersAndBody(...CREATE_WALLET_FIELDS) },
  { method: 'GET', url: '/v1/wallets', op: 'listWallets', input: none },
  { method: 'DELETE', url: '/v1/wallet', op: 'deleteWallet', input: withWallet(headersAndBody('force')) },
  { method: 'DELETE', url: '/v1/wallets', op: 'deleteAllWallets', input: headersAndBody('force') },
  { method: 'GET', url: '/v1/allAddresses', op: 'walletAddresses', input: walletOnly },
  { method: 'GET', url: '/v1/address', op: 'walletAddress', input: walletOnly },
  { method: 'GET', url: '/v1/mnemonic', op: 'exportMnemonic', input: withWallet(fromHeaders('password', 'walletPassword')) },
  { method: 'POST', url: '/v1/walletMembers', op: 'setWalletMembers', input: withWallet(headersAndBody()) },
  // Chain: status, rates, and (local network) faucet and mining. The ARC/WhatsOnChain routes are in chain-routes.ts.
  { method: 'GET', url: '/v1/network', op: 'networkStatus', input: none },
  { method: 'GET', url: '/v1/rates', op: 'listRates', input: none },
  { method: 'POST', url: '/v1/rates', op: 'setRate' },
  { method: 'GET', url: '/v1/convert', op: 'convertAmount', input: query },
  { method: 'POST', url: '/chain/faucet', op: 'faucet', input: withWallet(bodyOf) },
  { method: 'POST', url: '/chain/mine', op: 'mineBlock', input: (req) => req.body ?? {} },
  // Payments (wallet API).
  { method: 'GET', url: '/v1/URI', op: 'resolveUri', input: withWallet(fromHeaders('uri', 'amount')) },
  { method: 'POST', url: '/v1/URI', op: 'resolveUri', input: withWallet(headersAndBody()) },
  { method: 'POST', url: '/v1/pay/quote', op: 'quotePayment', input: withWallet(bodyOf) },
  { method: 'POST', url: '/v1/pay', op: 'pay', input: payInput },
  { method: 'GET', url: '/v1/history', op: 'history', input: withWallet(fromHeaders('nextPageToken', 'maxResults')) },
  { method: 'POST', url: '/v1/lookup', op: 'lookup', input: headersAndBody('type', 'currency', 'nextPageToken', 'compact', 'maxResults') },
  { method: 'GET', url: '/v1/paymailHosts', op: 'listPaymailHosts', input: none },
  { method: 'POST', url: '/v1/paymailHosts', op: 'setPaymailHost' },
  // Contracts: the offline sCrypt compiler (sourceCode is base64, so the body may be large).
  { method: 'POST', url: '/v1/compile', op: 'compile', bodyLimit: 8 * 1024 * 1024 },
  // Fee manager (the spec's enterprise paths, "Beta").
  { method: 'GET', url: '/api/v1/initBeta', op: 'feeManagerInit', input: fromHeaders('mnemonic') },
  { method: 'GET', url: '/api/v1/feeAddressBeta', op: 'feeManagerAddresses', input: none },
  { method: 'GET', url: '/api/v1/feeMetricsBeta', op: 'feeManagerMetrics', input: none },
  // Address API (the spec's enterprise paths; manager only).
  { method: 'GET', url: '/api/v1/addresses', op: 'addresses', input: walletOnly },
  { method: 'GET', url: '/api/v1/address', op: 'address', input: walletOnly },
];
