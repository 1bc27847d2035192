import { z } from 'zod';
import { byName, defineOperation } from '../operation.js';
import { satoshisSchema } from '../amount-schema.js';
import { payInput, paymentRequest, quoteInput } from '../payment-schemas.js';
import { walletId, withWalletId } from '../wallet-schemas.js';
import { ALL_ROLES, WALLET_USERS } from './access.js';

/**
 * Where a transaction stands with the chain: `pending` (not in a block yet; `seenByChain` says whether any
 * provider has it), `confirmed` (in a block; see `confirmations`), or `failed` (refused or vanished; its
 * effect on the books was undone and `failureReason` says why).
 */
export const paymentState = z.enum(['pending', 'confirmed', 'failed']);

export const payOutput = z.object({
  txid: z.string(),
  fee: z.number().int(),
  feePaidBy: z.enum(['wallet', 'feeManager']),
  delivered: z.enum(['p2p', 'broadcast']),
  walletID: z.string(),
  state: paymentState,
  /** False while a P2P receiver has the transaction but the chain has not shown it (Keystead broadcasts it itself after the window). */
  seenByChain: z.boolean(),
  /** The txid the P2P receiver answered, when it differs from the transaction's own. */
  peerTxid: z.string().nullable(),
});

/** A payment request priced against a wallet's spendable coins now (nothing is reserved). */
export const quoteOutput = z.object({
  walletID: z.string(),
  walletTitle: z.string(),
  /** Each output, with the address it pays when it is a plain P2PKH output. */
  recipients: z.array(z.object({ address: z.string().nullable(), script: z.string(), satoshis: z.number().int() })),
  /** What the outputs pay, satoshis. */
  amount: z.number().int(),
  /** The network fee, satoshis (0 when the funds do not suffice). */
  fee: z.number().int(),
  feePaidBy: z.enum(['wallet', 'feeManager']),
  /** What leaves the wallet: the amount plus the fee when the wallet pays it. */
  cost: z.number().int(),
  /** The wallet's spendable satoshis now, and after this payment. */
  available: z.number().int(),
  availableAfter: z.number().int(),
  sufficient: z.boolean(),
  /** Why it cannot be paid now, in plain words; null when it can. */
  problem: z.string().nullable(),
  /** The USD rate, to show amounts in money (null when the rate table has none). */
  rate: z.object({ currency: z.string(), rate: z.number() }).nullable(),
  /** Identifies exactly this payment (wallet, outputs, receiver): pay given it as `reviewId` pays this or refuses (409). */
  reviewId: z.string(),
});

export const historyEntry = z.object({
  txid: z.string(),
  state: paymentState,
  seenByChain: z.boolean(),
  failureReason: z.string().nullable(),
  peerTxid: z.string().nullable(),
  direction: z.enum(['in', 'out', 'self']),
  /** Net change of the wallet's balance, satoshis (negative when paying). */
  amount: z.number().int(),
  fee: z.number().int().nullable(),
  /** Who paid the fee: the wallet, or the organisation's fee manager (null for incoming payments). */
  feePaidBy: z.enum(['wallet', 'feeManager']).nullable(),
  counterparty: z.string().nullable(),
  memo: z.string().nullable(),
  time: z.string(),
  height: z.number().int().nullable(),
  confirmations: z.number().int(),
  /**
   * The tokens the transaction moved for this wallet (empty for plain BSV): each token's id, symbol, amount in
   * tokens (NFTs: how many), and direction (`self`: moved between the wallet's own outputs, as a merge does);
   * `proven` false while received outputs are not yet traced back to their issue. `amount` above stays the BSV
   * net change (for a token send, the fee when the wallet paid it).
   */
  tokens: z.array(
    z.object({
      id: z.string(),
      protocol: z.string(),
      symbol: z.string(),
      amount: z.number().int(),
      direction: z.enum(['in', 'out', 'self']),
      proven: z.boolean(),
    }),
  ),
});

