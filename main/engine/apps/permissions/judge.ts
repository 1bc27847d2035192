import type { AppPermissionRow, PermissionScope } from '../../../store/repos/app-permissions.js';
import type { AppRow } from '../../../store/repos/apps.js';
import { TREASURY } from '../../../../shared/contracts/access.js';
import type { AppPermissionServices } from '../services.js';
import { unauthorized } from '../werr.js';
import { denialCovers, describeScope, grantCovers, sameScope } from './scope.js';

/** Requests waiting for a decision at most, per app and in all: past these an ungranted use is refused unrecorded. */
export const MAX_PENDING_PER_APP = 50;
export const MAX_PENDING_REQUESTS = 500;

/** Where the calls waiting for one request wait (AppGate): a key no originator can spell (they have no `#`). */
export const requestKey = (id: number) => `#permission ${id}`;

export type Verdict =
  { state: 'granted' } | { state: 'denied'; row: AppPermissionRow } | { state: 'pending'; row: AppPermissionRow | null };

const live = (row: AppPermissionRow, now: number) => row.expiresAt === null || row.expiresAt > now;

/** What the app's grants and denials say about a use, without recording anything. */
export function verdictOf(services: AppPermissionServices, scope: PermissionScope): Verdict {
  if (scope.kind === 'spend') throw new Error('spends are judged by permissions/spend.ts');
  const rows = services.repos.appPermissions.about(scope.originator, scope.kind, scope.subject);
  const now = services.now();
  const denial = rows.find((r) => r.state === 'denied' && denialCovers(r, scope));
  if (denial) return { state: 'denied', row: denial };
  if (rows.some((r) => r.state === 'granted' && live(r, now) && grantCovers(r, scope))) return { state: 'granted' };
  return { state: 'pending', row: rows.find((r) => r.state === 'pending' && sameScope(r, scope)) ?? null };
}

/** Records a request for the app (pending), unless too many wait already; tells whoever decides. */
export function recordRequest(services: AppPermissionServices, app: AppRow, scope: PermissionScope, purpose: string): AppPermissionRow {
  const { appPermissions } = services.repos;
  // An app can ask for any number of protocol names or amounts: the list an admin decides from stays readable.
  if (appPermissions.pendingCount(app.originator) >= MAX_PENDING_PER_APP || appPermissions.pendingCount() >= MAX_PENDING_REQUESTS)
    throw unauthorized(
      `Too many permission requests are waiting; an administrator must decide about them first (Apps). Not granted: ${describeScope(scope)}.`,
    );
  const row = appPermissions.request(scope, purpose.slice(0, 500), services.now());
  services.logger.info({ originator: app.originator, kind: scope.kind, id: row.id }, 'a BRC-100 app asks for a permission');
  return row;
}

/** Tells the people who decide about apps that a permission of this app was asked for or decided. */
export function permissionChanged(services: AppPermissionServices, originator: string): void {
  // The Apps view reloads on the apps event: the app's own state is unchanged, its requests changed.
  const state = services.repos.apps.get(originator)?.state ?? 'pending';
  services.events.publish('apps', { originator, state }, { kind: 'roles', roles: TREASURY });
}

/** An app revoked or denied while its call waited for a permission is refused like any call of it. */
export function stillAllowed(services: AppPermissionServices, originator: string): void {
  const state = services.repos.apps.get(originator)?.state;
  if (state !== 'allowed') throw unauthorized(`The app ${originator} is ${state ?? 'unknown'}: Keystead refuses its calls.`);
}

export const refusal = (scope: PermissionScope, denied: boolean) =>
  unauthorized(
    denied
      ? `The organisation denied this app ${describeScope(scope)}.`
      : `This app has not been granted ${describeScope(scope)}: an administrator or manager must grant it in Keystead (Apps, permissions).`,
  );

/**
 * Resolves when the use is granted; a use nobody decided yet is recorded (once) and waits for the decision
 * (up to the app gate's wait), as a new app's first call does. Throws WERR_UNAUTHORIZED otherwise.
 */
export async function ask(services: AppPermissionServices, app: AppRow, scope: PermissionScope, purpose: string): Promise<void> {
  const first = services.db.transaction(() => {
    const verdict = verdictOf(services, scope);
    if (verdict.state !== 'pending' || verdict.row) return { verdict, recorded: false };
    return { verdict: { state: 'pending', row: recordRequest(services, app, scope, purpose) } as Verdict, recorded: true };
  })();
  const { verdict } = first;
  if (verdict.state === 'granted') return;
  if (verdict.state === 'denied') throw refusal(scope, true);
  if (first.recorded) permissionChanged(services, app.originator);
  await services.appGate.wait(requestKey(verdict.row!.id));
  stillAllowed(services, app.originator);
  // Decided, replaced by a broader grant or denial, or the wait ended: what the grants say now decides.
  const after = verdictOf(services, scope);
  if (after.state === 'granted') return;
  throw refusal(scope, after.state === 'denied');
}
