import { BSM, P2PKH, Utils } from '@bsv/sdk';
import { OPERATIONS, type PaymentRequest } from '../../../shared/operations.js';
import type { ParsedInputOf, OutputOf } from '../../../shared/operation.js';
import { callerOf, type OpContext } from '../context.js';
import type { PaymentServices } from './services.js';
import { DomainError } from '../../../shared/errors.js';
import { CAP } from '../paymail/client.js';
import { paymailOf } from '../wallets/paymail-alias.js';
import { resolveWallet } from '../wallets/resolve.js';
import { parsePaymentUri } from './uri.js';

/**
 * The payment-URI resolver: produces the spec's payment request. A paymail is paid P2P when its host
 * offers P2P destinations (then `peer` is its receive-transaction URL and `peerData` the reference), else
 * through basic address resolution with a signed sender request.
 */
export async function resolveUri(
  ctx: OpContext<PaymentServices>,
  input: ParsedInputOf<typeof OPERATIONS.resolveUri>,
): Promise<OutputOf<typeof OPERATIONS.resolveUri>> {
  const parsed = parsePaymentUri(input.uri);
  const target = parsed.kind === 'paymail' ? parsed.paymail : parsed.address;
  // The URI's amount and the caller's must agree: neither silently overrides the other.
  if (
    parsed.satoshis !== undefined &&
    parsed.satoshis !== null &&
    input.amount !== undefined &&
    input.amount !== null &&
    parsed.satoshis !== input.amount
  )
    throw new DomainError(
      'VALIDATION_FAILED',
      `amount: the URI asks for ${parsed.satoshis} satoshis and the request says ${input.amount}; send one amount, or the same in both`,
    );
  const satoshis = parsed.satoshis ?? input.amount ?? null;
  if (satoshis === null || satoshis <= 0)
    throw new DomainError('VALIDATION_FAILED', `amount: say how many satoshis to send to ${target} (in the URI or as amount)`);
  const memo = parsed.purpose ?? `Send to ${target}`;

  if (parsed.kind === 'address') {
    const data: PaymentRequest = {
      uri: input.uri,
      type: parsed.bip21 ? 'bip21' : 'address',
      mainProtocol: parsed.bip21 ? 'bip21' : 'address',
      outputs: [{ script: new P2PKH().lock(parsed.address).toHex(), satoshis }],
      inputs: [],
      memo,
      isBSV: !parsed.bip21,
      peer: null,
      peerData: null,
      peerProtocol: null,
      peerBeef: null,
    };
    return { data };
  }

  const { paymail } = ctx.services;
  const p2p = !parsed.multi && (await paymail.endpoint(parsed.paymail, CAP.p2pDestination)) !== null;
  if (p2p) {
    const dest = await paymail.p2pDestination(parsed.paymail, satoshis);
    const peer = await paymail.endpoint(parsed.paymail, CAP.receiveTransaction);
    if (!peer) throw new DomainError('PAYMAIL_FAILED', `${parsed.paymail} offers P2P destinations but no receive-transaction endpoint.`);
    const peerBeef = await paymail.endpoint(parsed.paymail, CAP.beef);
    return {
      data: {
        uri: input.uri,
        type: 'paymail',
        mainProtocol: 'paymail',
        outputs: dest.outputs,
        inputs: [],
        memo,
        isBSV: true,
        peer,
        peerData: dest.reference,
        peerProtocol: 'paymail',
        peerBeef,
      },
    };
  }

  // Basic resolution: sign the sender request with the paying wallet's identity key when it has a paymail.
  const wallet = await resolveWallet(ctx, input.walletId);
  const senderHandle = paymailOf(wallet) ?? `${callerOf(ctx).uid}@${ctx.services.config.paymailDomain}`;
  const dt = new Date(ctx.services.now()).toISOString();
  let signature: string | undefined;
  if (wallet.type !== 'secure') {
    const account = await ctx.services.keyring.open(wallet);
    signature = BSM.sign(Utils.toArray(`${senderHandle}${satoshis}${dt}${memo}`, 'utf8'), account.identityKey(), 'base64') as string;
  }
  const output = await paymail.basicDestination(parsed.paymail, {
    senderHandle,
    senderName: wallet.title,
    dt,
    amount: satoshis,
    purpose: memo,
    signature,
  });
  return {
    data: {
      uri: input.uri,
      type: 'paymail',
      mainProtocol: 'paymail',
      outputs: [{ script: output, satoshis }],
      inputs: [],
      memo,
      isBSV: true,
      peer: null,
      peerData: null,
      peerProtocol: null,
      peerBeef: null,
    },
  };
}
