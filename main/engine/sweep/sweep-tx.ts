import { LockingScript, P2PKH, type PrivateKey, Transaction } from '@bsv/sdk';
import { requiredFee } from '../../chain/policy.js';
import type { FeePolicy } from '../../chain/types.js';

/** A plain P2PKH coin of the key being swept. */
export interface KeyCoin {
  txid: string;
  vout: number;
  satoshis: number;
  script: string;
}

const TX_VERSION = 1;

/**
 * One transaction spending every given coin of `key` to one P2PKH output (`toScript`), paying the fee the
 * policy asks for its signed size (found by signing, measuring, and signing again). Null when what would be
 * left after the fee is below the dust limit.
 */
export async function buildSweep(
  coins: readonly KeyCoin[],
  key: PrivateKey,
  toScript: string,
  policy: FeePolicy,
): Promise<{ tx: Transaction; fee: number; amount: number } | { dust: true; total: number; fee: number }> {
  const total = coins.reduce((s, c) => s + c.satoshis, 0);
  // A first guess: 148 bytes an input, 34 the output, 10 the rest; then the signed size decides.
  let fee = requiredFee(10 + 148 * coins.length + 34, policy);
  for (let round = 0; round < 4; round++) {
    const amount = total - fee;
    if (amount < Math.max(1, policy.dustLimit)) return { dust: true, total, fee };
    const tx = new Transaction(TX_VERSION, [], [], 0);
    for (const c of coins)
      tx.addInput({
        sourceTXID: c.txid,
        sourceOutputIndex: c.vout,
        sequence: 0xffffffff,
        unlockingScriptTemplate: new P2PKH().unlock(key, 'all', false, c.satoshis, LockingScript.fromHex(c.script)),
      });
    tx.addOutput({ lockingScript: LockingScript.fromHex(toScript), satoshis: amount });
    await tx.sign();
    const needed = requiredFee(tx.toBinary().length, policy);
    if (needed <= fee) return { tx, fee, amount };
    fee = needed;
  }
  throw new Error('the sweep fee did not settle');
}
