import { z } from 'zod';
import { satoshisSchema } from '../amount-schema.js';
import { byName, defineOperation } from '../operation.js';
import { walletId, walletPassword, withWalletId } from '../wallet-schemas.js';
import { ALL_ROLES, WALLET_USERS } from './access.js';

/** The largest file `upload` writes on chain (bytes), and the largest payload `post` writes (bytes, all notes together). */
export const MAX_UPLOAD_BYTES = 1_000_000;
export const MAX_POST_BYTES = 100_000;
/** Transactions `inspect` decodes in one call. */
export const MAX_INSPECT_TXS = 20;

const txid = z
  .string({ error: 'must be a transaction id (64 hex digits)' })
  .trim()
  .toLowerCase()
  .regex(/^[0-9a-f]{64}$/, { error: 'must be a transaction id (64 hex digits)' });

const rawHex = z
  .string({ error: 'must be a raw transaction in hex' })
  .trim()
  .toLowerCase()
  .min(20, { error: 'is too short to be a transaction' })
  .max(4_000_000, { error: 'is too long (2 MB of transaction at most)' })
  .regex(/^([0-9a-f]{2})+$/, { error: 'must be a raw transaction in hex' });

/** A token an output carries (or an input spends), as the templates recognise it and the books know it. */
export const tokenInfo = z.object({
  protocol: z.string(),
  tokenId: z.string(),
  symbol: z.string(),
  /** The owner's address. */
  address: z.string(),
  /** Tokens this output holds, when the token is on the books (an NFT output holds 1); null otherwise. */
  amount: z.number().int().nullable(),
  /** Traced back to its issue by this organisation's books (valid), not a real token (forged), or not known here. */
  verified: z.enum(['valid', 'forged', 'unchecked', 'unknown']),
  name: z.string().nullable(),
});

const decodedOutput = z.object({
  vout: z.number().int(),
  satoshis: z.number().int(),
  script: z.string(),
  /** p2pkh, data (OP_RETURN), token (a recognised token output) or script. */
  kind: z.enum(['p2pkh', 'data', 'token', 'script']),
  address: z.string().nullable(),
  token: tokenInfo.nullable(),
  /** A data output's pushes after OP_RETURN, hex; with `text` when each is printable UTF-8. */
  data: z.array(z.string()).nullable(),
  text: z.array(z.string()).nullable(),
});

export const decodedTransaction = z.object({
  txid: z.string(),
  size: z.number().int(),
  version: z.number().int(),
  lockTime: z.number().int(),
  inputs: z.array(
    z.object({
      txid: z.string(),
      vout: z.number().int(),
      sequence: z.number().int(),
      /** The output it spends, when the books or the chain have it (else null). */
      previous: decodedOutput.omit({ vout: true }).nullable(),
    }),
  ),
  outputs: z.array(decodedOutput),
  /** Satoshis in (when every previous output is known) and out, and the fee they imply. */
  totalIn: z.number().int().nullable(),
  totalOut: z.number().int(),
  fee: z.number().int().nullable(),
});

/** The public service's swap-offer summary (`offerDetails`), as far as a transaction shows it. */
const offerDetail = z.object({
  address: z.string().nullable(),
  protocol: z.string(),
  amount: z.number(),
  verified: z.boolean(),
  spent: z.boolean().nullable(),
  tokenId: z.string().nullable(),
  tokenSymbol: z.string().nullable(),
  name: z.string().nullable(),
  wantedProtocol: z.string().nullable(),
  wantedAmount: z.number().nullable(),
});

const writeOutput = z.object({
  txid: z.string(),
  txIds: z.array(z.string()),
  fee: z.number().int(),
  feePaidBy: z.enum(['wallet', 'feeManager']),
  walletID: z.string(),
  state: z.enum(['pending', 'confirmed', 'failed']),
  /** The data output's index in the transaction, and its size in bytes. */
  vout: z.number().int(),
  bytes: z.number().int(),
});

