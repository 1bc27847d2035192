import { z } from 'zod';
import { satoshisSchema } from './amount-schema.js';
import { TOKEN_PROTOCOL_IDS } from './token-protocols.js';
import { boolish, walletId, walletPassword } from './wallet-schemas.js';

const hex = z
  .string({ error: 'must be a hex string' })
  .trim()
  .toLowerCase()
  .regex(/^([0-9a-f]{2})*$/, { error: 'must be hex' });

/** The payment request of the resolver (the spec's table), which pay takes back. */
export const paymentRequest = z.object({
  uri: z.string().max(2000).optional(),
  type: z.string().max(50).optional(),
  mainProtocol: z.string().max(50).optional(),
  outputs: z
    .array(
      z.object({
        script: hex.min(2, { error: 'is required' }).max(20_000, { error: 'is too long' }),
        satoshis: satoshisSchema({ min: 0, strings: false, minMessage: 'must not be negative' }),
      }),
      { error: 'must be a list of {script, satoshis}' },
    )
    .min(1, { error: 'must have at least one output' })
    .max(1000, { error: 'has too many outputs (1000 at most)' }),
  inputs: z.array(z.unknown()).max(0, { error: 'must be empty (Keystead chooses the inputs)' }).optional(),
  memo: z.string().max(500, { error: 'is too long' }).nullish(),
  isBSV: z.boolean().optional(),
  peer: z.string().max(2000).nullish(),
  peerData: z.string().max(2000).nullish(),
  peerProtocol: z.string().max(50).nullish(),
  /** The receiver's BEEF receive-transaction endpoint (5c55a7fdb7bb), when it has one: the payment is then delivered as BEEF. */
  peerBeef: z.string().max(2000).nullish(),
});
export type PaymentRequest = z.infer<typeof paymentRequest>;

/** The request may come as the body itself, or nested under `data` (as the resolver returns it). */
const unwrapData = (v: unknown) => {
  if (v && typeof v === 'object' && 'data' in v && (v as { data?: unknown }).data && typeof (v as { data: unknown }).data === 'object') {
    const { data, ...rest } = v as { data: object };
    return { ...data, ...rest };
  }
  return v;
};

/** The quote's `reviewId`: given, pay refuses (409) anything but the reviewed payment. */
const reviewId = z
  .string({ error: 'must be the reviewId a quote answered' })
  .trim()
  .toLowerCase()
  .regex(/^[0-9a-f]{64}$/, { error: 'must be the reviewId a quote answered (64 hex digits)' });

export const payInput = z.preprocess(
  unwrapData,
  paymentRequest.extend({
    walletId,
    walletPassword,
    idempotencyKey: z.string().trim().min(1).max(200).optional(),
    reviewId: reviewId.optional(),
  }),
);

export const quoteInput = z.preprocess(unwrapData, paymentRequest.extend({ walletId }));

/** What lookup can look for: everything, plain BSV, or one token protocol. */
/** `BSV-21`: 1Sat Ordinals fungible tokens (engine/ordinals/lookup.ts). */
export const LOOKUP_TYPES = ['ALL', 'BSV', ...TOKEN_PROTOCOL_IDS, 'BSV-21'] as const;

export const lookupInput = z.object({
  privateKey: z.string({ error: 'is required' }).trim().min(1, { error: 'is required' }).max(200, { error: 'is too long' }),
  type: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toUpperCase() || undefined : v),
    z.enum(LOOKUP_TYPES, { error: `must be one of: ${LOOKUP_TYPES.join(', ')}` }).default('ALL'),
  ),
  currency: z.preprocess((v) => (v === '' ? undefined : v), z.string().trim().max(10).default('USD')),
  nextPageToken: z.preprocess(
    (v) => (v === '' || v === 'null' ? undefined : v),
    z.coerce.number({ error: 'must be a number' }).int().min(0, { error: 'must not be negative' }).default(0),
  ),
  compact: z.preprocess((v) => (v === undefined || v === '' ? true : v), boolish).transform((v) => v !== false),
  // -1 asks for every entry, as the public service takes it.
  maxResults: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce
      .number({ error: 'must be a number' })
      .int()
      .refine((n) => n === -1 || (n >= 1 && n <= 1000), { error: 'must be from 1 to 1000, or -1 for all' })
      .default(19)
      .transform((n) => (n === -1 ? Number.MAX_SAFE_INTEGER : n)),
  ),
});
