import { createHash } from 'node:crypto';
import { DomainError } from '../../../shared/errors.js';

/** What a review covers: the paying wallet, every output (script and satoshis), and where the transaction is delivered. */
export interface Reviewed {
  walletID: string;
  outputs: readonly { script: string; satoshis: number }[];
  peer?: string | null;
  peerData?: string | null;
}

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
  };
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

/** Refuses (409) a payment that differs from the one reviewed as `reviewId`. */
export function assertReviewed(reviewId: string, r: Reviewed): void {
  if (reviewIdOf(r) !== reviewId) {
    throw new DomainError(
      'CONFLICT',
      'This payment is not the one that was reviewed (reviewId does not match): its wallet, outputs or receiver differ. Nothing was paid; quote it again and review what it will send.',
    );
  }
}
