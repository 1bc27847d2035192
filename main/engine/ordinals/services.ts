import type { Repos } from '../context.js';
import type { PaymentServices } from '../payments/services.js';
import type { OrdinalBooks } from './books.js';
import type { OrdinalsIndex } from './ordinals-index.js';

/** What the 1Sat Ordinals operations need besides payments: their books, the ordinals index, and the tables. */
export interface OrdinalServices extends PaymentServices {
  repos: Pick<Repos, 'users' | 'organisation' | 'wallets' | 'addresses' | 'walletUtxos' | 'walletTxs' | 'payments' | 'rates' | 'ordinals'>;
  /** Keystead's own index on the embedded chain, the configured 1Sat indexer on the network. */
  ordinalsIndex: OrdinalsIndex;
  ordinalBooks: OrdinalBooks;
}
