import { timingSafeEqual } from 'node:crypto';
import { DomainError } from '../../../shared/errors.js';
import type { Caller, Credentials, CoreServices } from '../context.js';
import { hashSecret } from './tokens.js';

/**
 * Resolves credentials to a live user, or throws 401. Checked on every call, against the database, so a
 * revoked token or a deleted user stops working at once.
 */
export function authenticate(services: CoreServices, credentials: Credentials): Caller {
  const { repos, now } = services;
  if (credentials.authToken) {
    const tokenHash = hashSecret(credentials.authToken);
    const session = repos.sessions.byHash(tokenHash);
    if (!session) throw new DomainError('INVALID_CREDENTIALS', 'The authToken is not valid. Log in again.');
    if (session.revokedAt !== null) throw new DomainError('INVALID_CREDENTIALS', 'This authToken was signed out. Log in again.');
    if (session.expiresAt <= now()) throw new DomainError('TOKEN_EXPIRED', 'The authToken has expired. Log in again.');
    const user = repos.users.byUid(session.uid);
    if (!user || user.deletedAt !== null) throw new DomainError('INVALID_CREDENTIALS', 'This user no longer has access.');
    return { uid: user.uid, email: user.email, role: user.role, sessionHash: tokenHash };
  }
  if (credentials.uid || credentials.apiKey) {
    const invalid = () => new DomainError('INVALID_CREDENTIALS', 'The uid and apikey pair is not valid.');
    if (!credentials.uid || !credentials.apiKey) throw invalid();
    // Looked up by the key's hash; the uid must then match (compared in constant time).
    const key = repos.apiKeys.byHash(hashSecret(credentials.apiKey));
    if (!key || key.revokedAt !== null || !sameString(key.uid, credentials.uid)) throw invalid();
    const user = repos.users.byUid(key.uid);
    if (!user || user.deletedAt !== null) throw new DomainError('INVALID_CREDENTIALS', 'This user no longer has access.');
    repos.apiKeys.touch(key.keyId, now());
    return { uid: user.uid, email: user.email, role: user.role, apiKeyId: key.keyId };
  }
  throw new DomainError('UNAUTHORIZED', 'Credentials are required: an authToken header, Authorization: Bearer <token>, or uid + apikey headers.');
}

function sameString(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Enterprise routes also name the organisation; a mismatch is refused even with a valid token. */
export function checkServiceId(services: CoreServices, credentials: Credentials): void {
  const org = services.repos.organisation.get();
  if (!credentials.serviceId) throw new DomainError('SERVICE_MISMATCH', 'The serviceid header is required on enterprise routes.');
  if (!org || !sameString(credentials.serviceId, org.serviceId)) {
    throw new DomainError('SERVICE_MISMATCH', 'The serviceid header does not match this organisation.');
  }
}
