import { z } from 'zod';
import { byName, defineOperation } from '../operation.js';
import { ADMIN, ALL_ROLES, WALLET_USERS } from './access.js';

/**
 * Payments awaiting approval. A move the policy sends for approval is recorded with its exact review and
 * answered 202 (`data.code` APPROVAL_REQUIRED, `data.approvalId`); nothing is reserved or signed. Approvers
 * vote (one person one vote; the initiator never counts); on the last approval the same operation runs again
 * as the initiator, and only with exactly the reviewed outputs.
 */

/** `sending`: approved and being carried out by one call (a second call to send it is refused with CONFLICT). */
export const APPROVAL_STATES = ['awaiting_approval', 'approved', 'sending', 'sent', 'failed', 'rejected', 'expired', 'cancelled'] as const;
export const approvalState = z.enum(APPROVAL_STATES);

/** What every approval id begins with; approved requests run again under their id as idempotency key. */
export const APPROVAL_ID_PREFIX = 'apr_';

export const approvalId = z
  .string()
  .trim()
  .regex(/^apr_[A-Za-z0-9_-]{10,40}$/, { error: 'must be an approval id (apr_…)' });

/** What the approvers review: the move as the policy saw it. */
export const approvalReview = z.object({
  operation: z.string(),
  walletID: z.string(),
  walletTitle: z.string(),
  /** BSV, a token id, or NFTs. */
  asset: z.string(),
  /** The move's amount in its asset's unit (satoshis for BSV), its network fee not included. */
  amount: z.number().int(),
  /** The network fee it pays in satoshis (a BSV move's limits and windows count it with the amount); null when unknown. */
  fee: z.number().int().nullable().optional(),
  outputs: z.array(z.object({ script: z.string(), satoshis: z.number().int(), address: z.string().nullable() })),
  /** The paymail or payment URI paid, when there is one. */
  counterparty: z.string().nullable(),
  memo: z.string().nullable(),
});

export const approvalOutput = z.object({
  approvalId: z.string(),
  state: approvalState,
  review: approvalReview,
  initiator: z.object({ uid: z.string(), email: z.string().nullable(), apiKeyId: z.string().nullable() }),
  /** The rule that asked for approval, and in words. */
  rule: z.string(),
  words: z.string(),
  policyVersion: z.number().int(),
  needed: z.number().int(),
  approverRoles: z.array(z.string()),
  approverUsers: z.array(z.string()),
  votes: z.array(z.object({ uid: z.string(), email: z.string().nullable(), vote: z.enum(['approve', 'reject']), at: z.string() })),
  /** Whether the caller may vote on it now (an approver who has not voted, and not the initiator). */
  canVote: z.boolean(),
  createdAt: z.string(),
  expiresAt: z.string(),
  decidedAt: z.string().nullable(),
  txid: z.string().nullable(),
  error: z.string().nullable(),
});

const byId = z.object({ approvalId });
const otp = z.string().trim().max(40).optional();

export const APPROVAL_OPERATIONS = byName(
  defineOperation({
    name: 'listApprovals',
    input: z.object({ state: z.enum([...APPROVAL_STATES, 'all']).default('awaiting_approval') }),
    output: z.object({ approvals: z.array(approvalOutput), awaitingMyVote: z.number().int() }),
    access: ALL_ROLES,
    summary: 'Payments awaiting approval (or in another state), with the number awaiting the caller’s vote.',
    msg: 'Approvals fetched successfully.',
    rest: [{ method: 'GET', path: '/api/v1/approvals', query: true }],
  }),
  defineOperation({
    name: 'getApproval',
    input: byId,
    output: approvalOutput,
    access: ALL_ROLES,
    summary: 'One payment awaiting approval, with its review and votes.',
    msg: 'Approval fetched successfully.',
    rest: [{ method: 'GET', path: '/api/v1/approvals/:approvalId', params: true }],
  }),
  defineOperation({
    name: 'approvePayment',
    input: byId.extend({ otp }),
    output: approvalOutput,
    access: ALL_ROLES,
    audit: true,
    summary:
      'Approves a payment; the last approval sends it with exactly the reviewed outputs. A code when the approver has two-step sign-in.',
    msg: 'Approval recorded.',
    rest: [{ method: 'POST', path: '/api/v1/approvals/:approvalId/approve', body: true, params: true }],
  }),
  defineOperation({
    name: 'rejectPayment',
    input: byId.extend({ otp, reason: z.string().trim().max(300).optional() }),
    output: approvalOutput,
    access: ALL_ROLES,
    audit: true,
    summary: 'Rejects a payment awaiting approval: nothing moves.',
    msg: 'Payment rejected.',
    rest: [{ method: 'POST', path: '/api/v1/approvals/:approvalId/reject', body: true, params: true }],
  }),
  defineOperation({
    name: 'cancelApproval',
    input: byId,
    output: approvalOutput,
    access: WALLET_USERS,
    audit: true,
    summary: 'The initiator withdraws a payment awaiting approval: nothing moves.',
    msg: 'Payment cancelled.',
    rest: [{ method: 'POST', path: '/api/v1/approvals/:approvalId/cancel', params: true }],
  }),
  defineOperation({
    name: 'sendApproved',
    input: byId.extend({ walletPassword: z.string().max(1000).optional() }),
    output: approvalOutput,
    access: WALLET_USERS,
    audit: true,
    summary: 'The initiator sends an approved payment from a wallet that needs its password (never stored with the request).',
    msg: 'Approved payment sent.',
    rest: [{ method: 'POST', path: '/api/v1/approvals/:approvalId/send', body: true, params: true }],
  }),
  defineOperation({
    name: 'approvalSettings',
    input: z.object({ expiryHours: z.number().int().min(1).max(720).optional() }),
    output: z.object({ expiryHours: z.number().int() }),
    access: ADMIN,
    // Reading the settings (the Approvals view opening) leaves no entry; changing them does.
    audit: (input) => input.expiryHours !== undefined,
    summary: 'How long a payment may await approval before it expires (hours; give expiryHours to change it).',
    msg: 'Approval settings.',
    rest: [
      { method: 'GET', path: '/api/v1/approvals/settings', query: true },
      { method: 'PUT', path: '/api/v1/approvals/settings', body: true },
    ],
  }),
);
