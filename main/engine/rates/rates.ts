import { OPERATIONS } from '../../../shared/operations.js';
import type { ParsedInputOf, OutputOf } from '../../../shared/operation.js';
import type { ExchangeRate } from '../../chain/types.js';
import type { RateRow } from '../../store/repos/rates.js';
import { callerOf, type OpContext } from '../context.js';
import type { RateOperationServices, RateServices } from './services.js';
import { DomainError } from '../../../shared/errors.js';
import { judgeUsdRate } from './guard.js';

/** How long a rate fetched from the network stays fresh. */
export const RATE_TTL_MS = 5 * 60_000;

const out = (r: RateRow) => ({
  currency: r.currency,
  rate: r.rate,
  source: r.source,
  updatedAt: r.updatedAt ? new Date(r.updatedAt).toISOString() : null,
});

/**
 * On the network, USD comes from the provider (WhatsOnChain) and is cached with its source and time;
 * everything else, and everything on the local network, comes from the editable table.
 */
export async function refreshRates(services: RateServices): Promise<void> {
  if (services.chain.network === 'local') return;
  const usd = services.repos.rates.get('USD');
  if (usd && usd.source !== 'default' && services.now() - usd.updatedAt < RATE_TTL_MS) return;
  try {
    const r = await services.chain.getUsdRate();
    if (r) {
      // The provider's answer is hostile like any input: implausible or too fast a move keeps the last good rate.
      const now = services.now();
      const verdict = r.currency === 'USD' ? judgeUsdRate(usd, r.rate, now) : { accept: false as const, reason: `it is in ${r.currency}` };
      if (!verdict.accept) {
        services.logger.warn({ source: r.source, kept: usd?.rate ?? null }, `refused the provider's USD rate: ${verdict.reason}`);
        return;
      }
      if (verdict.note) services.logger.warn({ source: r.source }, verdict.note);
      services.repos.rates.set({ currency: 'USD', rate: r.rate, source: r.source, updatedAt: now });
      if (r.rate !== usd?.rate) services.events.publish('rate', { currency: 'USD', rate: r.rate, source: r.source }, { kind: 'everyone' });
    }
  } catch {
    /* keep the cached rate; its time tells how old it is */
  }
}

/** The rate of one BSV in `currency`, or a clear 400. */
export async function rateFor(services: RateServices, currency: string): Promise<RateRow> {
  const code = currency.trim().toUpperCase();
  if (code === 'USD') await refreshRates(services);
  const r = services.repos.rates.get(code);
  if (!r) {
    const known = services.repos.rates
      .all()
      .map((x) => x.currency)
      .join(', ');
    throw new DomainError('VALIDATION_FAILED', `currency: ${code} is not in the rate table (known: ${known}).`);
  }
  return r;
}

/** The USD rate as the local node's WhatsOnChain route serves it. */
export function usdRateOf(services: Pick<RateServices, 'repos'>): ExchangeRate | null {
  const r = services.repos.rates.get('USD');
  return r ? { currency: 'USD', rate: r.rate, source: r.source, time: new Date(r.updatedAt || Date.now()).toISOString() } : null;
}

/** Satoshis to a currency amount, rounded to two decimals. */
export function toCurrency(satoshis: number, rate: number): number {
  return Math.round((satoshis / 1e8) * rate * 100) / 100;
}

/** Unrounded, as the public service's lookup returns it: 1,000 satoshis at 40 USD/BSV is 0.0004. */
export function toCurrencyExact(satoshis: number, rate: number): number {
  return (satoshis * rate) / 1e8;
}

export async function convertAmount(
  ctx: OpContext<RateServices>,
  input: ParsedInputOf<typeof OPERATIONS.convertAmount>,
): Promise<OutputOf<typeof OPERATIONS.convertAmount>> {
  const r = await rateFor(ctx.services, input.currency);
  return {
    satoshis: input.satoshis,
    currency: r.currency,
    amount: toCurrency(input.satoshis, r.rate),
    rate: r.rate,
    source: r.source,
    updatedAt: r.updatedAt ? new Date(r.updatedAt).toISOString() : null,
  };
}

export async function listRates(ctx: OpContext<RateServices>): Promise<OutputOf<typeof OPERATIONS.listRates>> {
  await refreshRates(ctx.services);
  return { base: 'BSV', rates: ctx.services.repos.rates.all().map(out) };
}

export function setRate(
  ctx: OpContext<RateOperationServices>,
  input: ParsedInputOf<typeof OPERATIONS.setRate>,
): OutputOf<typeof OPERATIONS.setRate> {
  const { services } = ctx;
  if (input.currency === 'USD' && services.chain.network !== 'local') {
    throw new DomainError('CONFLICT', `On ${services.chain.network} the USD rate comes from the network provider and cannot be edited.`);
  }
  refuseLimitRateUnlessAdmin(ctx, input.currency);
  if (input.rate === null) {
    if (!services.repos.rates.remove(input.currency)) throw new DomainError('NOT_FOUND', `${input.currency} is not in the rate table.`);
    services.events.publish('rate', { currency: input.currency, rate: null, source: 'removed' }, { kind: 'everyone' });
    return { currency: input.currency, rate: null, source: 'removed', updatedAt: new Date(services.now()).toISOString() };
  }
  const row = { currency: input.currency, rate: input.rate, source: 'manual', updatedAt: services.now() };
  services.repos.rates.set(row);
  services.events.publish('rate', { currency: row.currency, rate: row.rate, source: row.source }, { kind: 'everyone' });
  return out(row);
}

/**
 * A currency that measures a limit (a rule of the payment policy, an app's spending authorisation) has its rate
 * set only by an admin: a manager held to 5 EUR a payment would otherwise type EUR at 1 per BSV and pay ten
 * times that. Typed rates have no age limit (guard.ts), so the rate is the limit.
 */
function refuseLimitRateUnlessAdmin(ctx: OpContext<RateOperationServices>, currency: string): void {
  if (callerOf(ctx).role === 'admin' || !limitCurrencies(ctx.services).has(currency)) return;
  throw new DomainError(
    'ROLE_FORBIDDEN',
    `${currency} measures a limit of the payment policy or of an app's spending authorisation: only an admin sets its rate.`,
  );
}

/** The currencies the policy in force and the apps' authorisations measure limits in. */
function limitCurrencies(services: RateOperationServices): Set<string> {
  const found = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        if (k === 'currency' && typeof x === 'string') found.add(x.toUpperCase());
        else walk(x);
      }
  };
  const policy = services.repos.policies.active();
  if (policy) walk(JSON.parse(policy.document));
  for (const l of services.repos.appPermissions.spendLimits()) if ('currency' in l.limit) found.add(l.limit.currency.toUpperCase());
  return found;
}
