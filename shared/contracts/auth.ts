import { z } from 'zod';
import { byName, defineOperation } from '../operation.js';
import { id, label } from '../schemas.js';
import { ALL_ROLES } from './access.js';

export const apiKeyInfo = z.object({ keyId: z.string(), label: z.string(), createdAt: z.string(), lastUsedAt: z.string().nullable() });
/** A new key: shown once, only its hash is kept. */
export const newApiKey = apiKeyInfo.extend({ uid: z.string(), apiKey: z.string() });

export const API_KEY_OPERATIONS = byName(
  defineOperation({
    name: 'createApiKey',
    input: z.object({ label: label.optional() }),
    output: newApiKey,
    access: ALL_ROLES,
    summary:
      'Creates an API key for yourself (for uid + apikey credentials). The key is shown once. Needs a password sign-in (authToken): an API key cannot create keys (403 SESSION_REQUIRED).',
    msg: 'API key created. Copy it now: it is not shown again.',
    rest: [{ method: 'POST', path: '/api/v1/apiKeys', body: true }],
    audit: true,
  }),
  defineOperation({
    name: 'listApiKeys',
    input: z.object({}),
    output: z.object({ apiKeys: z.array(apiKeyInfo) }),
    access: ALL_ROLES,
    summary: 'Your active API keys (never the keys themselves), with when each was last used (to the minute).',
    msg: 'API keys fetched successfully.',
    rest: [{ method: 'GET', path: '/api/v1/apiKeys' }],
  }),
  defineOperation({
    name: 'rotateApiKey',
    input: z.object({ keyId: id }),
    output: newApiKey.extend({ replacedKeyId: z.string() }),
    access: ALL_ROLES,
    summary: 'Replaces one of your API keys with a new one; the old one stops working at once. An API key may rotate only itself.',
    msg: 'API key rotated. Copy the new key now: it is not shown again.',
    rest: [{ method: 'POST', path: '/api/v1/apiKeys/rotate', body: true }],
    audit: true,
  }),
  defineOperation({
    name: 'revokeApiKey',
    input: z.object({ keyId: id }),
    output: z.object({ keyId: z.string() }),
    access: ALL_ROLES,
    summary: 'Revokes one of your API keys.',
    msg: 'API key revoked.',
    rest: [{ method: 'POST', path: '/api/v1/apiKeys/revoke', body: true }],
    audit: true,
  }),
);