/** Only what came in (`credit`), or only what went out (`debit`: payments, and moves between own addresses, which cost a fee). */
const historyType = z.preprocess(
  (t) => (typeof t === 'string' ? t.trim().toLowerCase() : t),
  z.enum(['credit', 'debit', 'all'], { error: 'must be credit, debit or all' }).optional(),
);

/** A history row in the public service's shape: amounts in BSV, `type` credit or debit. */
export const serviceHistoryEntry = z.object({
  txId: z.string(),
  /** Who paid: the counterparty for a credit, this wallet (its paymail, or null) for a debit. */
  from: z.string().nullable(),
  /**
   * Who was paid, each with what they received: BSV (`protocol` BSV, amount in BSV), or tokens (`protocol` the
   * token's, e.g. KST-20, STAS-789, BSV-21; amount in tokens, NFTs: how many; with `tokenId` and `symbol`).
   */
  to: z.array(
    z.object({
      to: z.string().nullable(),
      amount: z.number(),
      protocol: z.string(),
      tokenId: z.string().optional(),
      symbol: z.string().optional(),
    }),
  ),
  timestamp: z.string(),
  /** What the transaction moved, BSV (without sign). */
  totalAmount: z.number(),
  /** The wallet's balance change, BSV (negative for a debit, fee included). */
  balance_change: z.number(),
  type: z.enum(['credit', 'debit']),
  notes: z.string().nullable(),
  /** Fee in BSV when this wallet paid it; null otherwise. */
  fee: z.number().nullable(),
  status: paymentState,
  /** `balance_change` in the asked currency at today's rate (only when `currency` was given). */
  currencyValue: z.object({ currency: z.string(), amount: z.number(), rate: z.number() }).optional(),
});

const txSide = { satoshis: z.number().int().nullable(), address: z.string().nullable(), mine: z.boolean() };
/** One transaction of a wallet's history in full: its row, and its inputs and outputs as the chain has them. */
export const transactionDetail = historyEntry.extend({
  walletID: z.string(),
  /** Null when the transaction itself is not available (the provider is unreachable, or it was never kept). */
  size: z.number().int().nullable(),
  inputs: z.array(z.object({ txid: z.string(), vout: z.number().int(), ...txSide })).nullable(),
  /** `kind`: p2pkh, data (OP_RETURN), token (a recognised token output) or script. `change` for this wallet's change. */
  outputs: z
    .array(z.object({ vout: z.number().int(), kind: z.enum(['p2pkh', 'data', 'token', 'script']), ...txSide, change: z.boolean() }))
    .nullable(),
  unavailable: z.string().nullable(),
});

export const lookupCoin = z.object({
  protocol: z.string(),
  balance: z.number().optional(),
  tokenId: z.string().optional(),
  splittable: z.boolean().optional(),
  name: z.string().optional(),
  address: z.string().optional(),
  satsPerToken: z.number().optional(),
  symbol: z.string().optional(),
  redeemAddr: z.string().optional(),
  image: z.string().optional(),
  amount: z.number().optional(),
  supply: z.number().optional(),
  decimals: z.number().optional(),
  sn: z.array(z.number()).optional(),
  txid: z.string().optional(),
  vout: z.number().int().optional(),
  height: z.number().int().nullable().optional(),
  /**
   * A token entry's outputs trace back to the token's issue (true), or are not traced yet (false: a key outside
   * the organisation whose token's lineage was too long to trace in one call; its `amount` is then in
   * satoshis when the token is not known here). Look-alikes that do not trace back are never listed.
   */
  proven: z.boolean().optional(),
});

const paymentRequestOutput = paymentRequest.extend({ outputs: z.array(z.object({ script: z.string(), satoshis: z.number().int() })) });

