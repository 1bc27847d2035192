import type { Transaction } from '@bsv/sdk';
import { DomainError } from '../../../shared/errors.js';
import { requiredFee } from '../../chain/policy.js';
import type { FeePolicy } from '../../chain/types.js';

/**
 * Builds a swap transaction until its fee settles. The change is inside the token inputs' preimages, so the
 * fee is found by building, measuring and building again (a few rounds at most). `keepChange`: the layout
 * needs a change output (STAS: the funding's change is its last output), so change below `dustLimit` (at
 * least 1) refuses; otherwise change below the dust limit is left to the fee.
 */
export async function settleSwapFee(p: {
  spentIn: number;
  fixedOut: number;
  firstFee: number;
  policy: FeePolicy;
  keepChange: boolean;
  assemble: (change: number) => Promise<Transaction>;
}): Promise<{ tx: Transaction; fee: number }> {
  const floor = p.keepChange ? Math.max(1, p.policy.dustLimit) : 0;
  let change = p.spentIn - p.fixedOut - p.firstFee;
  for (let round = 0; round < 6; round++) {
    if (change < floor) throw new DomainError('INSUFFICIENT_FUNDS', 'The chosen coins do not cover this swap and its fee.');
    const kept = p.keepChange || change >= p.policy.dustLimit ? change : 0;
    const tx = await p.assemble(kept);
    const needFee = requiredFee(tx.toBinary().length, p.policy);
    const paidFee = p.spentIn - p.fixedOut - kept;
    if (paidFee >= needFee && paidFee - needFee < 4 + round) return { tx, fee: paidFee };
    change = p.spentIn - p.fixedOut - needFee;
  }
  throw new Error('the swap transaction fee did not settle');
}
