import type { OutputOf } from '../../../shared/operation.js';
import type { OPERATIONS } from '../../../shared/operations.js';
import { formatBsv, formatSats } from '../../components/format.js';

export type Approval = OutputOf<typeof OPERATIONS.getApproval>;

/** A reviewed amount in its asset's unit: BSV in BSV (and satoshis), tokens in their units, NFTs by count. */
export function reviewAmount(review: Approval['review']): string {
  if (review.asset === 'BSV') return `${formatBsv(review.amount)} BSV (${formatSats(review.amount)})`;
  if (review.asset.startsWith('NFT')) return `${review.amount} ${review.asset.replace(/^NFT/, review.amount === 1 ? 'NFT' : 'NFTs')}`;
  return `${review.amount.toLocaleString('en-US')} units of token ${review.asset}`;
}

export const STATE_LABEL: Record<Approval['state'], string> = {
  awaiting_approval: 'awaiting approval',
  approved: 'approved',
  sending: 'being sent',
  sent: 'sent',
  failed: 'failed',
  rejected: 'rejected',
  expired: 'expired',
  cancelled: 'cancelled',
};

export const STATE_COLOR: Record<Approval['state'], string> = {
  awaiting_approval: 'yellow',
  approved: 'blue',
  sending: 'cyan',
  sent: 'teal',
  failed: 'red',
  rejected: 'red',
  expired: 'gray',
  cancelled: 'gray',
};

/** A payee book entry as far as naming a destination goes. */
export interface NamedDestination {
  name: string;
  destination: string;
}

/**
 * Who a reviewed move pays, in words: the paymail or payment request paid, else each output's address; a
 * destination in the organisation's payee book is named by its entry ("Acme Supplies (1Abc…)").
 */
export function payeeWords(review: Approval['review'], book: readonly NamedDestination[] = []): string[] {
  const named = (destination: string) => {
    const entry = book.find((p) => p.destination.toLowerCase() === destination.toLowerCase());
    return entry ? `${entry.name} (${destination})` : destination;
  };
  if (review.counterparty) return [named(review.counterparty)];
  const out = review.outputs.map((o) => (o.address ? named(o.address) : 'a script output (no address)'));
  return [...new Set(out)];
}
