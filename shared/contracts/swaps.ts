import { z } from 'zod';
import { decimalAmount, MAX_TOKEN_SUPPLY, tokenCountSchema, wholeNumber } from '../amount-schema.js';
import { byName, defineOperation } from '../operation.js';
import { itemError } from '../token-schemas.js';
import { walletId, withWalletId } from '../wallet-schemas.js';
import { ALL_ROLES, WALLET_USERS } from './access.js';

/**
 * Atomic swaps (issue 30 §2): a holder offers tokens for BSV or for another token. The offer is a partially
 * signed transaction: the maker's token input and, at the same index, the output it asks for, committed by
 * the maker's signature (SIGHASH_SINGLE | ANYONECANPAY | FORKID, or the template's own swap rule). A taker
 * completes it with its own inputs and outputs and broadcasts it; either both sides move or neither does.
 *
 * Shapes are the public service's SDK's (`transaction.v1.offer/swap/exchangeOffer/exchangeSwap`), with
 * Keystead's additions marked. Amounts: BSV as exact decimal text (never a float multiply), tokens whole.
 */

const blank = (v: unknown) => (v === '' || v === null ? undefined : v);
const serialNumber = wholeNumber({ min: 1, max: MAX_TOKEN_SUPPLY, minMessage: 'must be a positive serial number' });
const hexTx = z
  .string({ error: 'must be a raw transaction in hex' })
  .trim()
  .toLowerCase()
  .min(20, { error: 'is too short to be a transaction' })
  .max(2_000_000, { error: 'is too long (1 MB of transaction at most)' })
  .regex(/^([0-9a-f]{2})+$/, { error: 'must be a raw transaction in hex' });
const offerIdSchema = z.string({ error: 'is required' }).trim().min(1, { error: 'is required' }).max(100);

/**
 * One offer. `tokenId` (+ `sn` for an NFT serial) names what is offered. What is wanted: `type` 'BSV' and
 * `amount` in BSV (at least 0.00000001), or another token: `wantedTokenId` (+ `wantedSn`) and
 * `wantedAmount` (whole tokens; an NFT serial is 1). Keystead's `tokenAmount`: how many tokens of a
 * fungible token to offer (default: one whole token output of the wallet's, the largest).
 */
export const offerItem = z.object({
  tokenId: z.string({ error: 'is required' }).trim().min(1, { error: 'is required' }).max(200),
  sn: z.preprocess(blank, serialNumber.optional()),
  tokenAmount: z.preprocess(blank, tokenCountSchema({ minMessage: 'must be a positive whole number of tokens' }).optional()),
  /** 'BSV' (or empty: BSV) for token-for-BSV; anything else with wantedTokenId is token-for-token. */
  type: z.preprocess(blank, z.string().trim().max(40).optional()),
  /** BSV wanted (token for BSV). */
  amount: z.preprocess(blank, decimalAmount.optional()),
  wantedTokenId: z.preprocess(blank, z.string().trim().min(1).max(200).optional()),
  wantedSn: z.preprocess(blank, serialNumber.optional()),
  wantedAmount: z.preprocess(blank, tokenCountSchema({ minMessage: 'must be a positive whole number of tokens' }).optional()),
});

/** exchangeOffer's item: an offer Keystead keeps under an id; `payment` (at most 2): further payments the taker makes. */
export const exchangeOfferItem = offerItem.extend({
  payment: z
    .array(z.object({ amount: decimalAmount, to: z.string().trim().min(1).max(200) }), { error: 'must be a list of {amount, to}' })
    .max(2, { error: 'takes 2 payments at most' })
    .optional(),
});

/** What an offer gives (the maker's token output). */
export const offeredSide = z.object({
  protocol: z.string(),
  tokenId: z.string(),
  symbol: z.string(),
  /** NFT serial, or null for a fungible token. */
  sn: z.number().int().nullable(),
  /** Tokens offered (1 for an NFT); null when this wallet's books do not know the token (the offer then has a problem). */
  amount: z.number().int().nullable(),
  /** Satoshis the token output holds. */
  satoshis: z.number().int(),
  txid: z.string(),
  vout: z.number().int(),
});

