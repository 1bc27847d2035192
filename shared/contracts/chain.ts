import { z } from 'zod';
import { satoshisSchema } from '../amount-schema.js';
import { byName, defineOperation } from '../operation.js';
import { optionalText, walletId, withWalletId } from '../wallet-schemas.js';
import { ALL_ROLES, TREASURY } from './access.js';
import { rateOutput } from './rates.js';

export const CHAIN_OPERATIONS = byName(
  defineOperation({
    name: 'networkStatus',
    input: z.object({}),
    output: z.object({
      network: z.string(),
      provider: z.string(),
      tip: z.object({ height: z.number().int(), hash: z.string() }).nullable(),
      mempoolSize: z.number().int().nullable(),
      feePolicy: z.object({ satoshis: z.number(), bytes: z.number(), dustLimit: z.number() }).nullable(),
      faucet: z.boolean(),
      rates: rateOutput.nullable(),
      syncError: z.string().nullable(),
      /** A scan of the wallets against the chain is running now. */
      syncing: z.boolean(),
      error: z.string().nullable(),
    }),
    access: ALL_ROLES,
    summary: 'Which network, its tip, mempool (local), fee policy and the last rate update.',
    msg: 'Network status fetched successfully.',
    rest: [{ method: 'GET', path: '/v1/network' }],
  }),
  defineOperation({
    name: 'faucet',
    input: withWalletId(
      z.object({
        address: optionalText(64),
        walletId,
        satoshis: satoshisSchema({ min: 1 }),
      }),
    ),
    output: z.object({ txid: z.string(), address: z.string(), satoshis: z.number().int() }),
    access: TREASURY,
    summary: "A development chain only: sends test coins to an address, or to a wallet's next address.",
    msg: 'Test coins sent.',
    rest: [{ method: 'POST', path: '/chain/faucet', wallet: true, body: true }],
  }),
  defineOperation({
    name: 'mineBlock',
    input: z.object({
      blocks: z.coerce
        .number({ error: 'must be a number' })
        .int()
        .min(1, { error: 'must be at least 1' })
        .max(100, { error: 'must be 100 at most' })
        .default(1),
    }),
    output: z.object({ height: z.number().int(), hash: z.string(), blocks: z.number().int(), txCount: z.number().int() }),
    access: TREASURY,
    summary: 'A development chain only: mines the mempool into new blocks now.',
    msg: 'Block mined.',
    rest: [{ method: 'POST', path: '/chain/mine', body: true }],
  }),
);
