import { z } from 'zod';
import { byName, defineOperation } from '../operation.js';
import { paging } from '../schemas.js';
import { ADMIN } from './access.js';

const hash = z.string().describe('SHA-256, 64 hex digits');

export const auditEntry = z.object({
  id: z.number().int(),
  at: z.string(),
  actorUid: z.string().nullable(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  target: z.string().nullable(),
  outcome: z.enum(['success', 'error']),
  code: z.string().nullable(),
  client: z.string().nullable(),
  /** The hash of the entry before (GENESIS: 64 zeros for the first); null only on a row Keystead did not write. */
  prevHash: hash.nullable(),
  hash: hash.nullable(),
});

export const auditCheckpoint = z.object({
  /** The UTC day it closes. */
  day: z.string(),
  lastId: z.number().int(),
  lastHash: hash,
  /** ECDSA (secp256k1) over SHA-256 of the checkpoint message, DER, hex. */
  signature: z.string(),
  /** The audit key that signed it (compressed, hex). */
  publicKey: z.string(),
  createdAt: z.string(),
  /** The transaction that carries its hash on chain, when the organisation anchors checkpoints. */
  anchorTxid: z.string().nullable(),
  /** Made while later entries already existed: its day had lost its checkpoint (verify names it). */
  late: z.boolean(),
});

const auditKey = {
  /** The organisation's audit public key (compressed secp256k1, hex). */
  publicKey: z.string(),
  /** The same key as a PEM SubjectPublicKeyInfo, for `openssl dgst -sha256 -verify`. */
  publicKeyPem: z.string(),
};

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'must be a date, YYYY-MM-DD' });

export const auditSettingsOutput = z.object({
  /** Whether each new checkpoint's hash is written on chain by the fee manager. */
  anchor: z.boolean(),
  /** Whether the fee manager is set up (anchoring pays from it). */
  feeManagerReady: z.boolean(),
});

export const AUDIT_OPERATIONS = byName(
  defineOperation({
    name: 'auditLog',
    input: paging,
    output: z.object({ entries: z.array(auditEntry), meta: z.object({ nextPageToken: z.number().int().nullable() }) }),
    access: ADMIN,
    enterprise: true,
    summary: 'The audit log, newest first, paged.',
    msg: 'Audit log fetched successfully.',
    rest: [{ method: 'GET', path: '/api/v1/audit', query: true }],
  }),
  defineOperation({
    name: 'auditVerify',
    input: z.object({}),
    output: z.object({
      /** The chain holds from the first entry and every checkpoint is signed by the audit key and matches it. */
      ok: z.boolean(),
      entries: z.number().int(),
      checkpoints: z.number().int(),
      /** The first entry (or the last entry of the first checkpoint) that does not match, and why; null when ok. */
      firstMismatch: z.object({ id: z.number().int(), reason: z.string(), day: z.string().nullable() }).nullable(),
      ...auditKey,
      anchoring: z.boolean(),
      /** How many checkpoints are anchored on chain. */
      anchored: z.number().int(),
      /** Days whose checkpoint is not on chain while anchoring is on (the fee manager could not pay, or anchoring was off then). */
      unanchored: z.array(z.string()),
    }),
    access: ADMIN,
    enterprise: true,
    summary: 'Recomputes the audit hash chain from the first entry and checks every checkpoint; names the first entry that does not match.',
    msg: 'Audit trail verified.',
    rest: [{ method: 'GET', path: '/api/v1/audit/verify' }],
  }),
  defineOperation({
    name: 'auditCheckpoints',
    input: z.object({}),
    output: z.object({ checkpoints: z.array(auditCheckpoint), ...auditKey }),
    access: ADMIN,
    enterprise: true,
    summary: "The daily signed checkpoints of the audit trail, oldest first, with the audit key's public key.",
    msg: 'Audit checkpoints fetched successfully.',
    rest: [{ method: 'GET', path: '/api/v1/audit/checkpoints' }],
  }),
  defineOperation({
    name: 'auditExport',
    input: z
      .object({ from: day, to: day, format: z.enum(['csv', 'json']).default('json') })
      .refine((i) => i.from <= i.to, { error: 'from must be on or before to', path: ['from'] }),
    output: z.object({
      from: z.string(),
      to: z.string(),
      format: z.enum(['csv', 'json']),
      entries: z.array(auditEntry),
      checkpoints: z.array(auditCheckpoint),
      ...auditKey,
      /** format csv: the entries as CSV (RFC 4180), a checkpoint's columns on the row of its day's last entry; null for json. */
      csv: z.string().nullable(),
    }),
    access: ADMIN,
    enterprise: true,
    audit: true,
    summary: 'The audit entries of a date range (UTC days, inclusive) with their hashes, and the checkpoints of those days; JSON or CSV.',
    msg: 'Audit trail exported.',
    rest: [{ method: 'GET', path: '/api/v1/audit/export', query: true }],
  }),
  defineOperation({
    name: 'auditSettings',
    input: z.object({}),
    output: auditSettingsOutput,
    access: ADMIN,
    enterprise: true,
    summary: 'Whether audit checkpoints are anchored on chain (through the fee manager).',
    msg: 'Audit settings fetched successfully.',
    rest: [{ method: 'GET', path: '/api/v1/audit/settings' }],
  }),
  defineOperation({
    name: 'setAuditSettings',
    input: z.object({ anchor: z.boolean() }),
    output: auditSettingsOutput,
    access: ADMIN,
    enterprise: true,
    audit: true,
    summary: "Turns anchoring of audit checkpoints on chain on or off (each new checkpoint's hash, paid by the fee manager).",
    msg: 'Audit settings saved.',
    rest: [{ method: 'POST', path: '/api/v1/audit/settings', body: true }],
  }),
);
