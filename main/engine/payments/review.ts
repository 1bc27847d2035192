import { createHash } from 'node:crypto';
import { DomainError } from '../../../shared/errors.js';

import type { FeePolicy } from '../../chain/types.js';

/**
 * What a review covers: the paying wallet, every output (script and satoshis), where and how the transaction
 * is delivered (the receiver's endpoints, its reference, P2P or broadcast), the note sent with it, the
 * payment URI it pays (the counterparty history and the policy name) and the network fee rate it was priced
 * at (the fee the person saw: a provider that raises its rate between the review and the pay cannot make
 * the payment cost more than was confirmed).
 */
export interface Reviewed {
  walletID: string;
  outputs: readonly { script: string; satoshis: number }[];
  peer?: string | null;
  peerData?: string | null;
  peerProtocol?: string | null;
  peerBeef?: string | null;
  memo?: string | null;
  uri?: string | null;
  feeRate: Pick<FeePolicy, 'satoshis' | 'bytes'>;
}

/** The reviewed parts of a payment request (quote and pay take the same request), priced at `policy`. */
export const reviewedOf = (walletID: string, r: Omit<Reviewed, 'walletID' | 'feeRate'>, policy: FeePolicy): Reviewed => ({
  walletID,
  feeRate: { satoshis: policy.satoshis, bytes: policy.bytes },
  outputs: r.outputs,
  peer: r.peer,
  peerData: r.peerData,
  peerProtocol: r.peerProtocol,
  peerBeef: r.peerBeef,
  memo: r.memo,
  uri: r.uri,
});

/**
 * The id of a reviewed payment: a hash over exactly what will be signed and where it goes. The quote
 * answers it; pay, given it, refuses any request that is not the reviewed one, so a client can prove it
 * signs what the person confirmed (a re-resolved URI, a changed output or wallet no longer matches).
 */
export function reviewIdOf(r: Reviewed): string {
  const canonical = {
    walletID: r.walletID,
    outputs: r.outputs.map((o) => [o.script.toLowerCase(), o.satoshis]),
    peer: r.peer ?? null,
    peerData: r.peerData ?? null,
    peerProtocol: r.peerProtocol ?? null,
    peerBeef: r.peerBeef ?? null,
    memo: r.memo ?? null,
    uri: r.uri ?? null,
    feeRate: feeRateKey(r.feeRate),
  };
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** A rate as its lowest terms, so 50 per 1,000 bytes and 1 per 20 bytes review alike. */
function feeRateKey({ satoshis, bytes }: Reviewed['feeRate']): [number, number] {
  const d = gcd(satoshis, bytes) || 1;
  return [satoshis / d, bytes / d];
}

/** Refuses (409) a payment that differs from the one reviewed as `reviewId`. */
export function assertReviewed(reviewId: string, r: Reviewed): void {
  if (reviewIdOf(r) !== reviewId) {
    throw new DomainError(
      'CONFLICT',
      `This payment is not the one that was reviewed (reviewId does not match): its wallet, outputs, receiver, note or URI differ, or the network fee rate changed since (now ${r.feeRate.satoshis} satoshis per ${r.feeRate.bytes} bytes). Nothing was paid; quote it again and review what it will send.`,
    );
  }
}
