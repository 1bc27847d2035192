import { HD, type PublicKey } from '@bsv/sdk';
import type { CoreServices } from '../context.js';
import type { AddressRow } from '../../store/repos/addresses.js';
import type { WalletRow } from '../../store/repos/wallets.js';

/** How many unused receive addresses each wallet keeps derived (BIP44's gap limit). */
export const GAP_LIMIT = 20;

/**
 * Derives and remembers wallet addresses from the account's extended public key: no secret is needed.
 * The two chain nodes (`<account>/0` and `/1`) are cached per wallet, so each new address costs one
 * child derivation.
 */
export class AddressBook {
  private readonly chains = new Map<number, { xpub: string; nodes: [HD, HD] }>();
  /**
   * Where a wallet whose keys are open (in the key ring) gets an address's public key: derived from the
   * private side, so the key that will later sign for the address comes out of the same multiplication.
   * Same key as the public derivation (BIP32, non-hardened); null when the wallet's keys are not open.
   */
  openKeys: ((wallet: Pick<WalletRow, 'id' | 'accountXpub'>, chain: 0 | 1, idx: number) => PublicKey | null) | null = null;

  constructor(private readonly services: Pick<CoreServices, 'repos' | 'now'>) {}

  private chainNode(wallet: WalletRow, chain: 0 | 1): HD {
    let entry = this.chains.get(wallet.id);
    if (!entry || entry.xpub !== wallet.accountXpub) {
      const account = HD.fromString(wallet.accountXpub);
      entry = { xpub: wallet.accountXpub, nodes: [account.deriveChild(0), account.deriveChild(1)] };
      this.chains.set(wallet.id, entry);
    }
    return entry.nodes[chain];
  }

  /** Derives (and stores) addresses `from` … `to - 1` of a chain. */
  derive(wallet: WalletRow, chain: 0 | 1, from: number, to: number): { chain: 0 | 1; idx: number; address: string }[] {
    const node = this.chainNode(wallet, chain);
    const rows = [];
    for (let idx = from; idx < to; idx++) rows.push({ chain, idx, address: (this.openKeys?.(wallet, chain, idx) ?? node.deriveChild(idx).pubKey).toAddress() });
    this.services.repos.addresses.insertMany(wallet.id, rows, this.services.now());
    return rows;
  }

  /** Makes sure `GAP_LIMIT` unused addresses follow the highest used one on the chain. */
  ensureGap(wallet: WalletRow, chain: 0 | 1, gap = GAP_LIMIT): void {
    const { addresses } = this.services.repos;
    const want = addresses.highestUsed(wallet.id, chain) + 1 + gap;
    const have = addresses.count(wallet.id, chain);
    if (have < want) this.derive(wallet, chain, have, want);
  }

  /** The wallet's currently available receive addresses, lowest index first. */
  available(wallet: WalletRow, limit = GAP_LIMIT): AddressRow[] {
    this.ensureGap(wallet, 0);
    return this.services.repos.addresses.unused(wallet.id, 0, limit);
  }

  forget(walletRow: number): void {
    this.chains.delete(walletRow);
  }
}
