import { timingSafeEqual } from 'node:crypto';
import { DomainError } from '../../../shared/errors.js';
import type { Caller, Credentials } from '../context.js';
import type { AuthServices } from './services.js';

/** What authenticating reads: the users, sessions and keys, and the clock. */
type CredentialServices = Pick<AuthServices, 'now'> & { repos: Pick<AuthServices['repos'], 'users' | 'sessions' | 'apiKeys'> };
import { hashSecret } from './tokens.js';

/** How fresh an API key's "last used" is kept: it is written at most once this often per key. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Resolves credentials to a live user, or throws 401. Checked on every call, against the database, so a
 * revoked token or a deleted user stops working at once.
 */
export function authenticate(services: CredentialServices, credentials: Credentials): Caller {
  const { repos, now } = services;
  if (credentials.authToken) return sessionCaller(services, hashSecret(credentials.authToken));
  if (credentials.uid || credentials.apiKey) {
    const invalid = () => new DomainError('INVALID_CREDENTIALS', 'The uid and apikey pair is not valid.');
    if (!credentials.uid || !credentials.apiKey) throw invalid();
    // Looked up by the key's hash; the uid must then match (compared in constant time).
    const key = repos.apiKeys.byHash(hashSecret(credentials.apiKey));
    if (!key || key.revokedAt !== null || !sameString(key.uid, credentials.uid)) throw invalid();
    // When a key was last used is shown to its owner to the minute: one write a minute, not one a request.
    const at = now();
    if (key.lastUsedAt === null || at - key.lastUsedAt >= LAST_USED_RESOLUTION_MS || at < key.lastUsedAt)
      repos.apiKeys.touch(key.keyId, at);
    return { ...activeUser(services, key.uid), apiKeyId: key.keyId, apiKeyLineage: key.lineage };
  }
  throw new DomainError(
    'UNAUTHORIZED',
    'Credentials are required: an authToken header, Authorization: Bearer <token>, or uid + apikey headers.',
  );
}

/**
 * The caller again, from what an earlier authentication established (the session or API key it used), for
 * work that outlives one call (a live event stream): throws once the session ended or the key was revoked.
 */
export function reauthenticate(services: CredentialServices, caller: Caller): Caller {
  if (caller.sessionHash) return sessionCaller(services, caller.sessionHash);
  const key = caller.apiKeyId ? services.repos.apiKeys.byId(caller.apiKeyId) : null;
  if (!key || key.revokedAt !== null || key.uid !== caller.uid) throw new DomainError('INVALID_CREDENTIALS', 'The API key was revoked.');
  return { ...activeUser(services, key.uid), apiKeyId: key.keyId, apiKeyLineage: key.lineage };
}

function sessionCaller(services: CredentialServices, tokenHash: string): Caller {
  const session = services.repos.sessions.byHash(tokenHash);
  if (!session) throw new DomainError('INVALID_CREDENTIALS', 'The authToken is not valid. Log in again.');
  if (session.revokedAt !== null) throw new DomainError('INVALID_CREDENTIALS', 'This authToken was signed out. Log in again.');
  if (session.expiresAt <= services.now()) throw new DomainError('TOKEN_EXPIRED', 'The authToken has expired. Log in again.');
  return { ...activeUser(services, session.uid), sessionHash: tokenHash };
}

function activeUser(services: CredentialServices, uid: string): Caller {
  const user = services.repos.users.byUid(uid);
  if (!user || user.deletedAt !== null) throw new DomainError('INVALID_CREDENTIALS', 'This user no longer has access.');
  return { uid: user.uid, email: user.email, role: user.role };
}

function sameString(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Enterprise routes also name the organisation; a mismatch is refused even with a valid token. */
export function checkServiceId(services: { repos: Pick<AuthServices['repos'], 'organisation'> }, credentials: Credentials): void {
  const org = services.repos.organisation.get();
  if (!credentials.serviceId) throw new DomainError('SERVICE_MISMATCH', 'The serviceid header is required on enterprise routes.');
  if (!org || !sameString(credentials.serviceId, org.serviceId)) {
    throw new DomainError('SERVICE_MISMATCH', 'The serviceid header does not match this organisation.');
  }
}
