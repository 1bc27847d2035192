import { z } from 'zod';
import { byName, defineOperation } from '../operation.js';
import { ROLES } from '../roles.js';
import { ADMIN, ALL_ROLES, WALLET_USERS } from './access.js';

/**
 * The organisation's payment policy: an ordered list of rules (the first that matches decides) and a
 * default. Every move of value (a payment, a token's issue, transfer or redemption, a sweep, a fee-manager
 * top-up) is checked against the policy in force, in the engine, whatever the transport. Conditions of a
 * rule must all hold for it to match; a list inside a condition matches any of its entries.
 */

const role = z.enum(ROLES);
const positiveInt = z.number().int().positive();
const text = (max: number) => z.string().trim().min(1).max(max);

/** An amount a move is compared with, in its asset's unit: satoshis of BSV, token units, NFTs by count, or a currency value of BSV. */
export const policyAmount = z
  .object({
    satoshis: positiveInt.optional(),
    tokens: positiveInt.optional(),
    count: positiveInt.optional(),
    /** A value of BSV in a currency of the rate table, at the rate of the moment ("0.1" BSV is satoshis: 10000000). */
    value: z.object({ currency: z.string().trim().toUpperCase().length(3), amount: z.string().regex(/^\d{1,12}(\.\d{1,2})?$/) }).optional(),
  })
  .strict()
  .refine((a) => [a.satoshis, a.tokens, a.count, a.value].filter((x) => x !== undefined).length === 1, {
    message: 'give exactly one of satoshis, tokens, count or value',
  });
export type PolicyAmount = z.infer<typeof policyAmount>;

export const WINDOW_PERIODS = ['24h', '7d', '30d'] as const;
export const WINDOW_MS: Record<(typeof WINDOW_PERIODS)[number], number> = {
  '24h': 86_400_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
};

/** Where a move pays: conditions on every destination (`payees`, `inBook`, `paymailDomains`) or on any (`notInBook`). */
export const destinationCondition = z.discriminatedUnion('kind', [
  /** Every destination is one of these payees (usable: past its cooling-off period). */
  z.object({ kind: z.literal('payees'), payees: z.array(text(100)).min(1).max(200) }).strict(),
  /** Every destination is in the payee book and usable. */
  z.object({ kind: z.literal('inBook') }).strict(),
  /** Some destination is not in the payee book, or is a payee still in its cooling-off period. */
  z.object({ kind: z.literal('notInBook') }).strict(),
  /** The move pays a paymail of one of these domains. */
  z.object({ kind: z.literal('paymailDomains'), domains: z.array(text(253).toLowerCase()).min(1).max(100) }).strict(),
]);
export type DestinationCondition = z.infer<typeof destinationCondition>;

export const ASSETS = ['bsv', 'tokens', 'nfts'] as const;

export const policyConditions = z
  .object({
    /** Who asks: any of these users (uid or e-mail), roles or API keys (their ids). */
    initiator: z
      .object({
        users: z.array(text(200)).max(200).optional(),
        roles: z.array(role).max(ROLES.length).optional(),
        apiKeys: z.array(text(100)).max(200).optional(),
      })
      .strict()
      .optional(),
    /** From any of these wallets (walletID). */
    wallets: z.array(text(100)).min(1).max(500).optional(),
    /** What moves: BSV, tokens (optionally only these token ids), NFTs. */
    assets: z.array(z.enum(ASSETS)).min(1).max(3).optional(),
    tokenIds: z.array(text(200)).min(1).max(200).optional(),
    /** The move's own amount is above this (in its asset's unit; a BSV amount never matches a token move). */
    amountOver: policyAmount.optional(),
    destination: destinationCondition.optional(),
    /** What was moved in the period (per initiator, or per wallet), this move and those awaiting approval included, is above this. */
    window: z
      .object({ per: z.enum(['initiator', 'wallet']), period: z.enum(WINDOW_PERIODS), over: policyAmount })
      .strict()
      .optional(),
  })
  .strict();
export type PolicyConditions = z.infer<typeof policyConditions>;

export const approvalRequirement = z
  .object({
    count: z.number().int().min(1).max(10),
    /** Who may approve: anyone with one of these roles, or one of these users (uid or e-mail). The initiator never counts. */
    roles: z.array(role).max(ROLES.length).default([]),
    users: z.array(text(200)).max(200).default([]),
  })
  .strict()
  .refine((a) => a.roles.length + a.users.length > 0, { message: 'name the roles or users who may approve' });

