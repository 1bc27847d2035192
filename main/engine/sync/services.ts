import type { CoreServices, Repos, TransactionServices } from '../context.js';
import type { AddressBook } from '../wallets/address-book.js';

/** What keeping the books needs (the chain provider is given to WalletSync itself). */
export interface SyncServices extends Pick<CoreServices, 'now' | 'logger'>, TransactionServices {
  repos: Pick<
    Repos,
    'wallets' | 'addresses' | 'walletUtxos' | 'walletTxs' | 'payments' | 'appOutputs' | 'tokens' | 'ordinals' | 'provenBlocks' | 'invoices'
  >;
  addressBook: AddressBook;
}
