import type { ChainProvider } from '../../chain/types.js';
import type { CoreServices, Repos } from '../context.js';

/** What the rate table needs: its table, and the provider's USD rate on the network. */
export interface RateServices extends CoreServices {
  repos: Pick<Repos, 'rates'>;
  chain: ChainProvider;
}

/**
 * What the rate operations need besides: the payment policy and apps' spending authorisations, read only to
 * know which currencies measure a limit (an admin alone sets their rates).
 */
export interface RateOperationServices extends RateServices {
  repos: RateServices['repos'] & Pick<Repos, 'policies' | 'appPermissions'>;
}
