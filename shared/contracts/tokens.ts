import { z } from 'zod';
import { byName, defineOperation } from '../operation.js';
import { lookupInput } from '../payment-schemas.js';
import { batchOutput, issueInput, redeemItem, sendItem, tokenDetails, tokenTemplateInput } from '../token-schemas.js';
import { walletId, withWalletId } from '../wallet-schemas.js';
import { ADMIN, ALL_ROLES, TREASURY, WALLET_USERS } from './access.js';
import { lookupCoin } from './payments.js';

const holdings = z.object({
  totalBalance: z.object({ currency: z.string(), balance: z.number() }),
  coins: z.array(lookupCoin),
  meta: z.object({ nextPageToken: z.number().int().nullable() }),
});

const templateOutput = z.object({
  protocolId: z.string(),
  bytes: z.number().int(),
  installedAt: z.string(),
  source: z.string(),
  /** SHA-256 (hex) of the template text as installed (placeholders included, no surrounding whitespace), to compare with the licensor's. */
  sha256: z.string(),
  /** Why an installed template is not used (it fails the family's structure check), or null. */
  problem: z.string().nullable(),
});

export const TOKEN_OPERATIONS = byName(
  defineOperation({
    name: 'issueToken',
    input: withWalletId(issueInput),
    output: z.object({ tokenId: z.string(), contractTxid: z.string(), issueTxid: z.string(), tokenObj: z.record(z.string(), z.unknown()) }),
    access: TREASURY,
    enterprise: true,
    summary:
      'Issues a token from a wallet: the contract transaction (issuer P2PKH + schema), then the issue transaction (the supply, or one output per NFT).',
    msg: 'Token issued successfully.',
    rest: [
      { method: 'POST', path: '/api/v1/issue', wallet: true, body: true, headers: ['reminting'] },
      { method: 'POST', path: '/v1/issue', wallet: true, body: true, headers: ['reminting'], serviceIdFromCredential: true },
    ],
    audit: true,
  }),
  defineOperation({
    name: 'tokenDetails',
    input: z.object({ id: z.string({ error: 'is required' }).trim().min(1, { error: 'is required' }).max(200) }),
    output: tokenDetails,
    access: ALL_ROLES,
    enterprise: true,
    summary: "A token's details: schema, supply and what circulates, its transactions; for an NFT each serial's data and outpoint.",
    msg: 'Token details fetched successfully.',
    rest: [
      { method: 'GET', path: '/api/v1/token/:id', params: true },
      { method: 'GET', path: '/api/v1/token:id', params: true },
      { method: 'GET', path: '/v1/token/:id', params: true, serviceIdFromCredential: true },
    ],
  }),
  defineOperation({
    name: 'listTokens',
    input: z.object({}),
    output: z.object({ tokens: z.array(tokenDetails.omit({ serials: true })) }),
    access: ALL_ROLES,
    summary: 'The tokens the organisation issued or holds.',
    msg: 'Tokens fetched successfully.',
    rest: [{ method: 'GET', path: '/v1/tokens' }],
  }),
  defineOperation({
    name: 'send',
    input: withWalletId(
      z.object({
        dataArray: z
          .array(sendItem, { error: 'must be an array' })
          .min(1, { error: 'must name at least one recipient' })
          .max(50, { error: 'takes 50 items at most' }),
        walletId,
        /** As pay's: a retried batch with the same key pays each item at most once (the same key with another body is 409). */
        idempotencyKey: z.string().trim().min(1).max(200).optional(),
      }),
    ),
    output: batchOutput,
    access: WALLET_USERS,
    summary: 'Sends BSV or tokens (an NFT by serial) to paymails or addresses; one transaction per item.',
    msg: 'Sent successfully.',
    rest: [{ method: 'POST', path: '/v1/send', wallet: true, body: true, renames: { 'idempotency-key': 'idempotencyKey' } }],
    audit: true,
  }),
  defineOperation({
    name: 'redeemToken',
    input: withWalletId(
      z.object({
        dataArray: z
          .array(redeemItem, { error: 'must be an array' })
          .min(1, { error: 'must name at least one token' })
          .max(50, { error: 'takes 50 items at most' }),
        walletId,
      }),
    ),
    output: batchOutput,
    access: TREASURY,
    enterprise: true,
    summary: 'Redeems tokens: their satoshis go to the redemption address (fungible: by its issuer; an NFT: by its holder).',
    msg: 'Tokens redeemed successfully.',
    rest: [
      { method: 'POST', path: '/api/v1/redeem', wallet: true, body: true },
      { method: 'POST', path: '/v1/redeem', wallet: true, body: true, serviceIdFromCredential: true },
    ],
    audit: true,
  }),
  defineOperation({
    name: 'balance',
    input: withWalletId(lookupInput.omit({ privateKey: true }).extend({ walletId })),
    output: holdings.extend({ walletID: z.string() }),
    access: ALL_ROLES,
    summary: "A wallet's BSV and token holdings, in the lookup's coins shape.",
    msg: 'Balance fetched successfully.',
    rest: [
      { method: 'GET', path: '/v1/balance', wallet: true, headers: ['type', 'currency', 'nextPageToken', 'compact', 'maxResults'] },
      { method: 'GET', path: '/v2/balance', wallet: true, headers: ['type', 'currency', 'nextPageToken', 'compact', 'maxResults'] },
    ],
  }),
  defineOperation({
    name: 'lookup',
    input: lookupInput,
    output: holdings,
    access: ALL_ROLES,
    summary: "The BSV and token balance at a private key's address, with currency, protocol filter and paging.",
    msg: 'operation completed successfully',
    rest: [{ method: 'POST', path: '/v1/lookup', body: true, headers: ['type', 'currency', 'nextPageToken', 'compact', 'maxResults'] }],
  }),
  defineOperation({
    name: 'installTokenTemplate',
    input: tokenTemplateInput,
    output: templateOutput,
    access: ADMIN,
    enterprise: true,
    summary: 'Installs a licensed STAS-family template (locking-script hex with [destinationPublicKeyHash] and [redemptionPublicKeyHash]).',
    msg: 'Token template installed.',
    rest: [{ method: 'POST', path: '/api/v1/tokenTemplates', body: true }],
    audit: true,
  }),
  defineOperation({
    name: 'listTokenTemplates',
    input: z.object({}),
    output: z.object({ templates: z.array(templateOutput) }),
    access: ADMIN,
    enterprise: true,
    summary: 'The installed STAS-family templates.',
    msg: 'Token templates fetched.',
    rest: [{ method: 'GET', path: '/api/v1/tokenTemplates' }],
  }),
  defineOperation({
    name: 'deleteTokenTemplate',
    input: z.object({ protocolId: z.string({ error: 'is required' }).trim().toUpperCase().min(1, { error: 'is required' }).max(20) }),
    output: z.object({ protocolId: z.string() }),
    access: ADMIN,
    enterprise: true,
    summary:
      'Removes an installed STAS-family template (tokens already issued with it stay on chain; they cannot be moved until it is installed again).',
    msg: 'Token template removed.',
    rest: [{ method: 'DELETE', path: '/api/v1/tokenTemplates/:protocolId', params: true }],
    audit: true,
  }),
);
