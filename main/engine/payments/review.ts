import { createHash } from 'node:crypto';
import { DomainError } from '../../../shared/errors.js';

/**
 * What a review covers: the paying wallet, every output (script and satoshis), where and how the transaction
 * is delivered (the receiver's endpoints, its reference, P2P or broadcast), the note sent with it and the
 * payment URI it pays (the counterparty history and the policy name).
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
}

/** The reviewed parts of a payment request (quote and pay take the same request). */
export const reviewedOf = (walletID: string, r: Omit<Reviewed, 'walletID'>): Reviewed => ({
  walletID,
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
  };
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

/** Refuses (409) a payment that differs from the one reviewed as `reviewId`. */
export function assertReviewed(reviewId: string, r: Reviewed): void {
  if (reviewIdOf(r) !== reviewId) {
    throw new DomainError(
      'CONFLICT',
      'This payment is not the one that was reviewed (reviewId does not match): its wallet, outputs, receiver, note or URI differ. Nothing was paid; quote it again and review what it will send.',
    );
  }
}
