import { DEFAULT_COOLING_OFF_HOURS, MAX_COOLING_OFF_HOURS } from '../../../shared/contracts/payees.js';
import type { PayeeRow } from '../../store/repos/payees.js';
import type { Repos } from '../context.js';
import { normaliseIdentityKey, normalisePaymail } from './destination.js';

/**
 * The payee book as the rest of the engine asks it: whether a payment's destination belongs to an active
 * payee, and whether that payee's cooling-off is over. The policies (the capability above) call payeeFor
 * for every value move; it reads one indexed row per destination given.
 */

/** The settings key of the cooling-off period, in whole hours. */
export const COOLING_OFF_SETTING = 'payees.coolingOffHours';

/** The cooling-off period in force, in hours (the default when none was set, or what is stored is not a valid period). */
export function coolingOffHours(repos: Pick<Repos, 'settings'>): number {
  const stored = repos.settings.get(COOLING_OFF_SETTING);
  const hours = stored === null ? NaN : Number(stored);
  return Number.isInteger(hours) && hours >= 0 && hours <= MAX_COOLING_OFF_HOURS ? hours : DEFAULT_COOLING_OFF_HOURS;
}

/** When a payee added or changed at `now` may first be paid without a rule's approvers. */
export function usableFromFor(repos: Pick<Repos, 'settings'>, now: number): number {
  return now + coolingOffHours(repos) * 3_600_000;
}

export interface PayeeMatch {
  payeeId: string;
  name: string;
  /** The cooling-off is over: `now >= usableFrom`. */
  usable: boolean;
  /** ms since 1970. */
  usableFrom: number;
}

/** A payment's destination as the payer named it and as it resolved; any subset of the three. */
export interface PayeeDestinationQuery {
  paymail?: string;
  address?: string;
  identityKey?: string;
}

const match = (p: PayeeRow, now: number): PayeeMatch => ({
  payeeId: p.id,
  name: p.name,
  usable: now >= p.usableFrom,
  usableFrom: p.usableFrom,
});

/**
 * The active payee a destination belongs to, or null ("not in the book"). A paymail is matched
 * case-insensitively (alias@domain), an address exactly, an identity key as lower-case hex of the
 * compressed public key. When several parts are given, the first that matches wins, in the order paymail,
 * identity key, address (a paymail payee is still that payee whatever address its host hands out).
 * Removed payees never match.
 */
export function payeeFor(repos: Pick<Repos, 'payees'>, destination: PayeeDestinationQuery, now: number): PayeeMatch | null {
  const { paymail, address, identityKey } = destination;
  const found =
    (paymail?.trim() ? repos.payees.findActive('paymail', normalisePaymail(paymail)) : null) ??
    (identityKey?.trim() ? repos.payees.findActive('identity_key', normaliseIdentityKey(identityKey)) : null) ??
    (address?.trim() ? repos.payees.findActive('address', address.trim()) : null);
  return found ? match(found, now) : null;
}
