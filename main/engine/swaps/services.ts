import type { Repos } from '../context.js';
import type { TokenServices } from '../tokens/services.js';

/** What swaps need: the token services, and the offers the organisation's wallets made (migration 25). */
export interface SwapServices extends TokenServices {
  repos: TokenServices['repos'] & Pick<Repos, 'swapOffers'>;
}
