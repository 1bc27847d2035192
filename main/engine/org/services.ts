import type { CoreServices, Repos } from '../context.js';

/** What the organisation's status needs: whether anyone has signed up, and every wallet's balance. */
export interface OrgServices extends CoreServices {
  repos: Pick<Repos, 'users' | 'wallets' | 'walletUtxos'>;
}
