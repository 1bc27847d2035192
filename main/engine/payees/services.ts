import type { CoreServices, Repos, TransactionServices } from '../context.js';

/** What the payee book needs: its table and the settings table (the cooling-off period), written in transactions. */
export interface PayeeServices extends CoreServices, TransactionServices {
  repos: Pick<Repos, 'payees' | 'settings'>;
}
