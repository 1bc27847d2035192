import { SWAP_OPERATIONS } from '../../../shared/contracts/swaps.js';
import { implement } from '../operation.js';
import { exchangeOffer, listOffers, offer, withdrawOffer } from './offers.js';
import type { SwapServices } from './services.js';
import { exchangeSwap, inspectOffer, swap } from './take.js';

export const SWAP_IMPLEMENTATIONS = implement<SwapServices>()(SWAP_OPERATIONS, {
  offer: { run: offer, target: (_i, o) => o?.offers.map((x) => x.offerId).join(',') || null },
  exchangeOffer: { run: exchangeOffer, target: (_i, o) => o?.offers.map((x) => x.offerId).join(',') || null },
  swap: { run: swap, target: (_i, o) => o?.txIds.join(',') || null },
  exchangeSwap: { run: exchangeSwap, target: (i) => i.dataArray.map((d) => d.swapId).join(',') },
  listOffers: { run: listOffers },
  inspectOffer: { run: inspectOffer },
  withdrawOffer: { run: withdrawOffer, target: (i) => i.offerId },
});
