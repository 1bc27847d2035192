import { LockingScript, P2PKH, type Transaction, UnlockingScript } from '@bsv/sdk';
import type { TokenUtxo } from '../../store/repos/tokens.js';
import type { WalletUtxo } from '../../store/repos/wallet-utxos.js';
import type { SigningAccount } from '../payments/keyring.js';
import type { ReadOffer } from './read.js';

/**
 * Adds the inputs a taker's swap transaction starts with: 0 the offered tokens, then the taker's token output
 * paying for it (when it pays with tokens), both unlocked once the outputs are known; then the taker's coins,
 * signed as P2PKH.
 */
export function addSwapInputs(
  tx: Transaction,
  o: ReadOffer,
  payWith: { utxo: TokenUtxo; sequence: number } | null,
  coins: readonly WalletUtxo[],
  account: SigningAccount,
): void {
  tx.addInput({
    sourceTXID: o.source.txid,
    sourceOutputIndex: o.source.vout,
    sequence: o.source.sequence,
    unlockingScript: new UnlockingScript(),
  });
  if (payWith)
    tx.addInput({
      sourceTXID: payWith.utxo.txid,
      sourceOutputIndex: payWith.utxo.vout,
      sequence: payWith.sequence,
      unlockingScript: new UnlockingScript(),
    });
  for (const c of coins)
    tx.addInput({
      sourceTXID: c.txid,
      sourceOutputIndex: c.vout,
      sequence: 0xffffffff,
      unlockingScriptTemplate: new P2PKH().unlock(account.keyFor(c), 'all', false, c.satoshis, LockingScript.fromHex(c.script)),
    });
}
