import { z } from 'zod';
import { byName, defineOperation } from '../operation.js';
import { TREASURY } from './access.js';
import { originator } from './apps.js';

/**
 * What BRC-100 apps have done with the organisation's wallets: the actions they created or internalized
 * (transactions, with the wallet's net change in satoshis) and the outputs they keep in baskets (BRC-46),
 * which Keystead's own payments never spend.
 */
export const APP_ACTION_STATUSES = ['unsigned', 'nosend', 'unprocessed', 'sending', 'unproven', 'completed', 'failed', 'aborted'] as const;

export const appActionOutput = z.object({
  /** Null until the action is signed. */
  txid: z.string().nullable(),
  originator: z.string(),
  walletId: z.string(),
  status: z.enum(APP_ACTION_STATUSES),
  /** The wallet's net change, in satoshis: negative when the action paid. */
  satoshis: z.number().int(),
  isOutgoing: z.boolean(),
  description: z.string(),
  labels: z.array(z.string()),
  createdAt: z.string(),
});

export const appBasketOutput = z.object({
  originator: z.string(),
  walletId: z.string(),
  basket: z.string(),
  /** Outputs in the basket that are not spent or relinquished, and their satoshis. */
  outputs: z.number().int(),
  satoshis: z.number().int(),
});

export const APP_ACTIVITY_OPERATIONS = byName(
  defineOperation({
    name: 'listAppActivity',
    input: z.object({
      originator: originator.optional(),
      limit: z.coerce.number({ error: 'must be a number' }).int().min(1).max(200).default(50),
      offset: z.coerce.number({ error: 'must be a number' }).int().min(0).default(0),
    }),
    output: z.object({
      totalActions: z.number().int(),
      actions: z.array(appActionOutput),
      baskets: z.array(appBasketOutput),
    }),
    access: TREASURY,
    enterprise: true,
    summary:
      "What BRC-100 apps have done: their actions (newest first, with the wallet's net change) and the outputs they keep in baskets, for one app or all.",
    msg: 'App activity fetched successfully.',
    rest: [{ method: 'GET', path: '/api/v1/apps/activity', query: true }],
  }),
);