/** What an offer asks for in return: the output at the offered input's index, paying the maker. */
export const wantedSide = z.object({
  type: z.enum(['BSV', 'token']),
  /** BSV wanted as exact decimal text, and its satoshis (BSV); for a token, the output's satoshis. */
  amount: z.string(),
  satoshis: z.number().int(),
  /** The wanted token (type token). */
  protocol: z.string().nullable(),
  tokenId: z.string().nullable(),
  symbol: z.string().nullable(),
  sn: z.number().int().nullable(),
  tokenAmount: z.number().int().nullable(),
  /** Who is paid: the maker's address. */
  to: z.string(),
});

export const offerStatus = z.enum(['open', 'taken', 'withdrawn']);

export const offerResult = z.object({
  offerId: z.string(),
  /** The partially signed transaction (hex) a taker completes with `swap`. */
  swapHex: z.string(),
  offered: offeredSide,
  wanted: wantedSide,
  makerAddress: z.string(),
  walletID: z.string(),
  /** exchangeOffer's further payments, made by the taker when Keystead completes the offer (not committed in the hex). */
  payments: z.array(z.object({ to: z.string(), satoshis: z.number().int() })),
});

export const offerRecord = offerResult.extend({
  status: offerStatus,
  /** Kept by Keystead for exchangeSwap (exchangeOffer), or given out as hex (offer). */
  kept: z.boolean(),
  createdAt: z.string(),
  /** The swap's (or the withdrawal's) transaction. */
  takenTxid: z.string().nullable(),
});

/** A swap completed: both sides moved in one transaction. */
export const swapResult = z.object({
  txid: z.string(),
  offerId: z.string().nullable(),
  offered: offeredSide,
  wanted: wantedSide,
  /** Network fee the taker paid (satoshis). */
  fee: z.number().int(),
});

/** What `inspectOffer` finds in a swapHex: what the taker gets, what it gives, and what can be said of it. */
export const offerInspection = z.object({
  offered: offeredSide.nullable(),
  wanted: wantedSide.nullable(),
  makerAddress: z.string().nullable(),
  /** Network fee the taker would pay to complete it (satoshis, estimated at the current fee rate). */
  fee: z.number().int().nullable(),
  /** Whether it can be taken: the maker's signature checks, the token is valid on the books, the input unspent. */
  valid: z.boolean(),
  /** Why not, in words (empty when valid). */
  problems: z.array(z.string()),
  /** The offered input is spent (taken or withdrawn); null when the chain cannot say. */
  spent: z.boolean().nullable(),
  /** This organisation's own offer id, when it made it. */
  offerId: z.string().nullable(),
  /** Further payments the taker makes on taking it (an offer Keystead keeps may ask for up to two); else empty. */
  payments: z.array(z.object({ to: z.string(), satoshis: z.number().int() })),
});

/** Offers to inspect: given as hex, or one Keystead keeps, by its id (`swapId`), as exchangeSwap takes it. */
const inspectList = z
  .array(z.union([z.object({ swapHex: hexTx }), z.object({ swapId: offerIdSchema })]), {
    error: 'must be a list of {swapHex} or {swapId}',
  })
  .min(1, { error: 'must name at least one offer' })
  .max(20, { error: 'takes 20 offers at most' });

const swapHexList = z
  .array(z.object({ swapHex: hexTx }), { error: 'must be a list of {swapHex}' })
  .min(1, { error: 'must name at least one offer' })
  .max(20, { error: 'takes 20 offers at most' });

