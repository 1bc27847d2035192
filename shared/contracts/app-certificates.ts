import { z } from 'zod';
import { byName, defineOperation } from '../operation.js';
import { ADMIN, TREASURY } from './access.js';

/**
 * Identity certificates (BRC-52) that BRC-100 apps acquired for the organisation's wallets. Their field values
 * stay encrypted for the wallet: the list names the fields, never their values. An admin can make a wallet
 * relinquish one (it is deleted; apps no longer list, prove or discover it).
 */
export const appCertificateOutput = z.object({
  /** The handle to relinquish it by. */
  id: z.number().int(),
  walletId: z.string(),
  walletTitle: z.string(),
  /** The certificate type (base64, 32 bytes). */
  type: z.string(),
  serialNumber: z.string(),
  /** The certifier's identity key. */
  certifier: z.string(),
  /** The wallet's identity key, which the certificate certifies. */
  subject: z.string(),
  fieldNames: z.array(z.string()),
  /** The app that acquired it. */
  originator: z.string(),
  protocol: z.enum(['direct', 'issuance']),
  acquiredAt: z.string(),
});

export const APP_CERTIFICATE_OPERATIONS = byName(
  defineOperation({
    name: 'listAppCertificates',
    input: z.object({}),
    output: z.object({ certificates: z.array(appCertificateOutput) }),
    access: TREASURY,
    enterprise: true,
    summary:
      'Identity certificates (BRC-52) the wallets hold for BRC-100 apps: type, certifier, subject, the names of their fields (never the values) and the app that acquired each.',
    msg: 'App certificates fetched successfully.',
    rest: [{ method: 'GET', path: '/api/v1/apps/certificates' }],
  }),
  defineOperation({
    name: 'relinquishAppCertificate',
    input: z.object({ id: z.coerce.number({ error: 'must be a number' }).int().min(1, { error: 'must be a certificate id' }) }),
    output: z.object({
      relinquished: z.literal(true),
      /** What was relinquished, for the record (the audit trail names it). */
      walletId: z.string(),
      type: z.string(),
      certifier: z.string(),
      originator: z.string(),
    }),
    access: ADMIN,
    enterprise: true,
    summary: 'Makes the wallet relinquish a certificate an app acquired: it is deleted, and apps no longer list, prove or discover it.',
    msg: 'Certificate relinquished.',
    rest: [{ method: 'POST', path: '/api/v1/apps/certificates/relinquish', body: true }],
    audit: true,
  }),
);
