import type { SpendHold } from '../call.js';
import type { Brc100Services } from '../services.js';

/**
 * Spends counted against an app's authorisation for actions that wait for signAction: released if the action
 * is aborted (or fails) before it is sent, kept once it is. In memory: a restart forgets them (the
 * authorisation's count then keeps the spend, the safe side).
 */
const held = new WeakMap<Brc100Services, Map<string, SpendHold>>();

const key = (walletRow: number, reference: string) => `${walletRow}:${reference}`;

export function keepHold(services: Brc100Services, walletRow: number, reference: string, hold: SpendHold): void {
  let m = held.get(services);
  if (!m) held.set(services, (m = new Map()));
  m.set(key(walletRow, reference), hold);
}

/** Forgets the hold; `release` also gives the spend back to the app's authorisation. */
export function endHold(services: Brc100Services, walletRow: number, reference: string, release: boolean): void {
  const m = held.get(services);
  const hold = m?.get(key(walletRow, reference));
  m?.delete(key(walletRow, reference));
  if (release) hold?.release();
}
