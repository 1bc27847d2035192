import { DomainError } from '../../../shared/errors.js';
import type { PolicyServices } from './services.js';

/**
 * Four-eyes on the organisation's payment policy: with two or more admins, a change proposed by one waits for
 * another. Two ways round it are closed here. Demoting or removing the other admin first: four-eyes stays in
 * force for a day after an admin leaves while another remains (the schema's trigger writes the setting below).
 * Making a new admin to approve at once: an admin decides on a policy change only once they have been an
 * admin for a day. Both leave the change visible (the audit log, the Users view) before it can take effect.
 */
export const ADMIN_SEASONING_MS = 24 * 3600_000;
/** Written by migration 27's trigger: until when (ms) four-eyes outlasts an admin who left. */
export const FOUR_EYES_UNTIL = 'policies.fourEyesUntil';

export function fourEyesInForce(services: PolicyServices): boolean {
  const { users, settings } = services.repos;
  if (users.countActiveAdmins() >= 2) return true;
  return services.now() < Number(settings.get(FOUR_EYES_UNTIL) ?? 0);
}

/** Refuses (403) a decision by an admin of less than a day. */
export function assertSeasonedDecider(services: PolicyServices, uid: string): void {
  const since = services.repos.users.adminSince(uid);
  if (since === null) throw new DomainError('FORBIDDEN', 'Only an admin decides on a policy change.');
  const from = since + ADMIN_SEASONING_MS;
  if (services.now() < from)
    throw new DomainError(
      'FORBIDDEN',
      `You became an admin less than 24 hours ago: you may decide on policy changes from ${new Date(from).toISOString()} (four-eyes: a new admin cannot be made only to approve a change at once).`,
      { decideFrom: new Date(from).toISOString() },
    );
}
