import { LockingScript, P2PKH, Transaction } from '@bsv/sdk';
import { requiredFee } from '../../chain/policy.js';
import { p2pkhAddressOf } from '../../chain/script.js';
import type { FeePolicy } from '../../chain/types.js';
import type { PaymentAttempt } from '../../store/repos/payments.js';
import type { WalletUtxo } from '../../store/repos/wallet-utxos.js';
import type { WalletRow } from '../../store/repos/wallets.js';
import type { PaymentServices } from './services.js';
import { P2PKH_INPUT_BYTES, P2PKH_OUTPUT_BYTES, TX_OVERHEAD_BYTES } from './coin-select.js';
import type { SigningAccount } from './keyring.js';
import { claimChangeAddress } from './plan.js';
import type { ChainView } from './chain-view.js';

/**
 * A payment a P2P receiver refused may still be in the receiver's hands, signed and valid: it could be
 * broadcast tomorrow. So its coins are not simply handed back (a second payment could then pay the same
 * receiver twice). Instead Keystead cancels it on chain: it spends one of the payment's coins back to the
 * paying wallet. Once the chain has that, the refused payment can never be mined, and its other coins are
 * free again. If the receiver broadcasts first, the payment simply completes.
 */

const CANCEL_BYTES = TX_OVERHEAD_BYTES + 2 + P2PKH_INPUT_BYTES + P2PKH_OUTPUT_BYTES;

/** Signs a transaction spending the payment's largest coin of `wallet` back to a fresh change address. */
export async function signCancellation(
  services: PaymentServices,
  wallet: WalletRow,
  coins: readonly WalletUtxo[],
  account: SigningAccount,
  policy: FeePolicy,
): Promise<Transaction | null> {
  const fee = requiredFee(CANCEL_BYTES, policy);
  const coin = [...coins].filter((c) => c.walletRow === wallet.id).sort((a, b) => b.satoshis - a.satoshis)[0];
  if (!coin || coin.satoshis - fee < policy.dustLimit) return null;
  const address = services.db.transaction(() => claimChangeAddress(services, wallet))();
  const tx = new Transaction();
  tx.addInput({
    sourceTXID: coin.txid,
    sourceOutputIndex: coin.vout,
    sequence: 0xffffffff,
    unlockingScriptTemplate: new P2PKH().unlock(account.keyFor(coin), 'all', false, coin.satoshis, LockingScript.fromHex(coin.script)),
  });
  tx.addOutput({ lockingScript: new P2PKH().lock(address), satoshis: coin.satoshis - fee });
  await tx.sign();
  return tx;
}

/** The chain has the cancellation: book it, and undo the refused payment it replaced, in one transaction. */
export function finishCancellation(services: PaymentServices, a: PaymentAttempt, height: number | null): void {
  const cancel = Transaction.fromHex(a.cancelRaw!);
  services.db.transaction(() => {
    services.sync.applyTransaction(cancel, a.cancelTxid!, height);
    services.repos.walletTxs.annotate(a.walletRow, a.cancelTxid!, `Cancels ${a.txid.slice(0, 8)}…, which the receiver refused`, null);
    // Its keys stay held until a block holds the cancellation (releaseCancelledKeys): until then the receiver could
    // still get the refused payment mined, and a retry under the same key would pay it twice.
    services.sync.revertTransaction(a.txid, `${a.failure ?? 'the receiver refused it'}; cancelled on chain by ${a.cancelTxid}`, {
      keepKeys: height === null,
    });
  })();
  services.logger.info({ txid: a.txid, cancelTxid: a.cancelTxid }, 'a refused payment was cancelled on chain; its coins are back');
}

/**
 * Moves a cancellation along: if the chain has the refused payment after all, it is complete; if it has
 * the cancellation, the payment is undone; otherwise the cancellation is sent (again).
 */
export async function settleCancellation(
  services: PaymentServices,
  a: PaymentAttempt,
  chainSees: (txid: string) => Promise<ChainView | null>,
  complete: (height: number | null) => void,
): Promise<'paid' | 'cancelled' | 'open'> {
  const original = await chainSees(a.txid);
  if (original?.seen) {
    complete(original.height);
    freeCancelAddress(services, a);
    return 'paid';
  }
  // The cancellation counts only once a node took it or a block holds it. ARC answers "accepted" and shows in
  // its status what it has merely stored; the coins given back on that, the refused payment could still be
  // mined (the receiver broadcasting it elsewhere), and a second payment would pay the receiver twice.
  const cancel = await chainSees(a.cancelTxid!);
  if (cancel?.seen && cancel.nodesAccepted) {
    finishCancellation(services, a, cancel.height);
    return 'cancelled';
  }
  if (original === null || cancel === null) return 'open';
  const r = await services.chain.broadcast(a.cancelRaw!);
  if (r.status === 'accepted') {
    const after = await chainSees(a.cancelTxid!);
    if (after?.seen && after.nodesAccepted) {
      finishCancellation(services, a, after.height);
      return 'cancelled';
    }
    return 'open';
  }
  // Refused most likely because the receiver broadcast the payment meanwhile: the next round sees it.
  if (r.status === 'rejected')
    services.logger.warn({ txid: a.txid, reason: r.reason }, 'a cancellation was refused; the payment itself may be on chain');
  return 'open';
}

/** Frees the keys of cancelled payments whose cancellation a block now holds: they may pay again. */
export function releaseCancelledKeys(services: PaymentServices): void {
  const { repos } = services;
  for (const a of repos.payments.cancelledHoldingKeys())
    if (repos.walletTxs.stateOf(a.walletRow, a.cancelTxid!)?.height != null) repos.payments.releaseKeys(a.attempt);
}

/** The payment went through after all: the address the cancellation would have paid is free again. */
function freeCancelAddress(services: PaymentServices, a: PaymentAttempt): void {
  const address = p2pkhAddressOf(Transaction.fromHex(a.cancelRaw!).outputs[0]?.lockingScript.toHex() ?? '');
  const owner = address ? services.repos.addresses.owner(address) : null;
  if (address && owner && !services.repos.walletUtxos.usedOnAddress(address)) services.repos.addresses.markUnused(owner.walletRow, address);
}
