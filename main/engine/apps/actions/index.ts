import type { MethodHandler } from '../call.js';
import type { WalletMethod } from '../methods.js';
import { createAction } from './create.js';
import { abortAction, signAction } from './sign.js';

/** The BRC-100 methods of this group that Keystead serves, by name (brc100.ts dispatches to them). */
export const actionsMethods: Partial<Record<WalletMethod, MethodHandler>> = {
  createAction,
  signAction,
  abortAction,
};
