import { z } from 'zod';
import { byName, defineOperation } from '../operation.js';
import { ADMIN, TREASURY } from './access.js';

/**
 * Applications that reach the organisation's wallets through BRC-100 (@bsv/sdk's `WalletClient`, JSON over
 * HTTP on the BRC-100 listener). Each app is known by its originator (the domain it names in its `Origin` /
 * `Originator` header). The first call of a new originator waits, as `waitForAuthentication` does, until an
 * admin or manager allows it here and names the wallet that answers it (or the default wallet); a denied or
 * revoked app is refused. Every allowed app is listed, with what it has done, and can be revoked at once.
 */
export const APP_STATES = ['pending', 'allowed', 'denied', 'revoked'] as const;
export const appState = z.enum(APP_STATES);

/** An originator as apps send it: a host name, optionally with a port (`example.com`, `localhost:8080`). */
export const originator = z
  .string({ error: 'is required' })
  .trim()
  .toLowerCase()
  .min(1, { error: 'is required' })
  .max(253, { error: 'is too long' })
  .regex(/^[a-z0-9.-]+(:[0-9]{1,5})?$/, { error: 'must be a host name, optionally with a port (example.com, localhost:8080)' });

const walletId = z.string({ error: 'must be a wallet id' }).trim().min(1, { error: 'is required' }).max(100, { error: 'is too long' });

export const appOutput = z.object({
  originator: z.string(),
  state: appState,
  /** The wallet that answers this app; null: the default wallet for apps. */
  walletId: z.string().nullable(),
  firstSeenAt: z.string(),
  /** Who allowed, denied or revoked it, and when; null while pending. */
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  lastCallAt: z.string().nullable(),
  /** Calls answered since it was allowed. */
  calls: z.number().int(),
});

export const APP_OPERATIONS = byName(
  defineOperation({
    name: 'listApps',
    input: z.object({}),
    output: z.object({
      apps: z.array(appOutput),
      /** The wallet that answers apps allowed without one of their own; null: the organisation's default wallet. */
      defaultWalletId: z.string().nullable(),
      /** Where the BRC-100 listener is (`127.0.0.1:3321`), or null when it is off. */
      listening: z.string().nullable(),
    }),
    access: TREASURY,
    enterprise: true,
    summary:
      'BRC-100 applications: every originator that has called the wallet interface, pending ones first, with its state, the wallet that answers it and its calls; the default wallet for apps; where the listener is.',
    msg: 'Apps fetched successfully.',
    rest: [{ method: 'GET', path: '/api/v1/apps' }],
  }),
  defineOperation({
    name: 'decideApp',
    input: z.object({ originator, allow: z.boolean({ error: 'must be true or false' }), walletId: walletId.optional() }),
    output: appOutput,
    access: TREASURY,
    enterprise: true,
    summary:
      "Allows (with the wallet that answers it, or the default wallet for apps) or denies an app's access; its waiting calls then go on or are refused. Also names an app not seen yet, so it is allowed before its first call.",
    msg: 'App decided.',
    rest: [{ method: 'POST', path: '/api/v1/apps/decide', body: true }],
    audit: true,
  }),
  defineOperation({
    name: 'revokeApp',
    input: z.object({ originator }),
    output: appOutput,
    access: TREASURY,
    enterprise: true,
    summary: 'Revokes an allowed app: its next call is refused (it must be allowed again).',
    msg: 'App revoked.',
    rest: [{ method: 'POST', path: '/api/v1/apps/revoke', body: true }],
    audit: true,
  }),
  defineOperation({
    name: 'setAppsDefaultWallet',
    input: z.object({ walletId: z.union([z.null(), walletId]) }),
    output: z.object({ defaultWalletId: z.string().nullable() }),
    access: ADMIN,
    enterprise: true,
    summary: "Sets the wallet that answers apps allowed without a wallet of their own (null: the organisation's default wallet).",
    msg: 'Default wallet for apps set.',
    rest: [{ method: 'PUT', path: '/api/v1/apps/default-wallet', body: true }],
    audit: true,
  }),
);
