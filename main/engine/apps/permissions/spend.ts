import type { PermissionScope, SpendLimit } from '../../../store/repos/app-permissions.js';
import type { AppRow } from '../../../store/repos/apps.js';
import type { SpendHold, SpendRequest } from '../call.js';
import type { AppPermissionServices } from '../services.js';
import { invalidParameter, unauthorized } from '../werr.js';
import { rateForPolicy } from '../../rates/guard.js';
import { ask, permissionChanged, recordRequest, requestKey, stillAllowed } from './judge.js';

/** The start of the calendar month (UTC) `now` falls in: authorisations are per month. */
export function monthStart(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

/** The authorisation in satoshis: a currency amount at the latest rate the engine has; none: null. */
export function limitSatoshis(services: Pick<AppPermissionServices, 'repos' | 'now'>, limit: SpendLimit): number | null {
  if ('satoshis' in limit) return limit.satoshis;
  // A provider's rate older than an hour measures nothing (rates/guard.ts): the authorisation fails closed.
  const rate = rateForPolicy(services.repos.rates, limit.currency, services.now());
  if (!rate) return null;
  return Math.floor((Number(limit.amount) * 1e8) / rate.rate);
}

/** What is left of the app's authorisation this month, in satoshis (no authorisation: 0); null when no rate measures it. */
export function remainingThisMonth(services: Pick<AppPermissionServices, 'repos' | 'now'>, originator: string): number | null {
  const row = services.repos.appPermissions.spendLimit(originator);
  const limit = row ? limitSatoshis(services, row.limit) : 0;
  if (limit === null) return null;
  return Math.max(0, limit - services.repos.appPermissions.countedSince(originator, monthStart(services.now())));
}

const NOTHING_HELD: SpendHold = { release: () => {} };

function holdOf(services: AppPermissionServices, id: number): SpendHold {
  let released = false;
  return {
    release: () => {
      if (released) return;
      released = true;
      services.repos.appPermissions.release(id);
    },
  };
}

/** The assets of a request, each once, with positive amounts (a zero amount moves nothing). */
function assetsOf(request: SpendRequest): string[] {
  const names = new Set<string>();
  for (const { asset, amount } of request.assets) {
    if (typeof asset !== 'string' || !asset || !Number.isSafeInteger(amount) || amount < 0)
      throw invalidParameter('outputs', 'outputs whose assets are named and counted in whole units');
    if (amount > 0) names.add(asset);
  }
  return [...names].sort();
}

function noRate(services: AppPermissionServices, originator: string) {
  const limit = services.repos.appPermissions.spendLimit(originator)?.limit;
  const currency = limit && 'currency' in limit ? limit.currency : 'its currency';
  return unauthorized(
    `This app's monthly spending authorisation is in ${currency} and Keystead has no ${currency} rate: nothing is spent.`,
  );
}

/**
 * Counts one action's spend against the app's grants, by asset: every asset other than satoshis (a token, a
 * 1-sat ordinal) needs its own grant even when the action's net satoshis are zero (the reference's permission
 * manager prompts only on satoshis, which let apps take tokens unasked). Satoshis are counted against the
 * month's authorisation in one database transaction, so two actions never both use one remainder; an action
 * above the remainder becomes a request of its own (its amount shown) and goes through only if granted.
 */
export async function spend(services: AppPermissionServices, app: AppRow, request: SpendRequest): Promise<SpendHold> {
  if (!Number.isSafeInteger(request.satoshis)) throw invalidParameter('outputs', 'outputs whose satoshis add up to a whole number');
  const purpose = request.description.slice(0, 200);
  for (const asset of assetsOf(request)) {
    const scope: PermissionScope = {
      originator: app.originator,
      kind: 'asset',
      subject: asset,
      securityLevel: null,
      counterparty: null,
      fields: null,
      satoshis: null,
    };
    await ask(services, app, scope, purpose);
  }
  if (request.satoshis <= 0) return NOTHING_HELD;
  const { originator } = app;
  const { appPermissions } = services.repos;
  const scope: PermissionScope = {
    originator,
    kind: 'spend',
    subject: purpose || '(no description)',
    securityLevel: null,
    counterparty: null,
    fields: null,
    satoshis: request.satoshis,
  };

  const first = services.db.transaction(() => {
    const room = remainingThisMonth(services, originator);
    if (room === null) throw noRate(services, originator);
    if (request.satoshis <= room) return { hold: appPermissions.hold(originator, services.now(), request.satoshis, null) };
    return { request: recordRequest(services, app, scope, `${request.satoshis} satoshis; ${room} left of this month's authorisation`) };
  })();
  if (first.hold !== undefined) return holdOf(services, first.hold);
  const id = first.request.id;
  permissionChanged(services, originator);
  await services.appGate.wait(requestKey(id));
  if (services.repos.apps.get(originator)?.state !== 'allowed') {
    services.db.transaction(() => {
      if (appPermissions.get(id)?.state === 'pending') appPermissions.remove(id);
    })();
    stillAllowed(services, originator);
  }

  const outcome = services.db.transaction(() => {
    const row = appPermissions.get(id);
    if (row?.state === 'granted') {
      // Granted for this one action: it goes through beside the month's authorisation, and the grant is spent.
      appPermissions.decide(id, 'used', row.decidedBy, row.decidedAt ?? services.now(), null);
      return { hold: appPermissions.hold(originator, services.now(), request.satoshis, id) };
    }
    if (row?.state === 'denied') return { refused: 'denied' as const };
    // Nobody decided in time: the action ends, and so does its request. A raised authorisation may cover it now.
    if (row) appPermissions.remove(id);
    const room = remainingThisMonth(services, originator);
    if (room !== null && request.satoshis <= room) return { hold: appPermissions.hold(originator, services.now(), request.satoshis, null) };
    return { refused: 'undecided' as const, room };
  })();
  if (outcome.hold !== undefined) return holdOf(services, outcome.hold);
  if (outcome.refused === 'denied') throw unauthorized(`The organisation denied this app's spend of ${request.satoshis} satoshis.`);
  permissionChanged(services, originator);
  throw unauthorized(
    `This app's spend of ${request.satoshis} satoshis is above what is left of its monthly authorisation (${outcome.room ?? 0} satoshis) ` +
      'and nobody granted it in time: an administrator or manager must grant it or raise the authorisation in Keystead (Apps, permissions).',
  );
}
