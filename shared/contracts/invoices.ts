import { z } from 'zod';
import { decimalAmount, satoshisSchema } from '../amount-schema.js';
import { byName, defineOperation } from '../operation.js';
import { optionalText, walletId, walletPassword, withWalletId } from '../wallet-schemas.js';
import { ALL_ROLES, WALLET_USERS } from './access.js';

/**
 * Invoices (payment requests): a wallet asks to be paid an amount, fixed in satoshis when it is made, on a
 * receive address of its own that no other open invoice waits on, so the payment that arrives there is
 * matched to it without doubt. The routes are the public service's (`/v1/invoice`, `/v1/payment-request/…`
 * as its SDK sends them); the read by id needs no credentials, as anyone holding the id is meant to pay.
 */

/** `open` until paid, cancelled or past its expiry (`expired` is decided when it is read). */
export const INVOICE_STATES = ['open', 'paid', 'expired', 'cancelled'] as const;
export const invoiceState = z.enum(INVOICE_STATES);

/** The longest an invoice may stay open: a year. */
export const MAX_INVOICE_MINUTES = 525_600;
/** How long an invoice stays open when the request does not say. */
export const DEFAULT_INVOICE_MINUTES = 1_440;

/** Ids are random (`inv_` and 22 characters), so holding one is what lets a payer read it. */
export const invoiceId = z
  .string({ error: 'is required' })
  .trim()
  .min(1, { error: 'is required' })
  .max(100, { error: 'is too long' })
  .regex(/^[A-Za-z0-9_-]+$/, { error: 'must be an invoice id' });

const minutes = z.preprocess(
  (v) => (typeof v === 'string' && /^[0-9]{1,7}$/.test(v.trim()) ? Number(v.trim()) : v === '' ? undefined : v),
  z
    .number({ error: 'must be a number of minutes' })
    .int({ error: 'must be a whole number of minutes' })
    .min(1, { error: 'must be at least 1 minute' })
    .max(MAX_INVOICE_MINUTES, { error: `must be ${MAX_INVOICE_MINUTES} minutes (a year) at most` })
    .optional(),
);

/** What anyone holding the id sees: the request itself, never the wallet behind it or its balance. */
export const publicInvoice = z.object({
  invoiceId: z.string(),
  state: invoiceState,
  /** The address to pay (the invoice's own receive address). */
  address: z.string(),
  satoshis: z.number().int(),
  /** The same in BSV (the public service's unit). */
  amount: z.number(),
  /** When it was priced in a currency: the amount asked and the rate that fixed `satoshis` at creation. */
  currency: z.object({ code: z.string(), amount: z.string(), rate: z.number() }).nullable(),
  memo: z.string().nullable(),
  description: z.string().nullable(),
  merchantData: z.string().nullable(),
  /** `bitcoin:<address>?sv&amount=<BSV>&label=<memo>`: what a wallet (Keystead's Send, or any BIP-21 reader) pays. */
  uri: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  paidTxid: z.string().nullable(),
  paidAt: z.string().nullable(),
  // The same request in BIP-270's PaymentRequest fields (amounts in satoshis, times in Unix seconds).
  network: z.literal('bitcoin-sv'),
  outputs: z.array(z.object({ amount: z.number().int(), script: z.string() })),
  creationTimestamp: z.number().int(),
  expirationTimestamp: z.number().int(),
});

/** What the organisation's users see of an invoice: also the wallet it pays and who made it. */
export const invoiceOutput = publicInvoice.extend({
  walletID: z.string(),
  walletTitle: z.string(),
  createdBy: z.string(),
});

