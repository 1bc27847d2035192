import type { OutputOf, ParsedInputOf } from '../../../../shared/operation.js';
import type { OPERATIONS } from '../../../../shared/operations.js';
import { DomainError } from '../../../../shared/errors.js';
import type { AppPermissionRow, PermissionScope } from '../../../store/repos/app-permissions.js';
import { callerOf, type OpContext } from '../../context.js';
import type { AppPermissionServices } from '../services.js';
import { permissionChanged, requestKey } from './judge.js';
import { counterpartyKey } from './permit.js';
import { describeScope, grantCovers, isReservedBasket, isReservedProtocol, privilegedSubject } from './scope.js';
import { limitSatoshis, monthStart } from './spend.js';

type Ctx = OpContext<AppPermissionServices>;
type Op<N extends keyof typeof OPERATIONS> = (typeof OPERATIONS)[N];
type In<N extends keyof typeof OPERATIONS> = ParsedInputOf<Op<N>>;
type Out<N extends keyof typeof OPERATIONS> = OutputOf<Op<N>>;

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());

function userName(services: AppPermissionServices, uid: string | null): string | null {
  return uid === null ? null : (services.repos.users.byUid(uid)?.email ?? uid);
}

export function presentPermission(services: AppPermissionServices, row: AppPermissionRow): Out<'decideAppPermission'> {
  return {
    id: row.id,
    originator: row.originator,
    kind: row.kind,
    state: row.state,
    subject: row.subject,
    securityLevel: row.securityLevel,
    counterparty: row.counterparty,
    fields: row.fields,
    satoshis: row.satoshis,
    purpose: row.purpose,
    summary: describeScope(row),
    requestedAt: iso(row.requestedAt),
    decidedBy: userName(services, row.decidedBy),
    decidedAt: iso(row.decidedAt),
    expiresAt: iso(row.expiresAt),
  };
}

function spendingOf(services: AppPermissionServices, originator: string): Out<'setAppSpendingLimit'> {
  const { appPermissions } = services.repos;
  const row = appPermissions.spendLimit(originator);
  const since = monthStart(services.now());
  const used = appPermissions.countedSince(originator, since);
  const limit = row ? limitSatoshis(services, row.limit) : null;
  return {
    originator,
    limit: row?.limit ?? null,
    limitSatoshis: row ? limit : 0,
    usedSatoshis: used,
    spentSatoshis: appPermissions.spentSince(originator, since),
    remainingSatoshis: row ? (limit === null ? null : Math.max(0, limit - used)) : 0,
    setBy: userName(services, row?.setBy ?? null),
    setAt: iso(row?.setAt ?? null),
  };
}

/** A future time for a grant's end, or a clear 400. */
function expiryOf(services: AppPermissionServices, expiresAt: string | undefined): number | null {
  if (expiresAt === undefined) return null;
  const t = Date.parse(expiresAt);
  if (!(t > services.now())) throw new DomainError('VALIDATION_FAILED', 'expiresAt: must be in the future.');
  return t;
}

/** Wakes the calls waiting for these requests: each reads the grants again. */
function wake(services: AppPermissionServices, ids: readonly number[]): void {
  for (const id of ids) services.appGate.decided(requestKey(id));
}

export function listAppPermissions(ctx: Ctx, input: In<'listAppPermissions'>): Out<'listAppPermissions'> {
  const { services } = ctx;
  const { appPermissions } = services.repos;
  const only = input.originator ?? null;
  const originators = new Set<string>(appPermissions.spendLimits().map((l) => l.originator));
  for (const app of services.repos.apps.list()) if (app.state === 'allowed') originators.add(app.originator);
  return {
    permissions: appPermissions.list(only).map((r) => presentPermission(services, r)),
    spending: [...originators]
      .filter((o) => only === null || o === only)
      .sort()
      .map((o) => spendingOf(services, o)),
  };
}

export function decideAppPermission(ctx: Ctx, input: In<'decideAppPermission'>): Out<'decideAppPermission'> {
  const { services } = ctx;
  const caller = callerOf(ctx);
  const expiresAt = input.grant ? expiryOf(services, input.expiresAt) : null;
  const row = services.db.transaction(() => {
    const found = services.repos.appPermissions.get(input.id);
    if (!found) throw new DomainError('NOT_FOUND', `id: there is no app permission ${input.id}.`);
    // A spend request is one action's: once that action went through, or its wait ended, there is nothing to change.
    if (found.kind === 'spend' && found.state !== 'pending')
      throw new DomainError('CONFLICT', `The spend request ${input.id} is ${found.state}: only a waiting one can be decided.`);
    services.repos.appPermissions.decide(found.id, input.grant ? 'granted' : 'denied', caller.uid, services.now(), expiresAt);
    return services.repos.appPermissions.get(found.id)!;
  })();
  services.logger.info({ originator: row.originator, kind: row.kind, id: row.id, state: row.state }, 'BRC-100 app permission decided');
  wake(services, [row.id]);
  permissionChanged(services, row.originator);
  return presentPermission(services, row);
}

