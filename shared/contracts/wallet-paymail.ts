import { z } from 'zod';
import { byName, defineOperation } from '../operation.js';
import { boolish, walletId, withWalletId } from '../wallet-schemas.js';
import { ALL_ROLES, WALLET_USERS } from './access.js';

const paymailDetails = z.object({
  walletID: z.string(),
  /** The alias (the public service's name for it). */
  paymailId: z.string(),
  /** alias@domain. */
  paymail: z.string(),
  active: z.boolean(),
});

/** A wallet's paymail as the public service's SDK reads and changes it (GET/PUT /v1/paymail, activate). */
export const WALLET_PAYMAIL_OPERATIONS = byName(
  defineOperation({
    name: 'paymailDetails',
    input: withWalletId(
      z.object({
        walletId,
        paymailId: z.string().trim().max(260).optional().meta({ description: 'An alias or alias@domain; without it, the wallet’s own' }),
      }),
    ),
    output: z.object({ paymailDetails }),
    access: ALL_ROLES,
    summary:
      'The paymail of one of your wallets: by its alias or address in the path (GET /v1/paymail/{paymailId}, as the public service’s SDK asks), or the wallet’s own (`walletID`). Only wallets you own or share are found.',
    msg: 'Paymail details fetched successfully.',
    rest: [
      { method: 'GET', path: '/v1/paymail/:paymailId', params: true, wallet: true },
      { method: 'GET', path: '/v1/paymail', wallet: true },
    ],
  }),
  defineOperation({
    name: 'updatePaymail',
    input: withWalletId(
      z.object({
        walletId,
        newPaymailId: z.string({ error: 'is required' }).trim().min(1, { error: 'is required' }).max(260),
      }),
    ),
    output: z.object({ paymail: z.string(), walletID: z.string(), active: z.boolean() }),
    access: WALLET_USERS,
    summary:
      "Changes a wallet's paymail alias (`newPaymailId`: an alias, or alias@ this Keystead's domain); the old one stops resolving at once. Owner only; a taken alias is 409.",
    msg: 'Paymail updated successfully.',
    rest: [{ method: 'PUT', path: '/v1/paymail', wallet: true, body: true }],
    audit: true,
  }),
  defineOperation({
    name: 'activatePaymail',
    input: withWalletId(z.object({ walletId, activate: boolish, mode: z.string().optional() })),
    output: z.object({ walletID: z.string(), paymail: z.string().nullable(), active: z.boolean() }),
    access: WALLET_USERS,
    summary:
      "Turns a wallet's paymail on or off (`activate` in the body: true or false). Turning on a wallet without an alias gives it a numeric one. The path's last part is not read: the public service's SDK sends `/v1/paymail/undefined`. Owner only.",
    msg: 'Paymail status changed successfully.',
    rest: [{ method: 'POST', path: '/v1/paymail/:mode', wallet: true, body: true, params: true }],
    audit: true,
  }),
);
