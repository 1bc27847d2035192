import { AppError } from '../errors.js';
import type { Caller, Credentials, Services } from '../context.js';
import { hashSecret } from './tokens.js';

/**
 * Resolves credentials to a live user, or throws 401. Checked on every call, against the database, so a
 * revoked token or a deleted user stops working at once.
 */
export function authenticate(services: Services, credentials: Credentials): Caller {
  const { repos, now } = services;
  if (credentials.authToken) {
    const tokenHash = hashSecret(credentials.authToken);
    const session = repos.sessions.byHash(tokenHash);
    if (!session) throw new AppError('INVALID_CREDENTIALS', 'The authToken is not valid. Log in again.');
    if (session.revokedAt !== null) throw new AppError('INVALID_CREDENTIALS', 'This authToken was signed out. Log in again.');
    if (session.expiresAt <= now()) throw new AppError('TOKEN_EXPIRED', 'The authToken has expired. Log in again.');
    const user = repos.users.byUid(session.uid);
    if (!user || user.deletedAt !== null) throw new AppError('INVALID_CREDENTIALS', 'This user no longer has access.');
    return { uid: user.uid, email: user.email, role: user.role, sessionHash: tokenHash };
  }
  if (credentials.uid || credentials.apiKey) {
    throw new AppError('INVALID_CREDENTIALS', 'The uid and apikey pair is not valid.');
  }
  throw new AppError('UNAUTHORIZED', 'Credentials are required: an authToken header, Authorization: Bearer <token>, or uid + apikey headers.');
}

/** Enterprise routes also name the organisation; a mismatch is refused even with a valid token. */
export function checkServiceId(services: Services, credentials: Credentials): void {
  const org = services.repos.organisation.get();
  if (!credentials.serviceId) throw new AppError('SERVICE_MISMATCH', 'The serviceid header is required on enterprise routes.');
  if (!org || credentials.serviceId !== org.serviceId) {
    throw new AppError('SERVICE_MISMATCH', 'The serviceid header does not match this organisation.');
  }
}
