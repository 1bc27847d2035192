import type { WalletRow } from '../../store/repos/wallets.js';
import type { Throttle } from '../auth/throttle.js';
import { sealAad } from './create.js';
import { needsPassword, unseal } from './seal.js';

/**
 * Opens a wallet's sealed seed. A secure wallet's password is a secret worth guessing, so guesses are
 * throttled per wallet (admitted before the costly key derivation), like account passwords.
 */
export async function openSeed(
  deps: { throttle: Throttle; sealingKey(): Buffer },
  wallet: WalletRow,
  walletPassword?: string,
): Promise<string> {
  const keys = { sealingKey: deps.sealingKey(), walletPassword };
  const aad = sealAad(wallet.ownerUid, wallet.walletId);
  if (!needsPassword(wallet.sealedSeed) || walletPassword === undefined) return unseal(wallet.sealedSeed, aad, keys);
  const guess = `wallet-password:${wallet.id}`;
  const ticket = deps.throttle.admit([guess], 'Too many wrong wallet passwords');
  try {
    const opened = await unseal(wallet.sealedSeed, aad, keys);
    ticket.succeed([guess]);
    return opened;
  } finally {
    ticket.release();
  }
}
