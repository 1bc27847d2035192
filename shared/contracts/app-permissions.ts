import { z } from 'zod';
import { byName, defineOperation } from '../operation.js';
import { TREASURY } from './access.js';
import { originator } from './apps.js';

/**
 * What each BRC-100 app may do with the wallet that answers it, as the organisation decides: protocols
 * (security levels 1 and 2; level 0 is open to every allowed app; level 2 per counterparty), output baskets,
 * certificate types with the fields they may disclose, assets other than satoshis (`ordinal`, `token:<id>`),
 * and a monthly spending authorisation in satoshis or in a currency. A use nobody granted is recorded as a
 * pending request and the app's call waits for the decision, as a new app's first call does.
 */
export const PERMISSION_KINDS = ['protocol', 'basket', 'certificate', 'asset', 'spend'] as const;
export const PERMISSION_STATES = ['pending', 'granted', 'denied', 'used'] as const;

/** The kinds an admin grants ahead of time (a spend above the authorisation is only ever one action's request). */
const GRANTABLE = ['protocol', 'basket', 'certificate', 'asset'] as const;

const id = z.coerce
  .number({ error: 'must be a permission id' })
  .int({ error: 'must be a permission id' })
  .positive({ error: 'must be a permission id' });

const expiresAt = z.iso.datetime({ offset: true, error: 'must be an ISO time (2026-12-31T00:00:00Z)' });

/** A counterparty of a level-2 protocol: a compressed public key in hex, `self`, `anyone`, or `*` (every counterparty). */
const counterparty = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(self|anyone|\*|0[23][0-9a-f]{64})$/, {
    error: 'must be a public key in hex (66 digits), self, anyone, or * (every counterparty)',
  });

