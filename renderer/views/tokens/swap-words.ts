import type { OutputOf } from '../../../shared/operation.js';
import type { OPERATIONS } from '../../../shared/operations.js';

type Offer = OutputOf<typeof OPERATIONS.offer>['offers'][number];
export type OfferedSide = Offer['offered'];
export type WantedSide = Offer['wanted'];

/** What an offer gives, in words: "250 PTS" or "TIX #2". */
export function offeredWords(o: OfferedSide): string {
  return o.sn !== null ? `${o.symbol} #${o.sn}` : `${o.amount.toLocaleString('en-US')} ${o.symbol}`;
}

/** What an offer asks for, in words: "0.0001 BSV (10,000 sat)", "100 GLD" or "TIX #1". */
export function wantedWords(w: WantedSide): string {
  if (w.type === 'BSV') return `${w.amount} BSV (${w.satoshis.toLocaleString('en-US')} sat)`;
  const name = w.symbol ?? w.tokenId ?? 'token';
  return w.sn !== null ? `${name} #${w.sn}` : `${(w.tokenAmount ?? 0).toLocaleString('en-US')} ${name}`;
}
