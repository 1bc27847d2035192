import { DomainError } from '../../../shared/errors.js';
import { requiredFee } from '../../chain/policy.js';
import type { FeePolicy } from '../../chain/types.js';
import type { WalletUtxo } from '../../store/repos/wallet-utxos.js';
import type { WalletRow } from '../../store/repos/wallets.js';
import type { PaymentServices } from '../payments/services.js';
import { plainCoins } from '../payments/coin-select.js';
import { claimChangeAddress } from '../payments/plan.js';

/** The coin that pays a token transaction's fee, whose wallet it is, and where its change goes. */
export interface FundingChoice {
  coin: WalletUtxo;
  wallet: WalletRow;
  changeAddress: string;
  paidBy: 'wallet' | 'feeManager';
}

/**
 * Picks and reserves, inside the caller's database transaction, one coin that covers a fee of about
 * `fee` satoshis: the fee manager's (smallest that covers) when it is set up and can, else the wallet's.
 * Token scripts take exactly one funding input, so a coin must cover the fee alone.
 */
export function reserveFunding(
  services: PaymentServices,
  wallet: WalletRow,
  fee: number,
  attempt: string,
  policy: FeePolicy,
): FundingChoice {
  const { repos } = services;
  const need = fee + requiredFee(148, policy); // the funding input itself
  // Never a 1-satoshi output: it may carry an ordinal (coin-select.ts, plainCoins).
  const pick = (coins: WalletUtxo[]) =>
    plainCoins(coins)
      .sort((a, b) => a.satoshis - b.satoshis)
      .find((c) => c.satoshis >= need);
  const fm = repos.wallets.feeManager();
  const fmCoin = fm && fm.id !== wallet.id ? pick(repos.walletUtxos.available(fm.id)) : undefined;
  const choice = fm && fmCoin ? { coin: fmCoin, wallet: fm, paidBy: 'feeManager' as const } : null;
  const own = choice ? null : pick(repos.walletUtxos.available(wallet.id));
  const chosen = choice ?? (own ? { coin: own, wallet, paidBy: 'wallet' as const } : null);
  if (!chosen) {
    const held = repos.walletUtxos.reservedTotal(wallet.id);
    if (held > 0)
      throw new DomainError(
        'CONFLICT',
        `The wallet's coins are held by a payment still in progress (${held} satoshis). Try again once it completes.`,
        { held },
      );
    throw new DomainError(
      'INSUFFICIENT_FUNDS',
      `A token transaction needs one coin of at least ${need} satoshis to pay its fee, from the fee manager or the wallet; there is none.`,
      { needed: need },
    );
  }
  if (!repos.walletUtxos.reserve([chosen.coin], attempt, services.now()))
    throw new DomainError('CONFLICT', 'Another payment took this coin at the same moment. Try again.');
  return { ...chosen, changeAddress: claimChangeAddress(services, chosen.wallet) };
}

/** A token transaction's size, roughly: each token input carries its preimage (about its own script) twice over. */
export function estimateTokenTxBytes(scriptBytes: number, tokenInputs: number, tokenOutputs: number, parentBytes = 0): number {
  return 200 + tokenInputs * (2 * scriptBytes + 600) + tokenOutputs * (scriptBytes + 12) + parentBytes * 2 + 250;
}
