import type { ChainProvider } from '../../chain/types.js';
import type { CoreServices } from '../context.js';

/** What the rate table needs: the provider's USD rate on the network. */
export interface RateServices extends CoreServices {
  chain: ChainProvider;
}
