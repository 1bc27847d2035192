import { createHash, randomBytes, randomUUID } from 'node:crypto';

/** Bearer secrets: 256 random bits, prefixed so a leaked one is recognisable in logs and scanners. */
export function newSecret(prefix: 'kst' | 'ksk'): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

/** What is stored in place of a secret. SHA-256 suffices: the input has 256 bits of entropy. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function newId(): string {
  return randomUUID();
}
