import { z } from 'zod';

/** Wallet kinds on the wire (the spec's "standard, secure, escrow or shared"). */
export const WALLET_TYPES = ['standard', 'secure', 'escrow', 'shared'] as const;
export type WalletTypeName = (typeof WALLET_TYPES)[number];

export const DEFAULT_WALLET_ID = '0000-00000000-00000';

/** Header values arrive as strings; an empty one means "not given". */
const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

export const optionalText = (max: number) =>
  z.preprocess(
    blankToUndefined,
    z
      .string({ error: 'must be a string' })
      .trim()
      .max(max, { error: `is too long (${max} characters at most)` })
      .optional(),
  );

/** true/false as JSON booleans or as the strings headers carry ("true", "1", "yes"). */
export const boolish = z.preprocess(
  (v) => {
    if (typeof v !== 'string') return v;
    const s = v.trim().toLowerCase();
    if (s === '') return undefined;
    if (['true', '1', 'yes'].includes(s)) return true;
    if (['false', '0', 'no'].includes(s)) return false;
    return v;
  },
  z.boolean({ error: 'must be true or false' }).optional(),
);

export const walletType = z.preprocess(
  (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : v.trim().toLowerCase()) : v),
  z.enum(WALLET_TYPES, { error: `must be one of: ${WALLET_TYPES.join(', ')}` }).default('standard'),
);

export const walletId = z.preprocess(
  blankToUndefined,
  z.string({ error: 'must be a string' }).trim().max(100, { error: 'is too long' }).optional(),
);
export const requiredWalletId = z.preprocess(
  blankToUndefined,
  z.string({ error: 'is required' }).trim().min(1, { error: 'is required' }).max(100, { error: 'is too long' }),
);

/** The spellings clients use for a wallet id: the public service's `walletID`, and `walletId`, `walletid`. */
export const WALLET_ID_KEYS = ['walletID', 'walletId', 'walletid'] as const;

/**
 * The one wallet id among the values a request gave (blank ones do not count); `conflict` when it gave
 * two different ones, which must be refused: guessing would act on the wrong wallet.
 */
export function oneWalletId(values: readonly unknown[]): { id: unknown } | { conflict: true } | null {
  const given = values.filter((v) => v !== undefined && v !== null && !(typeof v === 'string' && v.trim() === ''));
  if (!given.length) return null;
  const distinct = new Set(given.map((v) => (typeof v === 'string' ? v.trim() : JSON.stringify(v))));
  return distinct.size > 1 ? { conflict: true } : { id: typeof given[0] === 'string' ? given[0].trim() : given[0] };
}

export const WALLET_ID_CONFLICT =
  'was given more than once with different values (walletID, walletId or walletid, in the headers, query or body); send one';

/**
 * An operation input that names a wallet: the id is read under any of its spellings and handed on as
 * `walletId`; two different ids in one request are a validation error, never a guess.
 */
export function withWalletId<T extends z.ZodType>(schema: T) {
  return z.preprocess((value, ctx) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    const record = { ...(value as Record<string, unknown>) };
    const one = oneWalletId(WALLET_ID_KEYS.map((k) => record[k]));
    for (const k of WALLET_ID_KEYS) delete record[k];
    if (one && 'conflict' in one) {
      ctx.addIssue({ code: 'custom', message: WALLET_ID_CONFLICT, path: ['walletID'], input: value });
      return z.NEVER;
    }
    return one ? { ...record, walletId: one.id } : record;
  }, schema);
}

export const logoUrl = z.preprocess(
  blankToUndefined,
  z
    .string({ error: 'must be a string' })
    .trim()
    .max(2048, { error: 'is too long' })
    .refine((v) => /^https?:\/\/[^\s]+$/i.test(v) || /^data:image\/(png|jpeg|gif|webp|svg\+xml);base64,[A-Za-z0-9+/=]+$/.test(v), {
      error: 'must be an http(s) URL or a data:image URL',
    })
    .optional(),
);

/** A list of users, as a JSON array or a comma-separated header. */
export const memberList = z.preprocess(
  (v) =>
    typeof v === 'string'
      ? v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : v,
  z
    .array(z.string({ error: 'must be a list of user ids or e-mails' }).trim().min(1).max(254), {
      error: 'must be a list of user ids or e-mails',
    })
    .max(100, { error: 'has too many members (100 at most)' })
    .optional(),
);

export const walletPassword = z.preprocess(
  blankToUndefined,
  z.string({ error: 'must be a string' }).min(8, { error: 'must be at least 8 characters' }).max(200, { error: 'is too long' }).optional(),
);
