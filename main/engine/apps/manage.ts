import type { OutputOf, ParsedInputOf } from '../../../shared/operation.js';
import { OPERATIONS, type AppOutput } from '../../../shared/operations.js';
import { DomainError } from '../../../shared/errors.js';
import { TREASURY } from '../../../shared/contracts/access.js';
import type { AppRow } from '../../store/repos/apps.js';
import { callerOf, type OpContext } from '../context.js';
import { FEE_MANAGER_WALLET_ID } from '../wallets/fee-manager-id.js';
import type { AppServices } from './services.js';

type Ctx = OpContext<AppServices>;
type In<N extends keyof typeof OPERATIONS> = ParsedInputOf<(typeof OPERATIONS)[N]>;
type Out<N extends keyof typeof OPERATIONS> = OutputOf<(typeof OPERATIONS)[N]>;

/** The setting naming the wallet that answers apps allowed without one of their own (absent or empty: `default`). */
export const APPS_DEFAULT_WALLET_SETTING = 'apps.default-wallet';

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());

export function appsDefaultWallet(services: Pick<AppServices, 'repos'>): string | null {
  return services.repos.settings.get(APPS_DEFAULT_WALLET_SETTING) || null;
}

export function presentApp(services: Pick<AppServices, 'repos'>, app: AppRow): AppOutput {
  const decider = app.decidedBy ? services.repos.users.byUid(app.decidedBy) : null;
  return {
    originator: app.originator,
    state: app.state,
    walletId: app.walletId,
    firstSeenAt: iso(app.firstSeenAt)!,
    decidedBy: decider?.email ?? app.decidedBy,
    decidedAt: iso(app.decidedAt),
    lastCallAt: iso(app.lastCallAt),
    calls: app.calls,
  };
}

/** Tells the people who decide about apps that one appeared or was decided, so the UI can prompt. */
export function appChanged(services: Pick<AppServices, 'events'>, app: AppRow): void {
  services.events.publish('apps', { originator: app.originator, state: app.state }, { kind: 'roles', roles: TREASURY });
}

/** The wallet must be one the deciding user may use (their own, or shared with them), and not the fee manager. */
function checkWallet(ctx: Ctx, walletId: string): void {
  const { uid } = callerOf(ctx);
  const { wallets } = ctx.services.repos;
  if (walletId === FEE_MANAGER_WALLET_ID || (!wallets.own(uid, walletId) && !wallets.sharedWith(walletId, uid))) {
    throw new DomainError('NOT_FOUND', `walletId: there is no wallet ${walletId} in your account.`);
  }
}

export function listApps(ctx: Ctx, _input: In<'listApps'>): Out<'listApps'> {
  const { services } = ctx;
  return {
    apps: services.repos.apps.list().map((a) => presentApp(services, a)),
    defaultWalletId: appsDefaultWallet(services),
    listening: services.appGate.listening,
  };
}

export function decideApp(ctx: Ctx, input: In<'decideApp'>): Out<'decideApp'> {
  const { services } = ctx;
  const caller = callerOf(ctx);
  if (!input.allow && input.walletId !== undefined)
    throw new DomainError('VALIDATION_FAILED', 'walletId: only an allowed app has a wallet.');
  if (input.walletId !== undefined) checkWallet(ctx, input.walletId);
  const row = services.repos.apps.decide(
    input.originator,
    input.allow ? 'allowed' : 'denied',
    input.walletId ?? null,
    caller.uid,
    services.now(),
  );
  services.logger.info({ originator: row.originator, state: row.state }, 'BRC-100 app decided');
  appChanged(services, row);
  services.appGate.decided(row.originator);
  return presentApp(services, row);
}

export function revokeApp(ctx: Ctx, input: In<'revokeApp'>): Out<'revokeApp'> {
  const { services } = ctx;
  const caller = callerOf(ctx);
  const row = services.db.transaction(() => {
    const app = services.repos.apps.get(input.originator);
    if (!app) throw new DomainError('NOT_FOUND', `originator: no app ${input.originator} has called or been allowed.`);
    if (app.state !== 'allowed') throw new DomainError('CONFLICT', `The app ${input.originator} is ${app.state}, not allowed.`);
    services.repos.apps.revoke(app.originator, caller.uid, services.now());
    return services.repos.apps.get(app.originator)!;
  })();
  services.logger.info({ originator: row.originator }, 'BRC-100 app revoked');
  appChanged(services, row);
  return presentApp(services, row);
}

export function setAppsDefaultWallet(ctx: Ctx, input: In<'setAppsDefaultWallet'>): Out<'setAppsDefaultWallet'> {
  const { services } = ctx;
  if (input.walletId !== null) checkWallet(ctx, input.walletId);
  services.repos.settings.set(APPS_DEFAULT_WALLET_SETTING, input.walletId ?? '');
  return { defaultWalletId: input.walletId };
}
