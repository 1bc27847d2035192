import { TREASURY } from '../../../shared/contracts/access.js';
import { ROLE_LABELS } from '../../../shared/roles.js';
import type { AppRow } from '../../store/repos/apps.js';
import type { UserRow } from '../../store/repos/users.js';
import type { Repos } from '../context.js';
import { unauthorized } from './werr.js';

/**
 * The user on whose authority an allowed app acts: whoever allowed it, as long as they still may allow apps
 * (an admin or a manager). An app allowed by someone since removed or demoted acts for nobody: its calls are
 * refused until an admin or manager allows it again, so a demotion takes the app's keys and spending with it.
 */
export function allowerOf(repos: Pick<Repos, 'users'>, app: Pick<AppRow, 'originator' | 'decidedBy'>): UserRow {
  const user = app.decidedBy ? repos.users.byUid(app.decidedBy) : null;
  if (!user || user.deletedAt !== null)
    throw unauthorized(`The user who allowed ${app.originator} no longer exists: allow the app again before it is used.`);
  if (!TREASURY.includes(user.role))
    throw unauthorized(
      `The user who allowed ${app.originator} is now ${ROLE_LABELS[user.role]}, who may not allow apps: an admin or manager must allow it again.`,
    );
  return user;
}
