import { z } from 'zod';
import { decimalAmount, MAX_TOKEN_SUPPLY, satoshisSchema, tokenCountSchema, wholeNumber } from './amount-schema.js';
import { STAS_PROTOCOL_IDS, TOKEN_PROTOCOL_IDS } from './token-protocols.js';
import { boolish, walletId } from './wallet-schemas.js';

export { NFT_PROTOCOL_IDS, STAS_PROTOCOL_IDS, TOKEN_PROTOCOL_IDS } from './token-protocols.js';

const blank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** The STAS schema's properties (reference §4.6), each optional; 20 KB at most as JSON. */
const properties = z
  .object({
    legal: z
      .object({ terms: z.string().max(4000).optional(), licenceId: z.string().max(200).optional() })
      .partial()
      .optional(),
    issuer: z
      .object({
        organisation: z.string().max(200),
        legalForm: z.string().max(200),
        governingLaw: z.string().max(200),
        issuerCountry: z.string().max(200),
        jurisdiction: z.string().max(200),
        email: z.string().max(200),
      })
      .partial()
      .optional(),
    meta: z
      .object({
        schemaId: z.string().max(200),
        website: z.string().max(500),
        legal: z.object({ terms: z.string().max(4000) }).partial(),
        media: z
          .array(z.object({ URI: z.string().max(500), type: z.string().max(100).optional(), altURI: z.string().max(500).optional() }))
          .max(20),
      })
      .partial()
      .optional(),
  })
  .passthrough()
  .refine((p) => Buffer.byteLength(JSON.stringify(p), 'utf8') <= 20 * 1024, { error: 'must be 20 KB at most as JSON' });

/** The issue specification (the spec's table), with the limits of the STAS technical documentation (appendix A). */
export const issueInput = z.object({
  name: z
    .string({ error: 'is required' })
    .trim()
    .min(1, { error: 'is required' })
    .refine((s) => Buffer.byteLength(s, 'utf8') <= 32, { error: 'must be 32 bytes at most' }),
  protocolId: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toUpperCase() : v),
    z.enum(TOKEN_PROTOCOL_IDS, { error: `must be one of: ${TOKEN_PROTOCOL_IDS.join(', ')}` }),
  ),
  symbol: z
    .string({ error: 'is required' })
    .trim()
    .regex(/^[A-Za-z0-9]{1,9}$/, { error: 'must be 1 to 9 letters or digits' }),
  description: z.preprocess(blank, z.string().max(512, { error: 'must be 512 characters at most' }).default('')),
  image: z.preprocess(blank, z.url({ error: 'must be a URL' }).max(512, { error: 'must be 512 characters at most' }).optional()),
  tokenSupply: tokenCountSchema({ max: MAX_TOKEN_SUPPLY, minMessage: 'must be at least 1' }),
  decimals: wholeNumber({ min: 0, max: 8, minMessage: 'must be from 0 to 8' }).default(0),
  satsPerToken: satoshisSchema({ min: 1, max: 100_000_000, minMessage: 'must be at least 1' }),
  splitable: boolish,
  properties: properties.optional(),
  /** NFTs: the data written into each token's script, by serial number: {"1": ["…"], "2": ["…"]}. */
  data: z
    .record(z.string().regex(/^[1-9][0-9]*$/, { error: 'keys must be serial numbers 1, 2, …' }), z.array(z.string().max(2000)).max(10))
    .optional(),
  reminting: boolish,
  walletId,
});

/** An NFT's serial number: 1, 2, … */
const serialNumber = wholeNumber({ min: 1, max: MAX_TOKEN_SUPPLY, minMessage: 'must be a positive serial number' });

export const sendItem = z.object({
  to: z.string({ error: 'is required' }).trim().min(1, { error: 'is required' }).max(200),
  /** BSV (a decimal number, kept as exact text) for coins; a whole number of tokens with tokenId; optional for an NFT (1). */
  amount: decimalAmount.optional(),
  satoshis: satoshisSchema({ min: 1 }).optional(),
  tokenId: z.preprocess(blank, z.string().trim().max(200).optional()),
  sn: serialNumber.optional(),
  notes: z.preprocess(blank, z.string().max(500).optional()),
});

export const redeemItem = z.object({
  amount: tokenCountSchema({ minMessage: 'must be a positive whole number of tokens' }).optional(),
  tokenId: z.string({ error: 'is required' }).trim().min(1, { error: 'is required' }).max(200),
  sn: serialNumber.optional(),
});

/** One failed item of a batch (send, redeem): the others went ahead. */
/** `approvalId`: the item waits for approvals (code APPROVAL_REQUIRED) as that request; nothing of it was sent. */
export const itemError = z.object({ index: z.number().int(), code: z.string(), msg: z.string(), approvalId: z.string().optional() });

/**
 * One item's outcome, in order: its txids (a token send may merge first), or its error. `replayed`: an
 * earlier call with the same idempotency-key paid it; this is that result, nothing was paid again.
 */
export const itemResult = z.object({
  index: z.number().int(),
  txIds: z.array(z.string()),
  code: z.string().nullable(),
  msg: z.string().nullable(),
  replayed: z.boolean().optional(),
  approvalId: z.string().optional(),
});

export const batchOutput = z.object({
  txIds: z.array(z.string()),
  errors: z.array(itemError),
  /** Every item's outcome (txIds and errors above stay, for compatibility). */
  results: z.array(itemResult).optional(),
  /** "partial success" when some items failed. */
  status: z.string().optional(),
  msg: z.string().optional(),
});

export const serial = z.object({
  sn: z.number().int(),
  data: z.array(z.string()),
  txid: z.string().nullable(),
  vout: z.number().int().nullable(),
  redeemed: z.boolean(),
});

export const tokenDetails = z.object({
  tokenId: z.string(),
  name: z.string(),
  symbol: z.string(),
  protocolId: z.string(),
  supply: z.number().int(),
  circulatingSupply: z.number().int(),
  decimals: z.number().int(),
  satsPerToken: z.number().int(),
  splittable: z.boolean(),
  redeemAddr: z.string(),
  image: z.string(),
  description: z.string(),
  properties: z.record(z.string(), z.unknown()),
  contractTxid: z.string().nullable(),
  issueTxid: z.string().nullable(),
  /** Whether one of the organisation's wallets issued it. */
  issuedHere: z.boolean(),
  serials: z.array(serial).optional(),
});

export const tokenTemplateInput = z.object({
  protocolId: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toUpperCase() : v),
    z.enum(STAS_PROTOCOL_IDS, { error: `must be one of: ${STAS_PROTOCOL_IDS.join(', ')}` }),
  ),
  template: z.string({ error: 'is required' }).trim().min(1, { error: 'is required' }).max(200_100, { error: 'is too large' }),
});

export { walletId };
