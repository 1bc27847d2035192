import { z } from 'zod';
import { byName, defineOperation } from '../operation.js';
import { walletId, withWalletId } from '../wallet-schemas.js';
import { ALL_ROLES, TREASURY, WALLET_USERS } from './access.js';

/**
 * 1Sat Ordinals (issue 30 §3): inscriptions (an `ord` envelope on a 1-satoshi output) and BSV-21 fungible tokens
 * (JSON inscriptions of content type application/bsv-20: deploy+mint, transfer, burn). Token amounts are always
 * decimal strings of unsigned 64-bit integers in the token's smallest unit (never JSON numbers, which lose
 * precision past 2^53); `dec` says where the decimal point goes for display.
 */

/** `<txid>_<vout>`: a token id (its deploy+mint output) or an inscription's outpoint. */
export const OUTPOINT_PATTERN = /^[0-9a-f]{64}_(0|[1-9]\d{0,9})$/;
export const outpointSchema = z
  .string({ error: 'is required' })
  .trim()
  .toLowerCase()
  .regex(OUTPOINT_PATTERN, { error: 'must be an outpoint, <txid>_<vout>' });

const U64_MAX = 2n ** 64n - 1n;
/** A token amount: a whole number of the smallest unit, as decimal text, 1 to 2^64-1. */
export const tokenUnits = z
  .string({ error: 'must be a whole number of token units, as a string' })
  .trim()
  .regex(/^[1-9]\d{0,19}$/, { error: 'must be a positive whole number of token units, as a string (no sign, decimals or exponent)' })
  // Refinements run after a failed regex too: BigInt only of digits.
  .refine((s) => !/^\d+$/.test(s) || BigInt(s) <= U64_MAX, { error: 'must be at most 18446744073709551615' });

/** Whether an output is proven to descend from its token's deploy+mint (valid), proven not to (invalid), or not decided yet. */
export const validity = z.enum(['valid', 'invalid', 'pending']);
export type Bsv21Validity = z.infer<typeof validity>;

/** How the UI may show an inscription's content: images as images, text as text, everything else as a download. */
export const contentKind = z.enum(['image', 'text', 'json', 'other']);

export const inscriptionEntry = z.object({
  outpoint: z.string(),
  txid: z.string(),
  vout: z.number().int(),
  walletId: z.string(),
  address: z.string(),
  /** As inscribed ('' when absent); never trusted to be what the bytes are. */
  contentType: z.string(),
  kind: contentKind,
  /** Content size in bytes. */
  size: z.number().int(),
  /** The BSV-21 operation the inscription states (a token output), or null for other inscriptions. */
  bsv21: z.object({ op: z.enum(['deploy+mint', 'transfer', 'burn']), tokenId: z.string(), amount: z.string(), validity }).nullable(),
  /** Mined (block height) or not yet (null). */
  height: z.number().int().nullable(),
});

export const bsv21Balance = z.object({
  /** The token id, `<txid>_<vout>` of its deploy+mint. */
  id: z.string(),
  sym: z.string().nullable(),
  dec: z.number().int(),
  /** Valid units held (only outputs proven to descend from the deploy+mint), smallest unit, decimal string. */
  amount: z.string(),
  /** Units in outputs not decided yet (not counted in amount). */
  pendingAmount: z.string(),
  /** Units in outputs proven invalid (never counted). */
  invalidAmount: z.string(),
  /** 'pending' while some output is undecided; else 'valid' when some output counts (invalid ones: invalidAmount); else 'invalid'. */
  validity,
  outputs: z.number().int(),
});
export type Bsv21Balance = z.infer<typeof bsv21Balance>;

export const bsv21Details = z.object({
  id: z.string(),
  sym: z.string().nullable(),
  dec: z.number().int(),
  /** The whole supply minted by the deploy+mint, smallest unit. */
  supply: z.string(),
  icon: z.string().nullable(),
  deployTxid: z.string(),
  /** Valid units the organisation's wallets hold. */
  held: z.string(),
  /** Who answered validity: `local` (Keystead's own index, the embedded chain) or the 1Sat indexer's base URL. */
  source: z.string(),
});

/** A secure wallet's password (its keys are sealed with it). */
const walletPassword = z.string().max(1000).optional();

const sendResult = z.object({
  txid: z.string(),
  /** BSV fee paid by the wallet (satoshis). */
  fee: z.number().int(),
});

