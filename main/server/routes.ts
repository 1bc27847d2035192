import type { FastifyRequest } from 'fastify';
import type { OperationName } from '../../shared/operations.js';

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
];