/** The scope an admin's grant names, checked as the methods would ask for it. */
function scopeOfInput(input: In<'setAppPermission'>): PermissionScope {
  const base = { originator: input.originator, securityLevel: null, counterparty: null, fields: null, satoshis: null };
  switch (input.kind) {
    case 'protocol': {
      const name = input.protocol!.toLowerCase();
      if (isReservedProtocol(name)) throw new DomainError('VALIDATION_FAILED', `protocol: "${name}" is kept for the wallet itself.`);
      const level = input.securityLevel!;
      return {
        ...base,
        kind: 'protocol',
        subject: input.privileged ? privilegedSubject(name) : name,
        securityLevel: level,
        counterparty: level === 2 ? counterpartyKey(input.counterparty!) : null,
      };
    }
    case 'basket':
      if (isReservedBasket(input.basket!))
        throw new DomainError('VALIDATION_FAILED', `basket: "${input.basket}" is kept for the wallet itself.`);
      return { ...base, kind: 'basket', subject: input.basket! };
    case 'certificate':
      return {
        ...base,
        kind: 'certificate',
        subject: input.certificateType!,
        fields: input.fields?.length ? [...new Set(input.fields)].sort() : null,
      };
    case 'asset':
      return { ...base, kind: 'asset', subject: input.asset! };
  }
}

export function setAppPermission(ctx: Ctx, input: In<'setAppPermission'>): Out<'setAppPermission'> {
  const { services } = ctx;
  const caller = callerOf(ctx);
  const scope = scopeOfInput(input);
  const kind = scope.kind;
  if (kind === 'spend') throw new Error('an admin grants no spend ahead: setAppSpendingLimit sets the authorisation');
  const expiresAt = input.grant ? expiryOf(services, input.expiresAt) : null;
  const state = input.grant ? 'granted' : 'denied';
  const { appPermissions } = services.repos;
  const { row, settled } = services.db.transaction(() => {
    const now = services.now();
    const same = appPermissions.exact(scope);
    let row: AppPermissionRow;
    if (same) {
      appPermissions.decide(same.id, state, caller.uid, now, expiresAt);
      row = appPermissions.get(same.id)!;
    } else {
      row = appPermissions.insertDecided(scope, state, caller.uid, now, expiresAt);
    }
    // Requests this decision answers are settled by it: their waiting calls read the grants again.
    const settled = appPermissions
      .about(scope.originator, kind, scope.subject)
      .filter((r) => r.state === 'pending' && r.id !== row.id && grantCovers(row, r));
    for (const r of settled) appPermissions.remove(r.id);
    return { row, settled: settled.map((r) => r.id) };
  })();
  services.logger.info({ originator: row.originator, kind: row.kind, id: row.id, state: row.state }, 'BRC-100 app permission set');
  wake(services, [row.id, ...settled]);
  permissionChanged(services, row.originator);
  return presentPermission(services, row);
}

export function revokeAppPermission(ctx: Ctx, input: In<'revokeAppPermission'>): Out<'revokeAppPermission'> {
  const { services } = ctx;
  const row = services.db.transaction(() => {
    const found = services.repos.appPermissions.get(input.id);
    if (!found) throw new DomainError('NOT_FOUND', `id: there is no app permission ${input.id}.`);
    // What an action granted on its own counted stays in the month's record: only the request itself goes.
    services.repos.appPermissions.remove(found.id);
    return found;
  })();
  services.logger.info({ originator: row.originator, kind: row.kind, id: row.id }, 'BRC-100 app permission revoked');
  wake(services, [row.id]);
  permissionChanged(services, row.originator);
  return { id: row.id, revoked: true };
}

export function setAppSpendingLimit(ctx: Ctx, input: In<'setAppSpendingLimit'>): Out<'setAppSpendingLimit'> {
  const { services } = ctx;
  const caller = callerOf(ctx);
  const { appPermissions } = services.repos;
  if (input.limit && 'currency' in input.limit && !services.repos.rates.get(input.limit.currency))
    throw new DomainError('VALIDATION_FAILED', `limit.currency: ${input.limit.currency} is not in the rate table.`);
  appPermissions.setSpendLimit(input.originator, input.limit, caller.uid, services.now());
  services.logger.info({ originator: input.originator }, 'BRC-100 app spending authorisation set');
  // Spends waiting above the old remainder look again: a raised authorisation may cover them.
  wake(
    services,
    appPermissions
      .list(input.originator)
      .filter((r) => r.kind === 'spend' && r.state === 'pending')
      .map((r) => r.id),
  );
  permissionChanged(services, input.originator);
  return spendingOf(services, input.originator);
}
