import { HD, PrivateKey } from '@bsv/sdk';
import type { WalletRow } from '../../store/repos/wallets.js';
import type { Throttle } from '../auth/throttle.js';
import { seedOf } from '../wallets/keys.js';
import { openSeed } from '../wallets/open-seed.js';
import { invalidOperation } from './werr.js';

/**
 * A wallet's BRC-100 root key: the hardened child 3' of its account node, `<account>/3'` (`m/44'/236'/0'/3'`
 * for the default scheme), beside the receive (0), change (1) and paymail identity (2) chains. Hardened, so
 * that a revealed BRC-42 child (or a leaked root) together with the account xpub never yields the account's
 * private key. The identity key apps see is its public key.
 */
export const BRC100_ROOT_CHILD = "3'";

export function brc100RootPath(accountPath: string): string {
  return `${accountPath}/${BRC100_ROOT_CHILD}`;
}

/** The root private key from a wallet's recovery phrase (the seed stays in this function). */
export function brc100RootKey(mnemonic: string, accountPath: string): PrivateKey {
  const seed = seedOf(mnemonic);
  try {
    return HD.fromSeed([...seed]).derive(brc100RootPath(accountPath)).privKey;
  } finally {
    seed.fill(0);
  }
}

/**
 * Root keys of the wallets that answer apps, kept in memory once opened (never on disk, never logged). A
 * secure wallet's seed opens only with its password, which BRC-100 has no way to send: it is refused.
 */
export class RootKeys {
  private readonly keys = new Map<number, { xpub: string; key: PrivateKey }>();

  constructor(private readonly deps: { throttle: Throttle; sealingKey(): Buffer }) {}

  async of(wallet: WalletRow): Promise<PrivateKey> {
    if (wallet.type === 'secure') {
      throw invalidOperation(
        `The wallet ${wallet.walletId} answering this app is a secure wallet: its keys open only with its password, which BRC-100 cannot send. Allow the app with another wallet.`,
      );
    }
    const known = this.keys.get(wallet.id);
    if (known && known.xpub === wallet.accountXpub) return known.key;
    const opened = await openSeed(this.deps, wallet);
    const key = brc100RootKey((JSON.parse(opened) as { mnemonic: string }).mnemonic, wallet.derivationPath);
    this.keys.set(wallet.id, { xpub: wallet.accountXpub, key });
    return key;
  }
}