export const permissionOutput = z.object({
  id: z.number().int(),
  originator: z.string(),
  kind: z.enum(PERMISSION_KINDS),
  /** `pending`: asked by the app and waiting; `used`: a spend granted for its one action, which took it. */
  state: z.enum(PERMISSION_STATES),
  /** The protocol name, basket, certificate type, asset (`ordinal`, `token:<id>`), or a spend's description. */
  subject: z.string(),
  securityLevel: z.number().int().nullable(),
  /** A level-2 protocol's counterparty (`*`: every counterparty). */
  counterparty: z.string().nullable(),
  /** Certificate fields it may disclose; null: every field. */
  fields: z.array(z.string()).nullable(),
  /** A spend request's amount. */
  satoshis: z.number().int().nullable(),
  /** What the app said the use was for. */
  purpose: z.string().nullable(),
  /** What must be granted, in words. */
  summary: z.string(),
  requestedAt: z.string().nullable(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
});

/** A monthly authorisation: satoshis, or an amount in a currency of the rate table converted at the latest rate. */
const spendLimit = z.union([
  z.object({ satoshis: z.number({ error: 'must be a whole number of satoshis' }).int().min(0).max(21e14) }),
  z.object({
    currency: z.string().trim().toUpperCase().length(3, { error: 'must be a currency code (USD)' }),
    amount: z.string().regex(/^\d{1,12}(\.\d{1,2})?$/, { error: 'must be an amount such as 25 or 25.50' }),
  }),
]);

export const appSpendingOutput = z.object({
  originator: z.string(),
  /** Null: no authorisation (every spend of satoshis is asked for, one action at a time). */
  limit: spendLimit.nullable(),
  /** The authorisation in satoshis now (a currency converted at the latest rate); null when no rate measures it. */
  limitSatoshis: z.number().int().nullable(),
  /** Satoshis counted against it this calendar month (UTC). */
  usedSatoshis: z.number().int(),
  /** Satoshis spent this month in all, including actions granted one at a time. */
  spentSatoshis: z.number().int(),
  remainingSatoshis: z.number().int().nullable(),
  setBy: z.string().nullable(),
  setAt: z.string().nullable(),
});

export const APP_PERMISSION_OPERATIONS = byName(
  defineOperation({
    name: 'listAppPermissions',
    input: z.object({ originator: originator.optional() }),
    output: z.object({ permissions: z.array(permissionOutput), spending: z.array(appSpendingOutput) }),
    access: TREASURY,
    enterprise: true,
    summary:
      "BRC-100 apps' permissions, pending requests first: protocols, baskets, certificates, assets and spends above the authorisation, with who decided; each app's monthly spending authorisation and what it used this month.",
    msg: 'App permissions fetched successfully.',
    rest: [{ method: 'GET', path: '/api/v1/apps/permissions', query: true }],
  }),
  defineOperation({
    name: 'decideAppPermission',
    input: z.object({
      id,
      grant: z.boolean({ error: 'must be true or false' }),
      /** A grant ends then (the app asks again); denials do not expire. */
      expiresAt: expiresAt.optional(),
    }),
    output: permissionOutput,
    access: TREASURY,
    enterprise: true,
    summary:
      "Grants (optionally until a time) or denies an app's request, or changes a decision; the calls waiting for it go on or are refused. A spend request lets its one action through.",
    msg: 'App permission decided.',
    rest: [{ method: 'POST', path: '/api/v1/apps/permissions/decide', body: true }],
    audit: true,
  }),
  defineOperation({
    name: 'setAppPermission',
    input: z
      .object({
        originator,
        kind: z.enum(GRANTABLE, { error: 'must be protocol, basket, certificate or asset' }),
        grant: z.boolean({ error: 'must be true or false' }).default(true),
        /** protocol: its security level (1 or 2; 0 only for privileged keys) and name. */
        securityLevel: z.union([z.literal(0), z.literal(1), z.literal(2)], { error: 'must be 0, 1 or 2' }).optional(),
        /** protocol: grants the wallet's privileged keys of the protocol (BRC-100 `privileged: true`), not its everyday keys. */
        privileged: z.boolean({ error: 'must be true or false' }).optional(),
        protocol: z
          .string()
          .trim()
          .toLowerCase()
          .regex(/^[a-z0-9 ]{5,400}$/, { error: 'must be a protocol name of 5 to 400 letters, digits and spaces (BRC-43)' })
          .optional(),
        /** protocol at level 2: the counterparty, or `*` for every one. */
        counterparty: counterparty.optional(),
        basket: z.string().trim().min(1, { error: 'is required' }).max(300).optional(),
        certificateType: z.string().trim().min(1, { error: 'is required' }).max(100).optional(),
        /** certificate: the fields it may disclose; omitted: every field. */
        fields: z.array(z.string().min(1).max(50)).max(100).optional(),
        /** asset: `ordinal`, or `token:<tokenId>`. */
        asset: z
          .string()
          .trim()
          .regex(/^(ordinal|token:\S{1,200})$/, { error: 'must be ordinal or token:<tokenId>' })
          .optional(),
        expiresAt: expiresAt.optional(),
      })
      .superRefine((v, ctx) => {
        const need = (field: keyof typeof v, what: string) => {
          if (v[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: `is required for ${what}` });
        };
        if (v.kind === 'protocol') {
          need('securityLevel', 'a protocol');
          need('protocol', 'a protocol');
          if (v.securityLevel === 2) need('counterparty', 'a level-2 protocol (or * for every counterparty)');
          if (v.securityLevel === 0 && !v.privileged)
            ctx.addIssue({
              code: 'custom',
              path: ['securityLevel'],
              message: 'must be 1 or 2 (level 0 needs no grant, except for privileged keys)',
            });
        }
        if (v.kind === 'basket') need('basket', 'a basket');
        if (v.kind === 'certificate') need('certificateType', 'a certificate');
        if (v.kind === 'asset') need('asset', 'an asset');
      }),
    output: permissionOutput,
    access: TREASURY,
    enterprise: true,
    summary:
      'Grants or denies an app a protocol (level 1, or level 2 for a counterparty or every one), a basket, a certificate type (with the fields it may disclose) or an asset, ahead of its asking; its waiting calls the decision covers go on or are refused.',
    msg: 'App permission set.',
    rest: [{ method: 'POST', path: '/api/v1/apps/permissions', body: true }],
    audit: true,
  }),
  defineOperation({
    name: 'revokeAppPermission',
    input: z.object({ id }),
    output: z.object({ id: z.number().int(), revoked: z.boolean() }),
    access: TREASURY,
    enterprise: true,
    summary:
      "Removes a grant, denial or request of an app: its next use of what the grant covered is asked for again (and waits); a request's waiting calls are refused.",
    msg: 'App permission revoked.',
    rest: [{ method: 'POST', path: '/api/v1/apps/permissions/revoke', body: true }],
    audit: true,
  }),
  defineOperation({
    name: 'setAppSpendingLimit',
    input: z.object({ originator, limit: spendLimit.nullable() }),
    output: appSpendingOutput,
    access: TREASURY,
    enterprise: true,
    summary:
      "Sets an app's monthly spending authorisation (satoshis, or an amount in a currency at the latest rate; null: none, each spend is asked for); spends above what is left of it wait for a grant of their own.",
    msg: 'App spending authorisation set.',
    rest: [{ method: 'PUT', path: '/api/v1/apps/spending-limit', body: true }],
    audit: true,
  }),
);
