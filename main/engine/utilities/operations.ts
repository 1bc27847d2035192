import { UTILITY_OPERATIONS } from '../../../shared/contracts/utilities.js';
import { implement } from '../operation.js';
import { currencyConversion } from './convert.js';
import { inspect } from './inspect.js';
import { walletMetrics } from './metrics.js';
import { rawtx } from './rawtx.js';
import type { UtilityServices } from './services.js';
import { post, upload } from './write.js';

export const UTILITY_IMPLEMENTATIONS = implement<UtilityServices>()(UTILITY_OPERATIONS, {
  currencyConversion: { run: currencyConversion },
  rawtx: { run: rawtx },
  inspect: { run: inspect },
  walletMetrics: { run: walletMetrics },
  post: { run: post, target: (_i, o) => o?.txid ?? null },
  upload: { run: upload, target: (_i, o) => o?.txid ?? null },
});