export const INVOICE_OPERATIONS = byName(
  defineOperation({
    name: 'createInvoice',
    input: withWalletId(
      z.object({
        walletId,
        /**
         * The public service's SDK names the payee by `address`: here an address or paymail of one of the
         * caller's wallets, which the invoice then pays (on a fresh address of that wallet).
         */
        address: optionalText(200),
        /** What `amount` counts: BSV (the default), SAT for satoshis, or a currency of the rate table. */
        type: optionalText(10),
        amount: decimalAmount.optional(),
        satoshis: satoshisSchema({ min: 1 }).optional(),
        currency: optionalText(10),
        memo: optionalText(500),
        description: optionalText(500),
        merchantData: optionalText(2000),
        // The expiry in minutes, under each spelling the public service's SDK has used.
        expirationTimeInMinuts: minutes,
        setExpirationMinutes: minutes,
        expiresInMinutes: minutes,
      }),
    ),
    output: invoiceOutput,
    access: WALLET_USERS,
    summary:
      'Creates an invoice: a payment request for a wallet (satoshis, BSV, or a currency amount at the current rate), on its own receive address, with an id and a payment URI.',
    msg: 'Invoice created successfully.',
    rest: [{ method: 'POST', path: '/v1/invoice', wallet: true, body: true }],
    audit: true,
  }),
  defineOperation({
    name: 'paymentRequest',
    input: z.object({ invoiceId }),
    output: publicInvoice,
    access: 'public',
    summary: 'Reads an invoice by its id, without credentials (rate-limited): amount, address, memo, state, expiry and URI.',
    msg: 'Payment request fetched successfully.',
    rest: [{ method: 'GET', path: '/v1/payment-request/:invoiceId', params: true }],
  }),
  defineOperation({
    name: 'payInvoice',
    input: withWalletId(
      z.object({
        invoiceId,
        walletId,
        walletPassword,
        /** BIP-270's Payment: the payer's own signed transaction; without it, the wallet pays (as pay does). */
        transaction: z
          .string({ error: 'must be a transaction in hex' })
          .trim()
          .toLowerCase()
          .max(2_000_000, { error: 'is too long' })
          .regex(/^([0-9a-f]{2})*$/, { error: 'must be a transaction in hex' })
          .optional()
          .transform((v) => v || undefined),
        memo: optionalText(500),
        refundTo: optionalText(200),
        merchantData: optionalText(2000),
        idempotencyKey: z.string().trim().min(1).max(200).optional(),
      }),
    ),
    output: z.object({
      invoiceId: z.string(),
      /** The invoice's state after this payment. */
      state: invoiceState,
      txid: z.string(),
      /** The paying wallet, its fee and who paid that; null when the payer sent its own transaction. */
      walletID: z.string().nullable(),
      fee: z.number().int().nullable(),
      feePaidBy: z.enum(['wallet', 'feeManager']).nullable(),
      seenByChain: z.boolean(),
      // BIP-270's PaymentACK.
      payment: z.object({
        transaction: z.string().nullable(),
        memo: z.string().nullable(),
        merchantData: z.string().nullable(),
        refundTo: z.string().nullable(),
      }),
      memo: z.string().nullable(),
    }),
    access: WALLET_USERS,
    summary:
      "Pays an invoice: from one of the caller's wallets (as pay does), or by broadcasting the payer's own transaction (BIP-270's `transaction`) once it is seen to pay the invoice in full.",
    msg: 'Invoice paid successfully.',
    rest: [
      {
        method: 'POST',
        path: '/v1/payment-request/pay/:invoiceId',
        params: true,
        wallet: true,
        body: true,
        headers: ['walletPassword'],
        renames: { 'idempotency-key': 'idempotencyKey' },
      },
    ],
    audit: true,
  }),
  defineOperation({
    name: 'listInvoices',
    input: withWalletId(
      z.object({
        walletId,
        state: z.preprocess((v) => (v === '' ? undefined : v), invoiceState.optional()),
        nextPageToken: z.coerce.number({ error: 'must be a number' }).int().min(0, { error: 'must not be negative' }).default(0),
        maxResults: z.coerce
          .number({ error: 'must be a number' })
          .int()
          .min(1, { error: 'must be at least 1' })
          .max(200, { error: 'must be 200 at most' })
          .default(50),
      }),
    ),
    output: z.object({ invoices: z.array(invoiceOutput), meta: z.object({ nextPageToken: z.number().int().nullable() }) }),
    access: ALL_ROLES,
    summary: "Invoices of the wallets the caller may see (an admin: every wallet's), newest first, with their state; by wallet and state.",
    msg: 'Invoices fetched successfully.',
    rest: [{ method: 'GET', path: '/v1/invoices', wallet: true, query: true }],
  }),
  defineOperation({
    name: 'cancelInvoice',
    input: z.object({ invoiceId }),
    output: invoiceOutput,
    access: WALLET_USERS,
    summary: 'Cancels an open invoice (its creator, or an admin); a payment that arrives later is booked but no longer matched to it.',
    msg: 'Invoice cancelled.',
    rest: [{ method: 'DELETE', path: '/v1/invoice/:invoiceId', params: true }],
    audit: true,
  }),
);
