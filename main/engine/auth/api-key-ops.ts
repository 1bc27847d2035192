import type { ApiKeyInfo, NewApiKey, OperationOutput, ParsedInput } from '../../../shared/operations.js';
import type { ApiKeyRow } from '../../store/repos/api-keys.js';
import { callerOf, type OpContext } from '../context.js';
import { DomainError } from '../../../shared/errors.js';
import { hashSecret, newId, newSecret } from './tokens.js';

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
const info = (k: ApiKeyRow): ApiKeyInfo => ({ keyId: k.keyId, label: k.label, createdAt: iso(k.createdAt)!, lastUsedAt: iso(k.lastUsedAt) });

/** Most keys one user may hold at once; rotating does not need a free slot. */
export const MAX_KEYS_PER_USER = 20;

function mint(ctx: OpContext, uid: string, label: string): NewApiKey {
  const apiKey = newSecret('ksk');
  const keyId = newId();
  const createdAt = ctx.services.now();
  ctx.services.repos.apiKeys.insert({ keyId, uid, keyHash: hashSecret(apiKey), label, createdAt });
  return { keyId, uid, apiKey, label, createdAt: iso(createdAt)!, lastUsedAt: null };
}

/** One of the caller's own active keys, or 404 (whether it is someone else's is not revealed). */
function ownKey(ctx: OpContext, keyId: string): ApiKeyRow {
  const key = ctx.services.repos.apiKeys.byId(keyId);
  if (!key || key.uid !== callerOf(ctx).uid || key.revokedAt !== null) throw new DomainError('NOT_FOUND', `You have no active API key ${keyId}.`);
  return key;
}

export function createApiKey(ctx: OpContext, input: ParsedInput<'createApiKey'>): NewApiKey {
  const { uid } = callerOf(ctx);
  return ctx.services.db.transaction(() => {
    if (ctx.services.repos.apiKeys.activeForUser(uid).length >= MAX_KEYS_PER_USER) {
      throw new DomainError('CONFLICT', `You already have ${MAX_KEYS_PER_USER} API keys. Revoke one first.`);
    }
    return mint(ctx, uid, input.label ?? '');
  })();
}

export function listApiKeys(ctx: OpContext): OperationOutput<'listApiKeys'> {
  return { apiKeys: ctx.services.repos.apiKeys.activeForUser(callerOf(ctx).uid).map(info) };
}

export function rotateApiKey(ctx: OpContext, input: ParsedInput<'rotateApiKey'>): OperationOutput<'rotateApiKey'> {
  return ctx.services.db.transaction(() => {
    const old = ownKey(ctx, input.keyId);
    ctx.services.repos.apiKeys.revoke(old.keyId, ctx.services.now());
    return { ...mint(ctx, old.uid, old.label), replacedKeyId: old.keyId };
  })();
}

export function revokeApiKey(ctx: OpContext, input: ParsedInput<'revokeApiKey'>): OperationOutput<'revokeApiKey'> {
  const key = ownKey(ctx, input.keyId);
  ctx.services.repos.apiKeys.revoke(key.keyId, ctx.services.now());
  return { keyId: key.keyId };
}
