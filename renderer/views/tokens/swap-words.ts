import type { OutputOf } from '../../../shared/operation.js';
import type { OPERATIONS } from '../../../shared/operations.js';

type Offer = OutputOf<typeof OPERATIONS.offer>['offers'][number];
export type OfferedSide = Offer['offered'];
export type WantedSide = Offer['wanted'];

/** What an offer gives, in words: "250 PTS" or "TIX #2". */
export function offeredWords(o: OfferedSide): string {
  if (o.sn !== null) return `${o.symbol} #${o.sn}`;
  return o.amount === null
    ? `an unknown number of ${o.symbol} (${o.satoshis.toLocaleString('en-US')} sat)`
    : `${o.amount.toLocaleString('en-US')} ${o.symbol}`;
}

/** What an offer asks for, in words: "0.0001 BSV (10,000 sat)", "100 GLD" or "TIX #1". */
export function wantedWords(w: WantedSide): string {
  if (w.type === 'BSV') return `${w.amount} BSV (${w.satoshis.toLocaleString('en-US')} sat)`;
  const name = w.symbol ?? w.tokenId ?? 'token';
  if (w.sn !== null) return `${name} #${w.sn}`;
  return w.tokenAmount === null
    ? `an unknown number of ${name} (${w.satoshis.toLocaleString('en-US')} sat)`
    : `${w.tokenAmount.toLocaleString('en-US')} ${name}`;
}
