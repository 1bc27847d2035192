import type { ChainProvider } from '../../chain/types.js';
import type { WalletRow } from '../../store/repos/wallets.js';
import type { AuthServices } from '../auth/services.js';
import type { CoreServices, Repos, TransactionServices } from '../context.js';
import type { AddressBook } from './address-book.js';

/**
 * What wallets ask of the books: scanning an imported wallet's addresses for what it already holds. Sync
 * implements it; it sits above wallets (it books into their addresses), so wallets declare what they ask.
 */
export interface WalletScanner {
  scanWallet(wallet: WalletRow, gap?: number): Promise<void>;
  /** The last scan failure, shown in the network status (a background scan that fails records it here). */
  lastError: string | null;
}

/**
 * What wallets need: their rows, owners and members, balances, addresses, the chain to scan an imported
 * seed, the password throttle and the data dir's sealing key.
 */
export interface WalletServices extends CoreServices, TransactionServices, Pick<AuthServices, 'throttle'> {
  repos: Pick<Repos, 'users' | 'organisation' | 'wallets' | 'walletUtxos'>;
  addressBook: AddressBook;
  chain: ChainProvider;
  sync: WalletScanner;
  /** The data dir's key for sealing wallet seeds (created on first use, kept in the encrypted database). */
  sealingKey(): Buffer;
}

/**
 * What the wallet operations need besides: deleting a wallet asks whether a payment not yet settled or an
 * open invoice would still land on its addresses; showing a recovery phrase, whether a payment policy is in force.
 */
export interface WalletOperationServices extends WalletServices {
  repos: WalletServices['repos'] & Pick<Repos, 'payments' | 'addresses' | 'invoices' | 'policies'>;
}
