import type { AuthServices } from './services.js';
import { hashSecret, newSecret } from './tokens.js';

export interface IssuedSession {
  authToken: string;
  expiresAt: string;
}

/** Creates a session and returns its token; only the token's hash is stored. Call inside the caller's transaction. */
export function issueSession(services: Pick<AuthServices, 'repos' | 'now' | 'config'>, uid: string): IssuedSession {
  const authToken = newSecret('kst');
  const createdAt = services.now();
  const expiresAt = createdAt + services.config.sessionTtlMs;
  services.repos.sessions.insert({ tokenHash: hashSecret(authToken), uid, createdAt, expiresAt });
  return { authToken, expiresAt: new Date(expiresAt).toISOString() };
}
