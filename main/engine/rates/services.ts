import type { ChainProvider } from '../../chain/types.js';
import type { CoreServices, Repos } from '../context.js';

/** What the rate table needs: its table, and the provider's USD rate on the network. */
export interface RateServices extends CoreServices {
  repos: Pick<Repos, 'rates'>;
  chain: ChainProvider;
}
