import type { CoreServices } from '../context.js';
import type { AddressBook } from '../wallets/address-book.js';

/** What keeping the books needs (the chain provider is given to WalletSync itself). */
export interface SyncServices extends Pick<CoreServices, 'db' | 'repos' | 'now'> {
  addressBook: AddressBook;
}
