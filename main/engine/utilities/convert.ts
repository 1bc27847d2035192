import type { OutputOf, ParsedInputOf } from '../../../shared/operation.js';
import type { OPERATIONS } from '../../../shared/operations.js';
import type { OpContext } from '../context.js';
import { rateFor, toCurrency, toCurrencyExact } from '../rates/rates.js';
import type { UtilityServices } from './services.js';

/** GET /v1/currencyConversion (headers `satoshis`, `currency`): the public service's `balance`, beside Keystead's rounded `amount`. */
export async function currencyConversion(
  ctx: OpContext<UtilityServices>,
  input: ParsedInputOf<typeof OPERATIONS.currencyConversion>,
): Promise<OutputOf<typeof OPERATIONS.currencyConversion>> {
  const r = await rateFor(ctx.services, input.currency || 'USD');
  return {
    currency: r.currency,
    balance: toCurrencyExact(input.satoshis, r.rate),
    satoshis: input.satoshis,
    amount: toCurrency(input.satoshis, r.rate),
    rate: r.rate,
    source: r.source,
    updatedAt: r.updatedAt ? new Date(r.updatedAt).toISOString() : null,
  };
}
