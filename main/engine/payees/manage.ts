import { randomBytes } from 'node:crypto';
import type { OutputOf, ParsedInputOf } from '../../../shared/operation.js';
import { OPERATIONS, type PayeeOutput } from '../../../shared/operations.js';
import { DomainError } from '../../../shared/errors.js';
import type { PayeeRow } from '../../store/repos/payees.js';
import { callerOf, type OpContext } from '../context.js';
import { COOLING_OFF_SETTING, coolingOffHours, usableFromFor } from './book.js';
import { parseDestination, type PayeeDestination } from './destination.js';
import type { PayeeServices } from './services.js';

type Ctx = OpContext<PayeeServices>;
type In<N extends keyof typeof OPERATIONS> = ParsedInputOf<(typeof OPERATIONS)[N]>;
type Out<N extends keyof typeof OPERATIONS> = OutputOf<(typeof OPERATIONS)[N]>;

const iso = (t: number) => new Date(t).toISOString();

export function presentPayee(p: PayeeRow, now: number): PayeeOutput {
  return {
    payeeId: p.id,
    name: p.name,
    kind: p.kind,
    destination: p.destination,
    note: p.note,
    state: p.state,
    usableFrom: iso(p.usableFrom),
    usable: p.state === 'active' && now >= p.usableFrom,
    createdBy: p.createdBy,
    createdAt: iso(p.createdAt),
    updatedBy: p.updatedBy,
    updatedAt: iso(p.updatedAt),
  };
}

/** One destination, one active payee: a second would make "which payee is this payment to" ambiguous. */
function refuseTaken(services: PayeeServices, d: PayeeDestination, self?: string): void {
  const holder = services.repos.payees.findActive(d.kind, d.destination);
  if (holder && holder.id !== self) {
    throw new DomainError('CONFLICT', `destination: ${d.destination} is already in the payee book as "${holder.name}" (${holder.id}).`, {
      payeeId: holder.id,
    });
  }
}

/** The active payee of that id, or 404 (unknown) / 409 (removed). */
function activePayee(services: PayeeServices, id: string): PayeeRow {
  const p = services.repos.payees.byId(id);
  if (!p) throw new DomainError('NOT_FOUND', `id: there is no payee ${id}.`);
  if (p.state !== 'active') throw new DomainError('CONFLICT', `Payee "${p.name}" (${id}) was removed; add it again instead.`);
  return p;
}

const noteOf = (note: string | null | undefined): string | null => (note ? note : null);

function changed(services: PayeeServices, change: 'added' | 'updated' | 'removed' | 'settings', payeeId: string | null): void {
  services.events.publish('payees', { change, payeeId }, { kind: 'everyone' });
}

export function listPayees(ctx: Ctx, input: In<'listPayees'>): Out<'listPayees'> {
  const { repos, now } = ctx.services;
  const at = now();
  return {
    payees: repos.payees.list({ all: input.includeRemoved === true }).map((p) => presentPayee(p, at)),
    coolingOffHours: coolingOffHours(repos),
  };
}

export function addPayee(ctx: Ctx, input: In<'addPayee'>): Out<'addPayee'> {
  const { services } = ctx;
  const caller = callerOf(ctx);
  const d = parseDestination(input.destination, input.kind);
  const at = services.now();
  const row = services.db.transaction(() => {
    refuseTaken(services, d);
    return services.repos.payees.add({
      id: `payee_${randomBytes(16).toString('base64url')}`,
      name: input.name,
      kind: d.kind,
      destination: d.destination,
      note: noteOf(input.note),
      createdBy: caller.uid,
      createdAt: at,
      usableFrom: usableFromFor(services.repos, at),
    });
  })();
  services.logger.info({ payeeId: row.id, kind: row.kind }, 'payee added');
  changed(services, 'added', row.id);
  return presentPayee(row, at);
}

export function updatePayee(ctx: Ctx, input: In<'updatePayee'>): Out<'updatePayee'> {
  const { services } = ctx;
  const caller = callerOf(ctx);
  if (input.name === undefined && input.kind === undefined && input.destination === undefined && input.note === undefined) {
    throw new DomainError('VALIDATION_FAILED', 'input: give the name, note or destination to change.');
  }
  const at = services.now();
  const row = services.db.transaction(() => {
    const current = activePayee(services, input.id);
    const moving = input.destination !== undefined || input.kind !== undefined;
    // A destination given without a kind is read for what it is; a kind alone re-reads the current destination.
    const kind = input.kind ?? (input.destination === undefined ? current.kind : undefined);
    const d = moving
      ? parseDestination(input.destination ?? current.destination, kind)
      : { kind: current.kind, destination: current.destination };
    const newDestination = d.kind !== current.kind || d.destination !== current.destination;
    if (newDestination) refuseTaken(services, d, current.id);
    const next = {
      name: input.name ?? current.name,
      kind: d.kind,
      destination: d.destination,
      note: input.note === undefined ? current.note : noteOf(input.note),
      // A changed destination is a new payee as far as trust goes: its cooling-off starts again.
      usableFrom: newDestination ? usableFromFor(services.repos, at) : current.usableFrom,
      updatedBy: caller.uid,
      updatedAt: at,
    };
    services.repos.payees.update(current.id, next);
    return { ...current, ...next };
  })();
  services.logger.info({ payeeId: row.id, kind: row.kind }, 'payee updated');
  changed(services, 'updated', row.id);
  return presentPayee(row, at);
}

export function removePayee(ctx: Ctx, input: In<'removePayee'>): Out<'removePayee'> {
  const { services } = ctx;
  const caller = callerOf(ctx);
  const at = services.now();
  const row = services.db.transaction(() => {
    const current = activePayee(services, input.id);
    services.repos.payees.remove(current.id, caller.uid, at);
    return { ...current, state: 'removed' as const, updatedBy: caller.uid, updatedAt: at };
  })();
  services.logger.info({ payeeId: row.id }, 'payee removed');
  changed(services, 'removed', row.id);
  return presentPayee(row, at);
}

export function payeeSettings(ctx: Ctx): Out<'payeeSettings'> {
  return { coolingOffHours: coolingOffHours(ctx.services.repos) };
}

/**
 * Sets the cooling-off period for payees added or changed from now on. Payees already in the book keep
 * their `usableFrom`, whichever way the period moves: were a shorter period applied to them, whoever
 * could add a payee and set the period (a stolen admin session) could add one and release it at once.
 */
export function setPayeeSettings(ctx: Ctx, input: In<'setPayeeSettings'>): Out<'setPayeeSettings'> {
  const { services } = ctx;
  services.repos.settings.set(COOLING_OFF_SETTING, String(input.coolingOffHours));
  services.logger.info({ coolingOffHours: input.coolingOffHours }, 'payee cooling-off period set');
  changed(services, 'settings', null);
  return { coolingOffHours: coolingOffHours(services.repos) };
}
