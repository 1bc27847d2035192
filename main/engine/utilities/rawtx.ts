import { DomainError } from '../../../shared/errors.js';
import type { OutputOf, ParsedInputOf } from '../../../shared/operation.js';
import type { OPERATIONS } from '../../../shared/operations.js';
import type { OpContext } from '../context.js';
import type { UtilityServices } from './services.js';

type Output = OutputOf<typeof OPERATIONS.rawtx>;

/** A transaction's raw hex: a payment of ours from its signed copy (the chain may not have it yet), else the chain's. */
export async function rawTransaction(services: UtilityServices, txid: string): Promise<Output> {
  let hex = services.repos.payments.attemptFor(txid)?.raw ?? null;
  if (!hex) {
    try {
      hex = await services.chain.getTransactionHex(txid);
    } catch (err) {
      throw new DomainError('CHAIN_UNAVAILABLE', `The ${services.chain.network} provider did not answer: ${(err as Error).message}`);
    }
  }
  if (!hex)
    throw new DomainError('NOT_FOUND', `Neither this organisation nor the ${services.chain.network} chain has the transaction ${txid}.`);
  return { txid, rawtx: hex, size: hex.length / 2 };
}

/**
 * POST (the SDK) or GET /v1/rawtx with a txid. The public service also answers this route with a payment
 * signed but not sent (`dataArray` of `{to, amount}`); Keystead never signs what it does not send (a signed
 * copy would be spendable behind the books' back), so that use is refused with what to use instead.
 */
export async function rawtx(ctx: OpContext<UtilityServices>, input: ParsedInputOf<typeof OPERATIONS.rawtx>): Promise<Output> {
  if (!input.txid && input.dataArray)
    throw new DomainError(
      'BAD_REQUEST',
      'Keystead does not sign a payment without sending it. Price it with POST /v1/pay/quote, and pay it with POST /v1/send or /v1/pay; rawtx answers a transaction\'s hex by its txid (header, query or body "txid").',
    );
  if (!input.txid) throw new DomainError('VALIDATION_FAILED', 'txid: is required (the id of the transaction whose hex you want)');
  return rawTransaction(ctx.services, input.txid);
}
