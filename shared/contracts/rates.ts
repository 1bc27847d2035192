import { z } from 'zod';
import { positiveDecimalNumber, satoshisSchema } from '../amount-schema.js';
import { byName, defineOperation } from '../operation.js';
import { ALL_ROLES, TREASURY } from './access.js';

export const rateOutput = z.object({
  currency: z.string(),
  rate: z.number().nullable(),
  source: z.string(),
  updatedAt: z.string().nullable(),
});

export const RATE_OPERATIONS = byName(
  defineOperation({
    name: 'listRates',
    input: z.object({}),
    output: z.object({ base: z.literal('BSV'), rates: z.array(rateOutput) }),
    access: ALL_ROLES,
    summary: "The exchange-rate table (price of 1 BSV), with each rate's source and time.",
    msg: 'Exchange rates fetched successfully.',
    rest: [{ method: 'GET', path: '/v1/rates' }],
  }),
  defineOperation({
    name: 'setRate',
    input: z.object({
      currency: z
        .string({ error: 'must be a string' })
        .trim()
        .toUpperCase()
        .regex(/^[A-Z]{3,10}$/, { error: 'must be a currency code like EUR' }),
      rate: z.union([positiveDecimalNumber, z.null()]),
    }),
    output: rateOutput,
    access: TREASURY,
    summary: 'Sets (or with rate null removes) a rate in the table. On the network USD comes from the provider.',
    msg: 'Exchange rate saved.',
    rest: [{ method: 'POST', path: '/v1/rates', body: true }],
    audit: true,
  }),
  defineOperation({
    name: 'convertAmount',
    input: z.object({
      satoshis: satoshisSchema({ min: 0, minMessage: 'must not be negative' }),
      currency: z.string({ error: 'must be a string' }).trim().min(1, { error: 'is required' }).max(10, { error: 'is too long' }),
    }),
    output: z.object({
      satoshis: z.number().int(),
      currency: z.string(),
      amount: z.number(),
      rate: z.number(),
      source: z.string(),
      updatedAt: z.string().nullable(),
    }),
    access: ALL_ROLES,
    summary: 'Converts satoshis into a currency of the rate table.',
    msg: 'Amount converted.',
    rest: [{ method: 'GET', path: '/v1/convert', query: true }],
  }),
);
