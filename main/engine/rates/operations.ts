import { RATE_OPERATIONS } from '../../../shared/contracts/rates.js';
import { implement } from '../operation.js';
import type { RateOperationServices } from './services.js';
import { convertAmount, listRates, setRate } from './rates.js';

export const RATE_IMPLEMENTATIONS = implement<RateOperationServices>()(RATE_OPERATIONS, {
  listRates: { run: listRates },
  setRate: { run: setRate, target: (i) => i.currency },
  convertAmount: { run: convertAmount },
});
