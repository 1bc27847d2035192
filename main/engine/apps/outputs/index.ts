import type { MethodHandler } from '../call.js';
import type { WalletMethod } from '../methods.js';
import { internalizeAction } from './internalize.js';
import { listActions, listOutputs, relinquishOutput } from './list.js';

/** The BRC-100 methods of this group that Keystead serves, by name (brc100.ts dispatches to them). */
export const outputsMethods: Partial<Record<WalletMethod, MethodHandler>> = {
  listActions,
  internalizeAction,
  listOutputs,
  relinquishOutput,
};
