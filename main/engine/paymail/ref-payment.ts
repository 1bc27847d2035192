import { TOKEN_PROTOCOLS } from '../token-templates/template.js';
import { tokenIdOf } from '../token-templates/template.js';
import type { TemplateRegistry } from '../token-templates/registry.js';
import type { PaymailRef } from '../../store/repos/payments.js';

/** A token id as Keystead writes it: the redemption key hash, a dash, the symbol. */
const TOKEN_ID = /^[0-9a-f]{40}-[^\s]{1,128}$/;

/**
 * What a P2P destination request asks to be paid in: the `token: {tokenId, protocol}` a Keystead sender
 * adds when it sends tokens, or nothing for BSV. A malformed one is an error (a string), never read as BSV.
 */
export function tokenRequestOf(body: unknown): { tokenId: string; protocol: string } | null | string {
  const token = (body as { token?: unknown } | null)?.token;
  if (token === undefined || token === null) return null;
  const t = token as { tokenId?: unknown; protocol?: unknown };
  if (typeof token !== 'object' || Array.isArray(token) || typeof t.tokenId !== 'string' || !TOKEN_ID.test(t.tokenId)) {
    return 'token.tokenId must be a token id (<redemption key hash>-<symbol>).';
  }
  if (typeof t.protocol !== 'string' || !(TOKEN_PROTOCOLS as readonly string[]).includes(t.protocol))
    return `token.protocol must be one of ${TOKEN_PROTOCOLS.join(', ')}.`;
  return { tokenId: t.tokenId, protocol: t.protocol };
}

/**
 * Whether one output of a delivered transaction pays one output issued for a reference, in what the
 * reference was issued for: a BSV reference only by plain satoshis to the issued script itself (a token
 * output never counts as BSV, whatever its satoshis); a token reference only by an output of that token
 * (a template Keystead recognises, the same token id) owned by the issued address. Whether the token
 * traces back to its issue is decided by the token books as for every received token: until it does it
 * is not counted, announced or presented as received.
 */
export function paysIssuedOutput(
  ref: Pick<PaymailRef, 'kind' | 'tokenId'>,
  want: { script: string; satoshis: number },
  output: { script: string; satoshis: number },
  templates: TemplateRegistry,
): boolean {
  if (output.satoshis < want.satoshis) return false;
  if (ref.kind === 'bsv') return output.script === want.script;
  const owner = /^76a914([0-9a-f]{40})88ac$/.exec(want.script)?.[1];
  const r = owner ? templates.recognise(output.script) : null;
  return !!r && r.token.owner === owner && tokenIdOf(r.token) === ref.tokenId;
}
