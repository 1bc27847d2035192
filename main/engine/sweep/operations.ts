import { SWEEP_OPERATIONS } from '../../../shared/contracts/sweep.js';
import { implement } from '../operation.js';
import { drop } from './drop.js';
import type { SweepServices } from './services.js';

export const SWEEP_IMPLEMENTATIONS = implement<SweepServices>()(SWEEP_OPERATIONS, {
  // The audit names the key's address (public), never the key.
  drop: { run: drop, target: (_i, o) => (o ? `${o.address} → ${o.walletID}` : null) },
});
