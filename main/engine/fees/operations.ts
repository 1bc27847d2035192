import { FEE_OPERATIONS } from '../../../shared/contracts/fees.js';
import { implement } from '../operation.js';
import type { WalletServices } from '../wallets/services.js';
import { feeManagerAddresses, feeManagerInit, feeManagerMetrics, feeUtxoState } from './fee-manager.js';

export const FEE_IMPLEMENTATIONS = implement<WalletServices>()(FEE_OPERATIONS, {
  feeManagerInit: { run: feeManagerInit, target: (_i, o) => o?.address ?? null },
  feeManagerAddresses: { run: feeManagerAddresses },
  feeManagerMetrics: { run: feeManagerMetrics },
  feeUtxoState: { run: feeUtxoState },
});
