import { z } from 'zod';
import { DomainError } from '../../../shared/errors.js';

/**
 * What a foreign paymail host may answer when asked where to pay. The host is a counterparty, not a
 * party the payer trusts: it names where the money goes, never how much. Its answer is checked here
 * before anything is quoted or signed, and refused whole when any part of it is off.
 */

/** Outputs one P2P destination may name: a receiver splitting a payment needs a few, never hundreds. */
export const MAX_DESTINATION_OUTPUTS = 10;
/** The reference travels back to the host with the transaction; a bounded, printable token is enough. */
export const MAX_REFERENCE_LENGTH = 256;

/**
 * Only P2PKH (OP_DUP OP_HASH160 <20 bytes> OP_EQUALVERIFY OP_CHECKSIG). Bare P2PK is not accepted: the
 * paymail specifications describe destinations as addresses (basic resolution answers a "P2PKH output
 * script"), the known hosts (and Keystead's own) answer P2PKH only, and keeping to P2PKH means every
 * recipient the review shows has an address a person can compare; P2PK would also need the key's
 * encoding checked to avoid burning coins. Anything else (OP_RETURN, OP_TRUE, scripts of any size) is refused.
 */
const P2PKH_HEX = /^76a914[0-9a-f]{40}88ac$/;
/** Hex of a P2PKH script: 25 bytes. Longer strings are refused before any pattern runs over them. */
const P2PKH_HEX_LENGTH = 50;

export const isP2pkhScript = (hex: string): boolean => hex.length === P2PKH_HEX_LENGTH && P2PKH_HEX.test(hex);

const script = z
  .string({ error: 'is not a hex string' })
  .max(P2PKH_HEX_LENGTH, { error: `is not a P2PKH script (longer than ${P2PKH_HEX_LENGTH / 2} bytes)` })
  .transform((s) => s.toLowerCase())
  .refine(isP2pkhScript, { error: 'is not a P2PKH script' });

const satoshis = z
  .number({ error: 'is not a number of satoshis' })
  .int({ error: 'is not a whole number of satoshis' })
  .positive({ error: 'is not positive' })
  .max(Number.MAX_SAFE_INTEGER, { error: 'is too large' });

/** The spec's P2P destination answer (BRFC 2a40af698840): outputs and a reference. Unknown fields are ignored. */
export const p2pDestinationAnswer = z.object({
  outputs: z
    .array(z.object({ script, satoshis }), { error: 'is not a list of outputs' })
    .min(1, { error: 'is empty' })
    .max(MAX_DESTINATION_OUTPUTS, { error: `names more than ${MAX_DESTINATION_OUTPUTS} outputs` }),
  reference: z
    .string({ error: 'is missing' })
    .min(1, { error: 'is empty' })
    .max(MAX_REFERENCE_LENGTH, { error: `is longer than ${MAX_REFERENCE_LENGTH} characters` })
    .regex(/^[\x20-\x7e]+$/, { error: 'holds characters that are not printable ASCII' }),
});

/** Basic address resolution's answer (paymentDestination): one P2PKH output script. */
export const basicDestinationAnswer = z.object({ output: script });

export interface P2pDestination {
  outputs: { script: string; satoshis: number }[];
  reference: string;
}

/** The first few problems of a refused answer, as `field: what is wrong`. */
function describe(error: z.ZodError): string {
  const shown = error.issues.slice(0, 3).map((i) => `${i.path.length ? i.path.join('.') : 'the answer'}: ${i.message}`);
  return shown.join('; ') + (error.issues.length > 3 ? ` (and ${error.issues.length - 3} more problems)` : '');
}

/**
 * The host's P2P destination answer, checked: outputs of standard P2PKH scripts, at most
 * MAX_DESTINATION_OUTPUTS of them, that add up to exactly the satoshis asked, and a bounded reference.
 * `who` names the paymail and its host in the refusal.
 */
export function parseP2pDestination(answer: unknown, requested: number, who: string): P2pDestination {
  const r = p2pDestinationAnswer.safeParse(answer);
  if (!r.success)
    throw new DomainError('PAYMAIL_BAD_ANSWER', `${who} answered a P2P destination Keystead will not pay: ${describe(r.error)}.`);
  const total = r.data.outputs.reduce((n, o) => n + o.satoshis, 0);
  if (total !== requested) {
    throw new DomainError(
      'PAYMAIL_BAD_ANSWER',
      `${who} answered a P2P destination whose outputs add up to ${total} satoshis, not the ${requested} asked; Keystead will not pay it.`,
      {
        requested,
        answered: total,
      },
    );
  }
  return { outputs: r.data.outputs.map((o) => ({ script: o.script, satoshis: o.satoshis })), reference: r.data.reference };
}

/** The host's basic address resolution answer, checked: one standard P2PKH output script. */
export function parseBasicDestination(answer: unknown, who: string): string {
  const r = basicDestinationAnswer.safeParse(answer);
  if (!r.success)
    throw new DomainError('PAYMAIL_BAD_ANSWER', `${who} answered a payment destination Keystead will not pay: ${describe(r.error)}.`);
  return r.data.output;
}