const metricsPeriod = z.object({
  /** ISO date the period starts (UTC). */
  start: z.string(),
  received: z.object({ count: z.number().int(), satoshis: z.number().int() }),
  sent: z.object({ count: z.number().int(), satoshis: z.number().int() }),
  /** Fees this wallet paid in the period. */
  fees: z.number().int(),
  /** Net change of the balance in the period, satoshis. */
  net: z.number().int(),
});

const notes = z
  .array(z.unknown(), { error: 'must be a list' })
  .min(1, { error: 'must not be empty' })
  .max(100, { error: 'has too many notes' });

export const UTILITY_OPERATIONS = byName(
  defineOperation({
    name: 'currencyConversion',
    input: z.object({
      satoshis: satoshisSchema({ min: 0, minMessage: 'must not be negative' }),
      currency: z.preprocess(
        (v) => (v === '' || v === undefined ? 'USD' : v),
        z.string({ error: 'must be a string' }).trim().max(10, { error: 'is too long' }),
      ),
    }),
    output: z.object({
      /** The public service's fields: the currency and the value in it (unrounded). */
      currency: z.string(),
      balance: z.number(),
      satoshis: z.number().int(),
      /** Rounded to cents, the rate used, and where it came from. */
      amount: z.number(),
      rate: z.number(),
      source: z.string(),
      updatedAt: z.string().nullable(),
    }),
    access: ALL_ROLES,
    summary: 'Converts satoshis into a currency of the rate table (headers `satoshis`, `currency`), as the public service does.',
    msg: 'Operation completed successfully',
    rest: [{ method: 'GET', path: '/v1/currencyConversion', headers: ['satoshis', 'currency'] }],
  }),
  defineOperation({
    name: 'rawtx',
    input: z.object({
      txid: txid.optional(),
      /** The public service's other use of the route (sign a payment without sending it): refused here with the reason. */
      dataArray: z.array(z.unknown()).optional(),
    }),
    output: z.object({ txid: z.string(), rawtx: z.string(), size: z.number().int() }),
    access: ALL_ROLES,
    summary: "A transaction's raw hex by txid (header, query or body `txid`), from this organisation's records or the chain.",
    msg: 'Operation completed successfully',
    rest: [
      { method: 'POST', path: '/v1/rawtx', body: true, headers: ['txid'] },
      { method: 'GET', path: '/v1/rawtx', headers: ['txid'] },
    ],
  }),
  defineOperation({
    name: 'inspect',
    input: z.object({
      /** The SDK's shape: `{dataArray: [{swapHex}]}`. */
      dataArray: z
        .array(z.object({ swapHex: rawHex }), { error: 'must be a list of {swapHex}' })
        .min(1, { error: 'must not be empty' })
        .max(MAX_INSPECT_TXS, { error: `has too many transactions (${MAX_INSPECT_TXS} at most)` })
        .optional(),
      /** Keystead's: one raw transaction, or a txid to fetch from the chain. */
      rawtx: rawHex.optional(),
      txid: txid.optional(),
    }),
    output: z.object({ transactions: z.array(decodedTransaction), offerDetails: z.array(offerDetail) }),
    access: ALL_ROLES,
    summary:
      'Decodes raw transactions (`dataArray[].swapHex`, `rawtx`, or a `txid`): inputs with the outputs they spend when known, outputs with addresses, amounts and the tokens they carry.',
    msg: 'Operation completed successfully',
    rest: [{ method: 'POST', path: '/v1/inspect', body: true }],
  }),
  defineOperation({
    name: 'walletMetrics',
    input: withWalletId(
      z.object({
        walletId,
        period: z.preprocess(
          (v) => (typeof v === 'string' ? v.trim().toLowerCase() || undefined : v),
          z.enum(['day', 'week', 'month'], { error: 'must be day, week or month' }).default('day'),
        ),
        periods: z.coerce.number({ error: 'must be a number' }).int().min(1).max(366, { error: 'must be 366 at most' }).default(30),
      }),
    ),
    output: z.object({
      walletID: z.string(),
      /** The public service's: the balance and the wallet's unspent outputs. */
      data: z.object({
        balance: z.number().int(),
        userUtxos: z.array(
          z.object({
            walletId: z.string(),
            script: z.string(),
            tx_pos: z.number().int(),
            address: z.string().nullable(),
            path: z.string().nullable(),
            tx_hash: z.string(),
            value: z.number().int(),
            height: z.number().int().nullable(),
          }),
        ),
      }),
      /** Counts and volumes per period (UTC), newest first, from the books (failed transactions left out). */
      period: z.enum(['day', 'week', 'month']),
      periods: z.array(metricsPeriod),
      totals: metricsPeriod.omit({ start: true }).extend({ transactions: z.number().int() }),
    }),
    access: ALL_ROLES,
    summary: "A wallet's metrics: its balance and unspent outputs, and counts and volumes received and sent per day, week or month.",
    msg: 'Operation completed successfully',
    rest: [{ method: 'GET', path: '/v1/metrics', wallet: true, headers: ['period', 'periods'] }],
  }),
  defineOperation({
    name: 'post',
    input: withWalletId(
      z.object({
        walletId,
        walletPassword,
        /** The SDK's shape: `{dataArray: [{notes: [...]}]}`; each item becomes one OP_FALSE OP_RETURN output, each note one push. */
        dataArray: z.array(z.object({ notes }), { error: 'must be a list of {notes}' }).min(1).max(20).optional(),
        /** Keystead's: one payload, text or any JSON value. */
        payload: z.unknown().optional(),
        memo: z.string().max(500).nullish(),
      }),
    ),
    output: writeOutput,
    access: WALLET_USERS,
    summary: `Writes text or JSON on chain from a wallet, in OP_FALSE OP_RETURN outputs (${MAX_POST_BYTES} bytes at most); fees as for any payment.`,
    msg: 'Data posted successfully',
    rest: [{ method: 'POST', path: '/v1/post', wallet: true, body: true, headers: ['walletPassword'] }],
    audit: true,
  }),
  defineOperation({
    name: 'upload',
    input: withWalletId(
      z.object({
        walletId,
        walletPassword,
        /** The SDK's: a `data:` URL, or an http(s) URL of a public host, fetched once. */
        fileUrl: z.string().trim().max(3_000_000, { error: 'is too long' }).nullish(),
        fileName: z.string().trim().max(200, { error: 'is too long' }).nullish(),
        /** Keystead's: the file itself, base64, with its media type. */
        file: z
          .string()
          .trim()
          .max(Math.ceil((MAX_UPLOAD_BYTES * 4) / 3) + 8, { error: `is too large (${MAX_UPLOAD_BYTES} bytes at most)` })
          .regex(/^[A-Za-z0-9+/=\s]*$/, { error: 'must be base64' })
          .optional(),
        contentType: z
          .string()
          .trim()
          .toLowerCase()
          .regex(/^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*(;\s*charset=[a-z0-9_-]+)?$/, {
            error: 'must be a media type like image/png',
          })
          .optional(),
        memo: z.string().max(500).nullish(),
      }),
    ),
    output: writeOutput.extend({ uri: z.string(), contentType: z.string(), fileName: z.string().nullable() }),
    access: WALLET_USERS,
    summary: `Writes a file on chain from a wallet in the B:// layout (data, media type, encoding, file name; ${MAX_UPLOAD_BYTES} bytes at most); fees as for any payment.`,
    msg: 'File uploaded successfully',
    rest: [{ method: 'POST', path: '/v1/upload', wallet: true, body: true, headers: ['walletPassword'], bodyLimit: 3 * 1024 * 1024 }],
    audit: true,
  }),
);
