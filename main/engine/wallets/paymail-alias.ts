import { randomInt } from 'node:crypto';
import type { WalletRepo } from '../../store/repos/wallets.js';
import { DomainError } from '../../../shared/errors.js';

const ALIAS = /^[a-z0-9](?:[a-z0-9._-]{0,62}[a-z0-9])?$/;

/** Accepts `alias` or `alias@<our domain>`; returns the lower-case alias. */
export function parseAlias(input: string, domain: string): string {
  const at = input.lastIndexOf('@');
  const alias = (at === -1 ? input : input.slice(0, at)).trim().toLowerCase();
  const given =
    at === -1
      ? domain
      : input
          .slice(at + 1)
          .trim()
          .toLowerCase();
  if (given !== domain.toLowerCase())
    throw new DomainError('VALIDATION_FAILED', `paymail: must be an alias at ${domain} (this Keystead's paymail domain)`);
  if (!ALIAS.test(alias)) {
    throw new DomainError(
      'VALIDATION_FAILED',
      'paymail: the alias may use a-z, 0-9, ".", "_" and "-", must start and end with a letter or digit, and be 64 characters at most',
    );
  }
  return alias;
}

/** A free numeric alias, as the public service hands out when none is asked for. */
export function freeNumericAlias(wallets: WalletRepo, domain: string): string {
  for (let i = 0; i < 50; i++) {
    const alias = String(randomInt(10_000, 100_000_000));
    if (!wallets.byPaymail(alias, domain)) return alias;
  }
  throw new Error('no free numeric paymail alias after 50 tries');
}

export const paymailOf = (w: { paymailAlias: string | null; paymailDomain: string | null }) =>
  w.paymailAlias && w.paymailDomain ? `${w.paymailAlias}@${w.paymailDomain}` : null;
