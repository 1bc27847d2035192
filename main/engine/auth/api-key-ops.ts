import { OPERATIONS, type ApiKeyInfo, type NewApiKey } from '../../../shared/operations.js';
import type { ParsedInputOf, OutputOf } from '../../../shared/operation.js';
import type { ApiKeyRow } from '../../store/repos/api-keys.js';
import { callerOf, type OpContext } from '../context.js';
import type { AuthServices } from './services.js';
import { DomainError } from '../../../shared/errors.js';
import { hashSecret, newId, newSecret } from './tokens.js';

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
const info = (k: ApiKeyRow): ApiKeyInfo => ({
  keyId: k.keyId,
  label: k.label,
  createdAt: iso(k.createdAt)!,
  lastUsedAt: iso(k.lastUsedAt),
});

/** Most keys one user may hold at once; rotating does not need a free slot. */
export const MAX_KEYS_PER_USER = 20;

function mint(ctx: OpContext<AuthServices>, uid: string, label: string, lineage?: string): NewApiKey {
  const apiKey = newSecret('ksk');
  const keyId = newId();
  const createdAt = ctx.services.now();
  ctx.services.repos.apiKeys.insert({ keyId, uid, keyHash: hashSecret(apiKey), label, createdAt, lineage });
  return { keyId, uid, apiKey, label, createdAt: iso(createdAt)!, lastUsedAt: null };
}

/** One of the caller's own active keys, or 404 (whether it is someone else's is not revealed). */
function ownKey(ctx: OpContext<AuthServices>, keyId: string): ApiKeyRow {
  const key = ctx.services.repos.apiKeys.byId(keyId);
  if (!key || key.uid !== callerOf(ctx).uid || key.revokedAt !== null)
    throw new DomainError('NOT_FOUND', `You have no active API key ${keyId}.`);
  return key;
}

/**
 * Minting keys needs a session (a sign-in with the password): a leaked key must not be able to mint
 * itself successors that outlive its revocation. A key may only rotate itself, which replaces it one for
 * one and leaves the caller with nothing the key did not already give.
 */
export function requireSession(ctx: Pick<OpContext, 'caller'>, what: string, ownKeyId?: string): void {
  const caller = callerOf(ctx);
  if (caller.sessionHash !== undefined && caller.apiKeyId === undefined) return;
  if (ownKeyId !== undefined && caller.apiKeyId === ownKeyId) return;
  throw new DomainError('SESSION_REQUIRED', `An API key cannot ${what}; sign in with your password (an authToken) to do it.`);
}

export function createApiKey(ctx: OpContext<AuthServices>, input: ParsedInputOf<typeof OPERATIONS.createApiKey>): NewApiKey {
  requireSession(ctx, 'create API keys');
  const { uid } = callerOf(ctx);
  return ctx.services.db.transaction(() => {
    if (ctx.services.repos.apiKeys.activeForUser(uid).length >= MAX_KEYS_PER_USER) {
      throw new DomainError('CONFLICT', `You already have ${MAX_KEYS_PER_USER} API keys. Revoke one first.`);
    }
    return mint(ctx, uid, input.label ?? '');
  })();
}

export function listApiKeys(ctx: OpContext<AuthServices>): OutputOf<typeof OPERATIONS.listApiKeys> {
  return { apiKeys: ctx.services.repos.apiKeys.activeForUser(callerOf(ctx).uid).map(info) };
}

export function rotateApiKey(
  ctx: OpContext<AuthServices>,
  input: ParsedInputOf<typeof OPERATIONS.rotateApiKey>,
): OutputOf<typeof OPERATIONS.rotateApiKey> {
  requireSession(ctx, 'rotate another API key (only itself)', input.keyId);
  return ctx.services.db.transaction(() => {
    const old = ownKey(ctx, input.keyId);
    ctx.services.repos.apiKeys.revoke(old.keyId, ctx.services.now());
    // The successor keeps the lineage: a policy rule naming the first key goes on naming its holder.
    return { ...mint(ctx, old.uid, old.label, old.lineage), replacedKeyId: old.keyId };
  })();
}

export function revokeApiKey(
  ctx: OpContext<AuthServices>,
  input: ParsedInputOf<typeof OPERATIONS.revokeApiKey>,
): OutputOf<typeof OPERATIONS.revokeApiKey> {
  const key = ownKey(ctx, input.keyId);
  ctx.services.repos.apiKeys.revoke(key.keyId, ctx.services.now());
  return { keyId: key.keyId };
}
