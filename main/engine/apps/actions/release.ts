import type { Transaction } from '@bsv/sdk';
import { p2pkhAddressOf } from '../../../chain/script.js';
import type { AppCall } from '../call.js';
import { endHold } from './holds.js';

/** Gives back what an unsigned action reserved (coins, basket inputs, its change address) and marks it aborted. */
export function releaseUnsigned(
  call: AppCall,
  actionId: number,
  attempt: string,
  reference: string,
  tx: Transaction,
  status: 'aborted' | 'failed' = 'aborted',
): void {
  const { db, repos, now } = call.services;
  db.transaction(() => {
    repos.walletUtxos.release(attempt);
    repos.appOutputs.release(reference);
    freeChange(call, tx);
    repos.appActions.setStatus(actionId, status, now());
  })();
  endHold(call.services, call.wallet.id, reference, true);
}

/** The wallet's change addresses a transaction claimed are free again when nothing on the books pays them. */
function freeChange(call: AppCall, tx: Transaction): void {
  const { repos } = call.services;
  for (const o of tx.outputs) {
    const address = p2pkhAddressOf(o.lockingScript.toHex());
    const owner = address ? repos.addresses.owner(address) : null;
    if (address && owner?.walletRow === call.wallet.id && owner.chain === 1 && !repos.walletUtxos.usedOnAddress(address))
      repos.addresses.markUnused(call.wallet.id, address);
  }
}