export const PAYMENT_OPERATIONS = byName(
  defineOperation({
    name: 'resolveUri',
    input: withWalletId(
      z.object({
        uri: z.string({ error: 'is required' }).trim().min(1, { error: 'is required' }).max(2000, { error: 'is too long' }),
        // Satoshis; as a header it is text, so digits are taken, and nothing else (not "1e2", "0x10", " 7 " or "").
        amount: satoshisSchema({ min: 1 }).optional(),
        walletId,
      }),
    ),
    output: z.object({ data: paymentRequestOutput }),
    access: WALLET_USERS,
    summary: 'Turns a payment URI (payto:, paymail, bitcoin:, address) into a payment request for pay.',
    msg: 'Operation completed successfully',
    rest: [
      { method: 'GET', path: '/v1/URI', wallet: true, headers: ['uri', 'amount'] },
      { method: 'POST', path: '/v1/URI', wallet: true, body: true },
      // The same in lower case, as some of the public service's clients spell it.
      { method: 'GET', path: '/v1/uri', wallet: true, headers: ['uri', 'amount'] },
      { method: 'POST', path: '/v1/uri', wallet: true, body: true },
    ],
  }),
  defineOperation({
    name: 'quotePayment',
    input: withWalletId(quoteInput),
    output: quoteOutput,
    access: WALLET_USERS,
    summary:
      'What a payment request would cost from a wallet, before paying: recipients, fee, who pays it, the balance after, and whether the funds suffice.',
    msg: 'Payment priced.',
    rest: [{ method: 'POST', path: '/v1/pay/quote', wallet: true, body: true }],
  }),
  defineOperation({
    name: 'pay',
    input: withWalletId(payInput),
    output: payOutput,
    access: WALLET_USERS,
    summary: 'Pays a payment request from a wallet: P2P to a paymail peer, or broadcast.',
    msg: 'Transaction sent successfully',
    rest: [
      {
        method: 'POST',
        path: '/v1/pay',
        wallet: true,
        body: true,
        headers: ['walletPassword'],
        renames: { 'idempotency-key': 'idempotencyKey' },
      },
    ],
    audit: true,
  }),
  defineOperation({
    name: 'history',
    input: withWalletId(
      z.object({
        walletId,
        nextPageToken: z.coerce.number({ error: 'must be a number' }).int().min(0, { error: 'must not be negative' }).default(0),
        maxResults: z.coerce
          .number({ error: 'must be a number' })
          .int()
          .min(1, { error: 'must be at least 1' })
          .max(200, { error: 'must be 200 at most' })
          .default(20),
        type: historyType,
        currency: z
          .string()
          .trim()
          .regex(/^[A-Za-z]{3,5}$/, { error: 'must be a currency code such as USD' })
          .optional(),
      }),
    ),
    output: z.object({
      walletID: z.string(),
      /** The public service's shape, which its SDK and scripts read. */
      histories: z.array(serviceHistoryEntry),
      /** Keystead's own, with states, fees and confirmations. */
      history: z.array(historyEntry),
      meta: z.object({ nextPageToken: z.number().int().nullable() }),
    }),
    access: ALL_ROLES,
    summary:
      "A wallet's transactions, newest first, paged: `histories` in the public service's shape (BSV amounts), `history` in Keystead's (satoshis, states, fees). `type` keeps only credits or debits; `currency` adds each amount's value at today's rate.",
    msg: 'History fetched successfully.',
    rest: [
      { method: 'GET', path: '/v1/history', wallet: true, headers: ['nextPageToken', 'maxResults', 'type', 'currency'] },
      { method: 'GET', path: '/v2/history', wallet: true, headers: ['nextPageToken', 'maxResults', 'type', 'currency'] },
    ],
  }),
  defineOperation({
    name: 'transactionDetail',
    input: withWalletId(
      z.object({
        walletId,
        txid: z
          .string({ error: 'is required' })
          .trim()
          .toLowerCase()
          .regex(/^[0-9a-f]{64}$/, { error: 'must be a transaction id (64 hex digits)' }),
      }),
    ),
    output: transactionDetail,
    access: ALL_ROLES,
    summary:
      "One transaction of a wallet's history: its history row, and its inputs and outputs (amounts, addresses, which are the wallet's own).",
    msg: 'Transaction fetched successfully.',
    rest: [{ method: 'GET', path: '/v1/transaction', wallet: true, headers: ['txid'] }],
  }),
);
