import { DomainError } from '../../../shared/errors.js';
import { OPERATIONS } from '../../../shared/operations.js';
import { amountText } from '../../../shared/amounts.js';
import type { ParsedInputOf, OutputOf } from '../../../shared/operation.js';
import { p2pkhAddressOf } from '../../chain/script.js';
import { isDust } from '../../chain/policy.js';
import type { OpContext } from '../context.js';
import type { PaymentServices } from './services.js';
import { resolveWallet } from '../wallets/resolve.js';
import { chooseCoins, currentFeePolicy } from './plan.js';
import { reviewedOf, reviewIdOf } from './review.js';

/** Exact (no floating point): 1234 → "0.00001234 BSV". */
const sats = (n: number) => `${amountText(n, 'BSV')} BSV`;

/**
 * Prices a payment request against the wallet's spendable coins, the same way pay will choose them, so
 * the review a person confirms shows the real fee and balance. Nothing is reserved: pay decides again.
 */
export async function quotePayment(
  ctx: OpContext<PaymentServices>,
  input: ParsedInputOf<typeof OPERATIONS.quotePayment>,
): Promise<OutputOf<typeof OPERATIONS.quotePayment>> {
  const { services } = ctx;
  const wallet = await resolveWallet(ctx, input.walletId);
  const policy = await currentFeePolicy(services);
  const outputs = input.outputs;
  const amount = outputs.reduce((s, o) => s + o.satoshis, 0);
  if (amount <= 0) throw new DomainError('VALIDATION_FAILED', 'outputs: must pay more than 0 satoshis in total');
  outputs.forEach((o, i) => {
    if (isDust(o.satoshis, o.script, policy))
      throw new DomainError('VALIDATION_FAILED', `outputs.${i}: ${o.satoshis} satoshis is below the dust limit of ${policy.dustLimit}`);
  });
  const available = services.repos.walletUtxos.availableTotal(wallet.id);
  const usd = services.repos.rates.get('USD');
  const base = {
    walletID: wallet.walletId,
    walletTitle: wallet.title,
    recipients: outputs.map((o) => ({ address: p2pkhAddressOf(o.script), script: o.script, satoshis: o.satoshis })),
    amount,
    available,
    rate: usd ? { currency: 'USD', rate: usd.rate } : null,
    // Pay given this id pays exactly these recipients from this wallet, or refuses.
    reviewId: reviewIdOf(reviewedOf(wallet.walletId, input, policy)),
  };
  try {
    const choice = chooseCoins(services, wallet, outputs, policy);
    const cost = amount + (choice.feeManager ? 0 : choice.fee);
    return {
      ...base,
      fee: choice.fee,
      feePaidBy: choice.feeManager ? 'feeManager' : 'wallet',
      cost,
      availableAfter: available - cost,
      sufficient: true,
      problem: null,
    };
  } catch (err) {
    if (!(err instanceof DomainError) || (err.code !== 'INSUFFICIENT_FUNDS' && err.code !== 'CONFLICT')) throw err;
    const problem =
      err.code === 'CONFLICT'
        ? `"${wallet.title}" has coins held by a payment still in progress. Wait for it to complete, then review again.`
        : `"${wallet.title}" has ${sats(available)} available; this payment needs ${sats(Number(err.details.needed))} including the network fee, so ${sats(Number(err.details.missing))} is missing.`;
    return { ...base, fee: 0, feePaidBy: 'wallet', cost: amount, availableAfter: available, sufficient: false, problem };
  }
}
