import type { Transaction } from '@bsv/sdk';
import type { Repos } from '../context.js';

/** A transaction's network fee, and whose coins paid it. */
export interface OwnFee {
  fee: number;
  paidBy: 'wallet' | 'feeManager';
}

/**
 * The network fee of a transaction every input of which is the organisation's, and who paid it: the fee
 * manager when one of its coins funded the transaction. `sideSatoshis[i]` is input i's value when the side
 * books (tokens, ordinals) hold the output it spends; every other input must be one of the wallets' coins.
 * Null when an input is neither: someone else paid part of it, so the fee is not the organisation's to state.
 */
export function ownFee(
  repos: Pick<Repos, 'walletUtxos'> & Partial<Pick<Repos, 'wallets'>>,
  tx: Transaction,
  sideSatoshis: (number | null)[],
): OwnFee | null {
  const feeManager = repos.wallets?.feeManager()?.id;
  let total = 0;
  let paidBy: OwnFee['paidBy'] = 'wallet';
  for (const [i, input] of tx.inputs.entries()) {
    const side = sideSatoshis[i] ?? null;
    if (side !== null) {
      total += side;
      continue;
    }
    const coin = input.sourceTXID ? repos.walletUtxos.get(input.sourceTXID, input.sourceOutputIndex) : null;
    if (!coin) return null;
    if (coin.walletRow === feeManager) paidBy = 'feeManager';
    total += coin.satoshis;
  }
  const fee = total - tx.outputs.reduce((n, o) => n + (o.satoshis ?? 0), 0);
  return fee >= 0 ? { fee, paidBy } : null;
}
