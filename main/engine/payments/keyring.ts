import { HD, type PrivateKey, type PublicKey } from '@bsv/sdk';
import type { WalletRow } from '../../store/repos/wallets.js';
import type { WalletServices } from '../wallets/services.js';
import { accountNode } from '../wallets/keys.js';
import { deriveChildKey } from '../wallets/child-key.js';
import { openSeed } from '../wallets/open-seed.js';

/** The paymail identity key hangs off the account at `<account>/2/0`, beside the receive (0) and change (1) chains. */
export const IDENTITY_CHAIN = 2;

export function identityPubKeyHex(wallet: Pick<WalletRow, 'accountXpub'>): string {
  return HD.fromString(wallet.accountXpub).deriveChild(IDENTITY_CHAIN).deriveChild(0).pubKey.toString();
}

/** Child keys kept per open account: enough for a busy wallet's recent coins, bounded for the biggest. */
const KEYS_PER_ACCOUNT = 4096;

interface OpenAccount {
  chains: Map<number, HD>;
  keys: Map<string, PrivateKey>;
}

/**
 * Opens wallet seeds to sign. Account nodes of standard, escrow and shared wallets are kept in memory
 * once opened (never on disk); a secure wallet's is derived for each payment from its password and
 * dropped after.
 */
export class KeyRing {
  private readonly accounts = new Map<number, { xpub: string; account: OpenAccount }>();

  constructor(private readonly services: Pick<WalletServices, 'sealingKey' | 'throttle'>) {}

  async open(wallet: WalletRow, walletPassword?: string): Promise<SigningAccount> {
    const cached = this.accounts.get(wallet.id);
    if (cached && cached.xpub === wallet.accountXpub && wallet.type !== 'secure') return new SigningAccount(cached.account);
    const opened = await openSeed(this.services, wallet, walletPassword);
    const node = accountNode((JSON.parse(opened) as { mnemonic: string }).mnemonic, wallet.derivationPath);
    const account: OpenAccount = { chains: new Map<number, HD>([0, 1, IDENTITY_CHAIN].map((c) => [c, node.deriveChild(c)])), keys: new Map() };
    if (wallet.type !== 'secure') this.accounts.set(wallet.id, { xpub: wallet.accountXpub, account });
    return new SigningAccount(account);
  }

  /** An address key's public key when the wallet's account is open here (its private key is then kept too); else null. */
  publicKeyIfOpen(wallet: Pick<WalletRow, 'id' | 'accountXpub'>, chain: number, idx: number): PublicKey | null {
    const cached = this.accounts.get(wallet.id);
    // The account must be this wallet's (a row id can be reused after a deletion).
    return cached && cached.xpub === wallet.accountXpub ? new SigningAccount(cached.account).key(chain, idx).toPublicKey() : null;
  }

  forget(walletRow: number): void {
    this.accounts.delete(walletRow);
  }
}

export class SigningAccount {
  constructor(private readonly account: OpenAccount) {}

  /** The private key of `<account>/chain/idx`, derived once while the account stays open. */
  key(chain: number, idx: number): PrivateKey {
    const id = `${chain}/${idx}`;
    const { keys } = this.account;
    let k = keys.get(id);
    if (!k) {
      k = deriveChildKey(this.account.chains.get(chain)!, idx);
      if (keys.size >= KEYS_PER_ACCOUNT) keys.delete(keys.keys().next().value!);
      keys.set(id, k);
    }
    return k;
  }

  identityKey(): PrivateKey {
    return this.key(IDENTITY_CHAIN, 0);
  }
}
