import { HD, PrivateKey } from '@bsv/sdk';
import type { WalletRow } from '../../store/repos/wallets.js';
import type { Throttle } from '../auth/throttle.js';
import { seedOf } from '../wallets/keys.js';
import { openSeed } from '../wallets/open-seed.js';
import { accountNodeOf, walletSecretOf, type WalletSecret } from '../wallets/secret.js';
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
 * A wallet's privileged key (BRC-100's `privileged: true` calls): the hardened child 4' of its account node,
 * `<account>/4'`, of the phrase's seed or, for a wallet created from a root key, of the HD seed derived from
 * it (secret.ts). Kept apart from the everyday root key, as the reference keeps its privileged key manager
 * apart, so an app granted the everyday keys of a protocol never reaches these.
 */
export const BRC100_PRIVILEGED_CHILD = "4'";

export function brc100PrivilegedKeyOf(secret: WalletSecret, accountPath: string): PrivateKey {
  return accountNodeOf(secret, `${accountPath}/${BRC100_PRIVILEGED_CHILD}`).privKey;
}

/**
 * A wallet's root key from its opened secret: a wallet created from a BRC-100 root key (secret.ts) answers
 * apps with exactly that key; any other with `<account>/3'` of its phrase.
 */
export function brc100RootKeyOf(secret: WalletSecret, accountPath: string): PrivateKey {
  return secret.rootKey !== undefined ? PrivateKey.fromHex(secret.rootKey) : brc100RootKey(secret.mnemonic, accountPath);
}

/**
 * Root keys of the wallets that answer apps, kept in memory once opened (never on disk, never logged). A
 * secure wallet's seed opens only with its password, which BRC-100 has no way to send: it is refused.
 */
export class RootKeys {
  private readonly keys = new Map<string, { xpub: string; key: PrivateKey }>();

  constructor(private readonly deps: { throttle: Throttle; sealingKey(): Buffer }) {}

  /** The everyday root key, or with `privileged` the privileged key. */
  async of(wallet: WalletRow, privileged = false): Promise<PrivateKey> {
    if (wallet.type === 'secure') {
      throw invalidOperation(
        `The wallet ${wallet.walletId} answering this app is a secure wallet: its keys open only with its password, which BRC-100 cannot send. Allow the app with another wallet.`,
      );
    }
    const slot = `${wallet.id}${privileged ? ' privileged' : ''}`;
    const known = this.keys.get(slot);
    if (known && known.xpub === wallet.accountXpub) return known.key;
    const secret = walletSecretOf(await openSeed(this.deps, wallet));
    const key = privileged ? brc100PrivilegedKeyOf(secret, wallet.derivationPath) : brc100RootKeyOf(secret, wallet.derivationPath);
    this.keys.set(slot, { xpub: wallet.accountXpub, key });
    return key;
  }
}