export const ORDINALS_OPERATIONS = byName(
  defineOperation({
    name: 'listOrdinals',
    input: withWalletId(z.object({ walletId })),
    output: z.object({
      inscriptions: z.array(inscriptionEntry),
      tokens: z.array(bsv21Balance),
      /** Who answered validity (see bsv21Details.source). */
      source: z.string(),
    }),
    access: ALL_ROLES,
    summary:
      "A wallet's 1Sat Ordinals: its inscriptions (content type and size) and BSV-21 balances per token, counting only outputs proven to descend from the token's deploy+mint.",
    msg: 'Ordinals fetched successfully.',
    rest: [{ method: 'GET', path: '/v1/ordinals', wallet: true, query: true }],
  }),
  defineOperation({
    name: 'inscriptionContent',
    input: z.object({ outpoint: outpointSchema }),
    output: z.object({
      outpoint: z.string(),
      contentType: z.string(),
      kind: contentKind,
      size: z.number().int(),
      /** The content, base64 (at most 1 MiB is answered; see truncated). The raw route answers the bytes themselves. */
      contentBase64: z.string(),
      truncated: z.boolean(),
    }),
    access: ALL_ROLES,
    summary:
      "An inscription's content held by one of the organisation's wallets, as base64 with its content type (hostile data: show images as images and text as text, never run it). GET /v1/ordinals/:outpoint/content answers the raw bytes, sandboxed.",
    msg: 'Inscription fetched successfully.',
    rest: [{ method: 'GET', path: '/v1/ordinals/:outpoint', params: true }],
  }),
  defineOperation({
    name: 'deployBsv21',
    input: withWalletId(
      z.object({
        walletId,
        sym: z
          .string({ error: 'is required' })
          .trim()
          .min(1, { error: 'is required' })
          .max(32, { error: 'is 32 characters at most' })
          .regex(/^[\x21-\x7e]+$/, { error: 'must be printable ASCII without spaces' }),
        /** The whole supply in the smallest unit. */
        amt: tokenUnits,
        dec: z.coerce.number({ error: 'must be a whole number 0–18' }).int().min(0).max(18).default(0),
        /** An inscription's outpoint to show as the token's icon. */
        icon: z.preprocess((v) => (v === '' || v === null ? undefined : v), outpointSchema.optional()),
        walletPassword,
      }),
    ),
    output: sendResult.extend({ tokenId: z.string() }),
    access: TREASURY,
    summary:
      'Deploys and mints a BSV-21 token: one 1-satoshi output to the wallet inscribed {"p":"bsv-20","op":"deploy+mint",…}; the token id is <txid>_0.',
    msg: 'BSV-21 token deployed successfully.',
    rest: [{ method: 'POST', path: '/v1/bsv21/deploy', wallet: true, body: true }],
    audit: true,
  }),
  defineOperation({
    name: 'sendBsv21',
    input: withWalletId(
      z.object({
        walletId,
        tokenId: outpointSchema,
        /** A P2PKH address or a paymail. */
        to: z.string({ error: 'is required' }).trim().min(1, { error: 'is required' }).max(200),
        amount: tokenUnits,
        walletPassword,
      }),
    ),
    output: sendResult.extend({ tokenId: z.string(), amount: z.string(), change: z.string(), counterparty: z.string() }),
    access: WALLET_USERS,
    summary:
      'Sends BSV-21 token units: transfer inscriptions for the recipient and for the change back to the wallet (separate 1-satoshi outputs), fee paid from plain coins. Only valid token outputs are spent.',
    msg: 'BSV-21 tokens sent successfully.',
    rest: [{ method: 'POST', path: '/v1/bsv21/send', wallet: true, body: true }],
    audit: true,
  }),
  defineOperation({
    name: 'sendInscription',
    input: withWalletId(
      z.object({
        walletId,
        outpoint: outpointSchema,
        /** A P2PKH address or a paymail. */
        to: z.string({ error: 'is required' }).trim().min(1, { error: 'is required' }).max(200),
        walletPassword,
      }),
    ),
    output: sendResult.extend({ outpoint: z.string(), counterparty: z.string() }),
    access: WALLET_USERS,
    summary: 'Sends an inscription (its 1-satoshi output, as is) to an address; the fee is paid from plain coins.',
    msg: 'Inscription sent successfully.',
    rest: [{ method: 'POST', path: '/v1/ordinals/send', wallet: true, body: true }],
    audit: true,
  }),
  defineOperation({
    name: 'bsv21Token',
    input: z.object({ id: outpointSchema }),
    output: bsv21Details,
    access: ALL_ROLES,
    summary:
      "A BSV-21 token's deploy facts (symbol, decimals, supply, icon) from its deploy+mint inscription, and what the organisation holds.",
    msg: 'BSV-21 token fetched successfully.',
    rest: [{ method: 'GET', path: '/v1/bsv21/:id', params: true }],
  }),
);

/** The headers every raw inscription answer carries: the content is hostile and must never run. */
export function inscriptionHeaders(contentType: string): Record<string, string> {
  const media = contentType.split(';')[0].trim().toLowerCase();
  const inline = /^image\/[a-z0-9.+-]+$/.test(media) && media !== 'image/svg+xml' ? true : media === 'text/plain';
  return {
    'content-type': inline ? (media === 'text/plain' ? 'text/plain; charset=utf-8' : media) : 'application/octet-stream',
    'content-security-policy': "sandbox; default-src 'none'",
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
    ...(inline ? {} : { 'content-disposition': 'attachment' }),
  };
}
