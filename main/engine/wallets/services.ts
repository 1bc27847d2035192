import type { ChainProvider } from '../../chain/types.js';
import type { AuthServices } from '../auth/services.js';
import type { WalletSync } from '../sync/wallet-sync.js';
import type { AddressBook } from './address-book.js';

/** What wallets need: their addresses, the chain to scan an imported seed, and the data dir's sealing key. */
export interface WalletServices extends AuthServices {
  addressBook: AddressBook;
  chain: ChainProvider;
  sync: WalletSync;
  /** The data dir's key for sealing wallet seeds (created on first use, kept in the encrypted database). */
  sealingKey(): Buffer;
}
