import { HD, type PrivateKey } from '@bsv/sdk';
import type { WalletRow } from '../../store/repos/wallets.js';
import type { WalletServices } from '../wallets/services.js';
import { accountNode } from '../wallets/keys.js';
import { openSeed } from '../wallets/open-seed.js';

/** The paymail identity key hangs off the account at `<account>/2/0`, beside the receive (0) and change (1) chains. */
export const IDENTITY_CHAIN = 2;

export function identityPubKeyHex(wallet: Pick<WalletRow, 'accountXpub'>): string {
  return HD.fromString(wallet.accountXpub).deriveChild(IDENTITY_CHAIN).deriveChild(0).pubKey.toString();
}

/**
 * Opens wallet seeds to sign. Account nodes of standard, escrow and shared wallets are kept in memory
 * once opened (never on disk); a secure wallet's is derived for each payment from its password and
 * dropped after.
 */
export class KeyRing {
  private readonly accounts = new Map<number, { xpub: string; chains: Map<number, HD> }>();

  constructor(private readonly services: Pick<WalletServices, 'sealingKey' | 'throttle'>) {}

  async open(wallet: WalletRow, walletPassword?: string): Promise<SigningAccount> {
    const cached = this.accounts.get(wallet.id);
    if (cached && cached.xpub === wallet.accountXpub && wallet.type !== 'secure') return new SigningAccount(cached.chains);
    const opened = await openSeed(this.services, wallet, walletPassword);
    const account = accountNode((JSON.parse(opened) as { mnemonic: string }).mnemonic, wallet.derivationPath);
    const chains = new Map<number, HD>([0, 1, IDENTITY_CHAIN].map((c) => [c, account.deriveChild(c)]));
    if (wallet.type !== 'secure') this.accounts.set(wallet.id, { xpub: wallet.accountXpub, chains });
    return new SigningAccount(chains);
  }

  forget(walletRow: number): void {
    this.accounts.delete(walletRow);
  }
}

export class SigningAccount {
  constructor(private readonly chains: Map<number, HD>) {}

  key(chain: number, idx: number): PrivateKey {
    return this.chains.get(chain)!.deriveChild(idx).privKey;
  }

  identityKey(): PrivateKey {
    return this.key(IDENTITY_CHAIN, 0);
  }
}