export const policyAction = z.discriminatedUnion('action', [
  z.object({ action: z.literal('allow') }).strict(),
  z.object({ action: z.literal('deny'), reason: text(300) }).strict(),
  z.object({ action: z.literal('approve'), approvals: approvalRequirement }).strict(),
]);
export type PolicyAction = z.infer<typeof policyAction>;

export const policyRule = z.intersection(z.object({ name: text(120).optional(), when: policyConditions.default({}) }), policyAction);
export type PolicyRule = z.infer<typeof policyRule>;

export const policyDocument = z
  .object({
    rules: z.array(policyRule).max(200),
    default: policyAction,
  })
  .strict();
export type PolicyDocument = z.infer<typeof policyDocument>;
export type PolicyDocumentInput = z.input<typeof policyDocument>;

/** The policy before an organisation writes one: everything its roles allow. */
export const OPEN_POLICY: PolicyDocument = { rules: [], default: { action: 'allow' } };

export const POLICY_STATES = ['proposed', 'active', 'rejected', 'superseded'] as const;

export const policyVersionOutput = z.object({
  version: z.number().int(),
  state: z.enum(POLICY_STATES),
  document: policyDocument,
  /** Each rule and the default, in words. */
  words: z.array(z.string()),
  proposedBy: z.string(),
  proposedAt: z.string(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  note: z.string().nullable(),
});

export const policyOutput = z.object({
  /** The version in force (0: none written yet, everything the roles allow is allowed). */
  active: policyVersionOutput.nullable(),
  /** A change waiting for another admin (four-eyes), if any. */
  proposed: policyVersionOutput.nullable(),
  /** Every version, newest first. */
  versions: z.array(policyVersionOutput),
  /** Whether a change needs another admin's approval (the organisation has two or more admins). */
  fourEyes: z.boolean(),
});

export const policyDecisionOutput = z.object({
  decision: z.enum(['allow', 'deny', 'approve']),
  /** Which rule decided: its position (from 1) and name, or the default. */
  rule: z.string(),
  /** The decision in words, as the payment review shows it. */
  words: z.string(),
  approvalsNeeded: z.number().int(),
});

export const POLICY_OPERATIONS = byName(
  defineOperation({
    name: 'getPolicy',
    input: z.object({}),
    output: policyOutput,
    access: ALL_ROLES,
    summary: 'The payment policy in force, a change awaiting approval, and every version.',
    msg: 'Policy fetched successfully.',
    rest: [{ method: 'GET', path: '/api/v1/policies' }],
  }),
  defineOperation({
    name: 'proposePolicy',
    input: z.object({ document: policyDocument, note: z.string().trim().max(500).optional() }),
    output: policyOutput,
    access: ADMIN,
    audit: true,
    summary: 'Writes a new policy version: in force at once with one admin, else once another admin approves it.',
    msg: 'Policy saved.',
    rest: [{ method: 'POST', path: '/api/v1/policies', body: true }],
  }),
  defineOperation({
    name: 'decidePolicy',
    input: z.object({
      version: z.coerce.number().int().positive(),
      decision: z.enum(['approve', 'reject']),
      note: z.string().trim().max(500).optional(),
    }),
    output: policyOutput,
    access: ADMIN,
    audit: true,
    summary: 'Another admin approves or rejects a proposed policy version (four-eyes).',
    msg: 'Policy decision recorded.',
    rest: [{ method: 'POST', path: '/api/v1/policies/:version/decision', body: true, params: true }],
  }),
  defineOperation({
    name: 'previewPolicy',
    input: z.object({
      walletId: z.string().trim().min(1).max(100).optional(),
      /** What would be paid: outputs (script, satoshis), or a token id and its amount. */
      outputs: z
        .array(z.object({ script: z.string().regex(/^[0-9a-fA-F]*$/), satoshis: z.number().int().nonnegative() }))
        .max(1000)
        .default([]),
      tokenId: z.string().trim().max(200).optional(),
      tokens: z.number().int().nonnegative().optional(),
      /** The paymail paid, if it is one. */
      paymail: z.string().trim().max(300).optional(),
    }),
    output: policyDecisionOutput,
    access: WALLET_USERS,
    summary: 'What the policy would decide for a payment, in words, before it is confirmed.',
    msg: 'Policy decision computed.',
    rest: [{ method: 'POST', path: '/api/v1/policies/preview', body: true, wallet: true }],
  }),
);