export const SWAP_OPERATIONS = byName(
  defineOperation({
    name: 'offer',
    input: withWalletId(
      z.object({
        dataArray: z.array(offerItem, { error: 'must be an array' }).min(1, { error: 'must name at least one offer' }).max(20),
        walletId,
      }),
    ),
    output: z.object({ offers: z.array(offerResult), errors: z.array(itemError) }),
    access: WALLET_USERS,
    summary:
      'Offers tokens (an amount of a fungible token, or an NFT serial) for BSV or another token: a partially signed transaction (hex) committing the offered input and the output asked for; the offered output is reserved until taken or withdrawn.',
    msg: 'Offer created successfully.',
    rest: [{ method: 'POST', path: '/v1/offer', wallet: true, body: true }],
    audit: true,
  }),
  defineOperation({
    name: 'swap',
    input: withWalletId(z.object({ dataArray: swapHexList, walletId })),
    output: z.object({ txIds: z.array(z.string()), swaps: z.array(swapResult), errors: z.array(itemError) }),
    access: WALLET_USERS,
    summary:
      'Takes offers (swapHex): checks each, pays what it asks from the wallet, receives what it offers, and broadcasts; both sides move or neither.',
    msg: 'Swap completed successfully.',
    rest: [{ method: 'POST', path: '/v1/swap', wallet: true, body: true }],
    audit: true,
  }),
  defineOperation({
    name: 'exchangeOffer',
    input: withWalletId(
      z.object({
        dataArray: z.array(exchangeOfferItem, { error: 'must be an array' }).min(1, { error: 'must name at least one offer' }).max(20),
        walletId,
      }),
    ),
    output: z.object({ offers: z.array(offerResult), errors: z.array(itemError) }),
    access: WALLET_USERS,
    summary:
      'Makes offers Keystead keeps under an id (`swapId`), for another (or the same) wallet of the organisation to take with exchangeSwap; `payment` adds up to two payments the taker makes.',
    msg: 'Offer created successfully.',
    rest: [{ method: 'POST', path: '/v1/exchangeOffer', wallet: true, body: true }],
    audit: true,
  }),
  defineOperation({
    name: 'exchangeSwap',
    input: withWalletId(
      z.object({
        dataArray: z
          .array(z.object({ swapId: offerIdSchema }), { error: 'must be a list of {swapId}' })
          .min(1, { error: 'must name at least one offer' })
          .max(20),
        walletId,
      }),
    ),
    output: z.object({ txIds: z.array(z.string()), swaps: z.array(swapResult), errors: z.array(itemError) }),
    access: WALLET_USERS,
    summary: 'Takes offers Keystead keeps, by id (`swapId`), from the calling wallet.',
    msg: 'Swap completed successfully.',
    rest: [{ method: 'POST', path: '/v1/exchangeSwap', wallet: true, body: true }],
    audit: true,
  }),
  defineOperation({
    name: 'listOffers',
    input: withWalletId(z.object({ walletId, status: z.preprocess(blank, offerStatus.optional()) })),
    output: z.object({ offers: z.array(offerRecord) }),
    access: ALL_ROLES,
    summary: "A wallet's offers (header `walletID`; optional `status`: open, taken or withdrawn), newest first.",
    msg: 'Offers fetched successfully.',
    rest: [{ method: 'GET', path: '/v1/offers', wallet: true, headers: ['status'] }],
  }),
  defineOperation({
    name: 'inspectOffer',
    input: z.object({ dataArray: inspectList }),
    output: z.object({ offers: z.array(offerInspection) }),
    access: ALL_ROLES,
    summary:
      'Checks offers (swapHex, or swapId for one Keystead keeps) as hostile input: what each gives, what it wants and to whom, the further payments and the fee the taker pays, whether the signature and the token check and the input is unspent.',
    msg: 'Offers inspected.',
    rest: [{ method: 'POST', path: '/v1/inspectOffer', body: true }],
  }),
  defineOperation({
    name: 'withdrawOffer',
    input: withWalletId(z.object({ offerId: offerIdSchema, walletId })),
    output: z.object({ offerId: z.string(), txid: z.string(), status: offerStatus }),
    access: WALLET_USERS,
    summary: 'Withdraws an open offer by spending the offered token output back to its maker: the offer hex can never be taken afterwards.',
    msg: 'Offer withdrawn.',
    rest: [
      { method: 'POST', path: '/v1/withdrawOffer', wallet: true, body: true },
      { method: 'DELETE', path: '/v1/offer/:offerId', wallet: true, params: true },
    ],
    audit: true,
  }),
);
