import { z } from 'zod';
import { byName, defineOperation } from '../operation.js';
import { boolish, optionalText } from '../wallet-schemas.js';
import { TREASURY } from './access.js';

/** Below this many spendable satoshis the fee manager warns that it may soon be unable to pay fees. */
export const FEE_MANAGER_LOW_BALANCE = 10_000;

export const feeUtxo = z.object({
  script: z.string(),
  tx_pos: z.number().int(),
  address: z.string().nullable(),
  path: z.string(),
  tx_hash: z.string(),
  value: z.number().int(),
  /** When the wallet booked the output's transaction (ms since 1970); null if it has no history row. */
  createdAt: z.number().nullable(),
  state: z.enum(['available', 'reserved', 'dust', 'spent']),
});

export const FEE_OPERATIONS = byName(
  defineOperation({
    name: 'feeManagerInit',
    input: z.object({ mnemonic: optionalText(1000) }),
    output: z.object({ walletID: z.string(), address: z.string() }),
    access: TREASURY,
    enterprise: true,
    summary: "Creates the organisation's fee wallet, which then pays the network fees of its payments.",
    msg: 'Fee manager init successfully',
    rest: [
      { method: 'GET', path: '/api/v1/initBeta', headers: ['mnemonic'] },
      { method: 'GET', path: '/v1/initBeta', headers: ['mnemonic'], serviceIdFromCredential: true },
    ],
    audit: true,
  }),
  defineOperation({
    name: 'feeManagerAddresses',
    input: z.object({}),
    output: z.object({ addresses: z.array(z.string()) }),
    access: TREASURY,
    enterprise: true,
    summary: "The fee wallet's addresses, to fund it.",
    msg: 'Operation Completed successfully',
    rest: [
      { method: 'GET', path: '/api/v1/feeAddressBeta' },
      { method: 'GET', path: '/v1/feeAddressBeta', serviceIdFromCredential: true },
    ],
  }),
  defineOperation({
    name: 'feeManagerMetrics',
    input: z.object({ includeSpent: boolish }),
    output: z.object({
      totalBalance: z.object({ balance: z.number().int(), dustBalance: z.number().int() }),
      availableUtxos: z.array(feeUtxo),
      lowBalance: z.boolean(),
    }),
    access: TREASURY,
    enterprise: true,
    summary: "Refreshes and returns the fee wallet's balance and outputs with their states.",
    msg: 'Operation successful',
    rest: [
      { method: 'GET', path: '/api/v1/feeMetricsBeta', headers: ['includeSpent'] },
      // The public service's SDK spells it "Metrices".
      { method: 'GET', path: '/v1/feeMetricesBeta', headers: ['includeSpent'], serviceIdFromCredential: true },
      { method: 'GET', path: '/v1/feeMetricsBeta', headers: ['includeSpent'], serviceIdFromCredential: true },
    ],
  }),
  defineOperation({
    name: 'feeUtxoState',
    input: z.object({}),
    output: z.object({
      totalBalance: z.object({ availableBalance: z.number().int(), dustBalance: z.number().int(), failedBalance: z.number().int() }),
      allUtxos: z.object({ availableUtxos: z.array(feeUtxo), dustUtxos: z.array(feeUtxo), failedUtxos: z.array(feeUtxo) }),
    }),
    access: TREASURY,
    enterprise: true,
    summary:
      "The fee wallet's unspent outputs by state, as the public service's feeUtxoState answers: available (reserved ones included), dust, and failed (always empty here: an output of a transaction the chain refused is taken off the books, never left as failed).",
    msg: 'Operation successful',
    rest: [
      { method: 'GET', path: '/api/v1/feeUtxoState' },
      { method: 'GET', path: '/v1/feeUtxoState', serviceIdFromCredential: true },
    ],
  }),
);
