import { API_KEY_OPERATIONS } from '../../../shared/contracts/auth.js';
import { implement } from '../operation.js';
import type { AuthServices } from './services.js';
import { createApiKey, listApiKeys, revokeApiKey, rotateApiKey } from './api-key-ops.js';

export const API_KEY_IMPLEMENTATIONS = implement<AuthServices>()(API_KEY_OPERATIONS, {
  createApiKey: { run: createApiKey, target: (_i, o) => o?.keyId ?? null },
  listApiKeys: { run: listApiKeys },
  rotateApiKey: { run: rotateApiKey, target: (i) => i.keyId },
  revokeApiKey: { run: revokeApiKey, target: (i) => i.keyId },
});
