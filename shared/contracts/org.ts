import { z } from 'zod';
import { byName, defineOperation } from '../operation.js';
import { TREASURY } from './access.js';

export const appStatusOutput = z.object({ initialised: z.boolean(), version: z.string(), network: z.string() });

export const ORG_OPERATIONS = byName(
  defineOperation({
    name: 'appStatus',
    input: z.object({}),
    output: appStatusOutput,
    access: 'public',
    summary: 'Whether the organisation is set up yet, plus version and network. No credentials.',
    msg: 'Status fetched successfully.',
    rest: [{ method: 'GET', path: '/api/v1/status' }],
  }),
  defineOperation({
    name: 'organisationBalance',
    input: z.object({}),
    output: z.object({
      wallets: z.number().int(),
      /** Satoshis across every wallet of the organisation (every user's), the fee manager apart. */
      confirmed: z.number().int(),
      unconfirmed: z.number().int(),
      /** The fee manager's satoshis, or null when it is not set up. */
      feeManager: z.number().int().nullable(),
    }),
    access: TREASURY,
    summary: "The organisation's total balance across every user's wallets, and the fee manager's.",
    msg: 'Organisation balance fetched successfully.',
    rest: [{ method: 'GET', path: '/v1/organisation/balance' }],
  }),
);
