import { z } from 'zod';
import { byName, defineOperation } from '../operation.js';
import { boolish } from '../wallet-schemas.js';
import { ADMIN, ALL_ROLES, TREASURY } from './access.js';

/**
 * The payee book: the organisation's named destinations (a paymail, a P2PKH address or an identity key),
 * kept by admins and managers and read by everyone who pays. A new payee, or one whose destination
 * changed, may be paid without a rule's approvers only after the cooling-off period the admin sets; the
 * policies refer to payees and to "any destination not in the book" (engine/payees/book.ts: payeeFor).
 */
export const PAYEE_KINDS = ['paymail', 'address', 'identity_key'] as const;
export const payeeKind = z.enum(PAYEE_KINDS, { error: `must be one of: ${PAYEE_KINDS.join(', ')}` });
export type PayeeKindName = (typeof PAYEE_KINDS)[number];

/** The cooling-off period when the admin has not set one, and the longest it may be (30 days). */
export const DEFAULT_COOLING_OFF_HOURS = 24;
export const MAX_COOLING_OFF_HOURS = 720;

/** Ids are random: `payee_` and 22 characters. */
export const payeeId = z
  .string({ error: 'is required' })
  .trim()
  .min(1, { error: 'is required' })
  .max(100, { error: 'is too long' })
  .regex(/^payee_[A-Za-z0-9_-]+$/, { error: 'must be a payee id (payee_…)' });

const payeeName = z
  .string({ error: 'is required' })
  .trim()
  .min(1, { error: 'is required' })
  .max(100, { error: 'is too long (100 characters at most)' });

/** Checked and normalised by the engine (paymail, address or identity key); here only its size. */
const destination = z
  .string({ error: 'is required' })
  .trim()
  .min(1, { error: 'is required' })
  .max(200, { error: 'is too long (200 characters at most)' });

/** A note; on an update, null or "" clears it and absence keeps it. */
const note = z.union([
  z.null(),
  z.string({ error: 'must be a string' }).trim().max(500, { error: 'is too long (500 characters at most)' }),
]);

/** A kind given as "" (a form's empty select) means "tell it from the destination". */
const optionalKind = z.preprocess((v) => (v === '' || v === null ? undefined : v), payeeKind.optional());

const coolingOffHours = z.preprocess(
  (v) => (typeof v === 'string' && /^\s*[0-9]{1,6}\s*$/.test(v) ? Number(v.trim()) : v),
  z
    .number({ error: 'must be a number of hours' })
    .int({ error: 'must be a whole number of hours' })
    .min(0, { error: 'must not be negative' })
    .max(MAX_COOLING_OFF_HOURS, { error: `must be ${MAX_COOLING_OFF_HOURS} hours (30 days) at most` }),
);

export const payeeOutput = z.object({
  payeeId: z.string(),
  name: z.string(),
  kind: payeeKind,
  /** Normalised: a paymail lower-case, an identity key as lower-case hex. */
  destination: z.string(),
  note: z.string().nullable(),
  state: z.enum(['active', 'removed']),
  /** From when it may be paid without a rule's approvers (ISO 8601), and whether that time has come. */
  usableFrom: z.string(),
  usable: z.boolean(),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedBy: z.string().nullable(),
  updatedAt: z.string(),
});

const settingsOutput = z.object({ coolingOffHours: z.number().int() });

export const PAYEE_OPERATIONS = byName(
  defineOperation({
    name: 'listPayees',
    input: z.object({ includeRemoved: boolish }),
    output: z.object({ payees: z.array(payeeOutput), coolingOffHours: z.number().int() }),
    access: ALL_ROLES,
    enterprise: true,
    summary:
      "The organisation's payee book: active payees by name (with `includeRemoved`, the removed ones too), each with when it becomes usable; and the cooling-off period in force.",
    msg: 'Payees fetched successfully.',
    rest: [{ method: 'GET', path: '/api/v1/payees', query: true }],
  }),
  defineOperation({
    name: 'addPayee',
    input: z.object({ name: payeeName, kind: optionalKind, destination, note: note.optional() }),
    output: payeeOutput,
    access: TREASURY,
    enterprise: true,
    summary:
      'Adds a payee (a paymail, a P2PKH address or an identity key; the kind is told from the destination when not given); it is usable after the cooling-off period. A destination another active payee holds is 409.',
    msg: 'Payee added.',
    rest: [{ method: 'POST', path: '/api/v1/payees', body: true }],
    audit: true,
  }),
  defineOperation({
    name: 'updatePayee',
    input: z.object({
      id: payeeId,
      name: payeeName.optional(),
      kind: optionalKind,
      destination: destination.optional(),
      note: note.optional(),
    }),
    output: payeeOutput,
    access: TREASURY,
    enterprise: true,
    summary: "Changes a payee's name, note or destination (only what is given); a changed destination starts a new cooling-off period.",
    msg: 'Payee updated.',
    rest: [{ method: 'PUT', path: '/api/v1/payees/:id', params: true, body: true }],
    audit: true,
  }),
  defineOperation({
    name: 'removePayee',
    input: z.object({ id: payeeId }),
    output: payeeOutput,
    access: TREASURY,
    enterprise: true,
    summary: 'Removes a payee from the book (it is kept, marked removed, for the record); its destination is then "not in the book".',
    msg: 'Payee removed.',
    rest: [{ method: 'DELETE', path: '/api/v1/payees/:id', params: true }],
    audit: true,
  }),
  defineOperation({
    name: 'payeeSettings',
    input: z.object({}),
    output: settingsOutput,
    access: ADMIN,
    enterprise: true,
    summary: "The payee book's settings: the cooling-off period in hours.",
    msg: 'Payee settings fetched successfully.',
    rest: [{ method: 'GET', path: '/api/v1/payees/settings' }],
  }),
  defineOperation({
    name: 'setPayeeSettings',
    input: z.object({ coolingOffHours }),
    output: settingsOutput,
    access: ADMIN,
    enterprise: true,
    summary: `Sets the cooling-off period (0 to ${MAX_COOLING_OFF_HOURS} hours) for payees added or changed from now on; payees already in the book keep their time.`,
    msg: 'Payee settings saved.',
    rest: [{ method: 'PUT', path: '/api/v1/payees/settings', body: true }],
    audit: true,
  }),
);
