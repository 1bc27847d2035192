import { z } from 'zod';
import { defineRoute, type RouteTag } from '../route.js';

/**
 * The paymail host's routes (bsvalias): each one's path, parameters, body and answer, defined once. The
 * bodies are checked by the paymail host itself (main/engine/paymail/host.ts), with these schemas, after it
 * has found the paymail: an unknown paymail is a 404 whatever the body.
 */
const PAYMAIL_HOST: RouteTag = {
  name: 'paymail host',
  description:
    "This Keystead as a paymail host (the bsvalias protocol), for every wallet whose paymail is active. No credentials, like any paymail host; answers in the protocol's own shapes, `{code, message}` on errors.",
};

/** A field the protocol defines but Keystead does not need: documented, and ignored when it is not of its type. */
const tolerated = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

const handle = z.object({ handle: z.string().meta({ description: 'The paymail, alias@domain' }) });
const str = z.string();
const int = z.number().int();

const metadata = z.object({
  sender: tolerated(str),
  pubkey: tolerated(str),
  signature: tolerated(str.meta({ description: 'BSM signature of the txid (base64), with `pubkey`' })),
  note: tolerated(str),
});

/** Basic address resolution: only the sender's handle and the time are required (sender validation is off). */
export const basicDestinationBody = z.object({
  senderHandle: str,
  dt: str,
  senderName: tolerated(str),
  amount: tolerated(int),
  purpose: tolerated(str),
  signature: tolerated(str),
});

export const p2pDestinationBody = z.object({ satoshis: int.positive() });

export const receiveTransactionBody = z.object({ hex: str, reference: str, metadata: tolerated(metadata) });

export const receiveBeefBody = z.object({
  beef: str.meta({ description: 'BEEF (BRC-62), hex' }),
  reference: str,
  metadata: tolerated(metadata),
});

const received = z.object({ txid: str, note: str });
const destination = { method: 'POST', tag: PAYMAIL_HOST, auth: 'none', params: handle } as const;
const lookup = { method: 'GET', tag: PAYMAIL_HOST, auth: 'none', params: handle } as const;

export const PAYMAIL_ROUTES = {
  capabilities: defineRoute({
    method: 'GET',
    path: '/.well-known/bsvalias',
    tag: PAYMAIL_HOST,
    auth: 'none',
    summary: "The host's capabilities: where each bsvalias service is reached.",
    response: z.object({ bsvalias: z.literal('1.0'), capabilities: z.record(z.string(), z.union([z.string(), z.boolean()])) }),
  }),
  pki: defineRoute({
    ...lookup,
    path: '/api/bsvalias/id/:handle',
    summary: "A paymail's identity public key (PKI).",
    response: z.object({ bsvalias: str, handle: str, pubkey: z.string().regex(/^0[23][0-9a-f]{64}$/) }),
  }),
  verifyPubkey: defineRoute({
    ...lookup,
    path: '/api/bsvalias/verify-pubkey/:handle/:pubkey',
    params: handle.extend({ pubkey: z.string().meta({ description: 'A public key, hex' }) }),
    summary: "Whether a public key is the paymail's identity key.",
    response: z.object({ bsvalias: str, handle: str, pubkey: str, match: z.boolean() }),
  }),
  publicProfile: defineRoute({
    ...lookup,
    path: '/api/bsvalias/public-profile/:handle',
    summary: "A paymail's public profile: its wallet's name and avatar.",
    response: z.object({ avatar: z.string().nullable(), name: str }),
  }),
  basicDestination: defineRoute({
    ...destination,
    path: '/api/bsvalias/address/:handle',
    summary: 'A receive address (as an output script) for an unauthenticated payer.',
    body: basicDestinationBody,
    response: z.object({ output: str }),
  }),
  p2pDestination: defineRoute({
    ...destination,
    path: '/api/bsvalias/p2p-payment-destination/:handle',
    summary: 'P2P payment destination: outputs to pay and the reference that pays them.',
    body: p2pDestinationBody,
    response: z.object({ outputs: z.array(z.object({ script: str, satoshis: int })), reference: str }),
  }),
  receiveTransaction: defineRoute({
    ...destination,
    path: '/api/bsvalias/receive-transaction/:handle',
    summary: 'P2P receive-transaction: the raw transaction that pays a reference.',
    body: receiveTransactionBody,
    response: received,
  }),
  receiveBeef: defineRoute({
    ...destination,
    path: '/api/bsvalias/beef/:handle',
    summary: 'BEEF receive-transaction: the transaction that pays a reference, with its ancestry, checked by SPV.',
    body: receiveBeefBody,
    response: received,
  }),
};
