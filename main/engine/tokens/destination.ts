import { Utils } from '@bsv/sdk';
import { DomainError } from '../../../shared/errors.js';
import type { OpContext } from '../context.js';
import { CAP } from '../paymail/client.js';
import type { Submission } from '../payments/submit.js';
import { isAddress, parsePaymentUri } from '../payments/uri.js';
import type { TokenServices } from './services.js';

/** Who receives a token output, and how the transaction reaches them. */
export interface TokenDestination {
  owner: string;
  delivery: Submission['delivery'];
  counterparty: string;
}

/**
 * A token's new owner from an address or a paymail. A paymail host with P2P destinations gets the
 * transaction delivered (Keystead's own host accepts token outputs paying the destination it issued);
 * otherwise basic address resolution gives the owner, and the transaction is broadcast. The P2P request
 * names the token, so a Keystead host can issue a token reference rather than a BSV one; the answer is
 * checked like any other (exactly `satoshis`, standard scripts), and must be one P2PKH output.
 */
export async function tokenDestination(
  ctx: OpContext<TokenServices>,
  to: string,
  satoshis: number,
  note: string,
  token: { tokenId: string; protocol: string },
): Promise<TokenDestination> {
  const { paymail } = ctx.services;
  if (isAddress(to)) return { owner: Utils.toHex(Utils.fromBase58Check(to).data as number[]), delivery: null, counterparty: to };
  const parsed = parsePaymentUri(to);
  if (parsed.kind === 'address')
    return { owner: Utils.toHex(Utils.fromBase58Check(parsed.address).data as number[]), delivery: null, counterparty: parsed.address };
  const handle = parsed.paymail;
  if ((await paymail.endpoint(handle, CAP.p2pDestination)) !== null) {
    const dest = await paymail.p2pDestination(handle, satoshis, { token });
    const peer = await paymail.endpoint(handle, CAP.receiveTransaction);
    const owner = p2pkhOwner(dest.outputs[0]?.script);
    if (!peer || !owner || dest.outputs.length !== 1)
      throw new DomainError('PAYMAIL_FAILED', `${handle} did not give one P2PKH destination a token can be sent to.`);
    return { owner, delivery: { peer, reference: dest.reference, note }, counterparty: handle };
  }
  const script = await paymail.basicDestination(handle, {
    senderHandle: handle,
    dt: new Date(ctx.services.now()).toISOString(),
    amount: satoshis,
    purpose: note,
  });
  const owner = p2pkhOwner(script);
  if (!owner)
    throw new DomainError('PAYMAIL_FAILED', `${handle} resolved to a script that is not a P2PKH address; a token cannot be sent to it.`);
  return { owner, delivery: null, counterparty: handle };
}

function p2pkhOwner(script: string | undefined): string | null {
  const m = /^76a914([0-9a-f]{40})88ac$/.exec(script ?? '');
  return m ? m[1] : null;
}
