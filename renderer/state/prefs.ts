import { create } from 'zustand';
import type { AmountUnit } from '../../shared/amounts.js';
import { OPERATIONS } from '../../shared/operations.js';
import type { SessionStore } from './session.js';

export interface PrefsState {
  /** The currency amounts are also shown in (a code of the rate table). */
  currency: string;
  /** The unit amount fields start in. */
  inputUnit: AmountUnit;
  /** Price of 1 BSV per currency, from the rate table. */
  rates: Record<string, number>;
  setCurrency(code: string): void;
  setInputUnit(unit: AmountUnit): void;
  /** Loads the rate table again. */
  refreshRates(): Promise<void>;
}

const KEY = 'keystead.prefs';

/**
 * How the user likes amounts shown: a currency beside BSV (USD unless chosen), and the unit they type in.
 * Kept on this computer (localStorage), not in the organisation's database.
 */
export function createPrefsStore(session: SessionStore, storage: Pick<Storage, 'getItem' | 'setItem'> | null) {
  const saved = (() => {
    try {
      return JSON.parse(storage?.getItem(KEY) ?? '{}') as Partial<Pick<PrefsState, 'currency' | 'inputUnit'>>;
    } catch {
      return {};
    }
  })();
  const store = create<PrefsState>((set, get) => {
    const persist = () => storage?.setItem(KEY, JSON.stringify({ currency: get().currency, inputUnit: get().inputUnit }));
    return {
      currency: saved.currency ?? 'USD',
      inputUnit: saved.inputUnit === 'sat' ? 'sat' : 'BSV',
      rates: {},
      setCurrency(code) {
        set({ currency: code });
        persist();
      },
      setInputUnit(unit) {
        set({ inputUnit: unit });
        persist();
      },
      async refreshRates() {
        try {
          const { rates } = await session.getState().call(OPERATIONS.listRates, {});
          set({ rates: Object.fromEntries(rates.filter((r) => r.rate !== null).map((r) => [r.currency, r.rate as number])) });
        } catch {
          /* amounts are then shown without a currency */
        }
      },
    };
  });
  // Rates load once signed in.
  session.subscribe((s, prev) => {
    if (s.phase === 'ready' && (prev.phase !== 'ready' || s.authToken !== prev.authToken)) void store.getState().refreshRates();
  });
  if (session.getState().phase === 'ready') void store.getState().refreshRates();
  return store;
}
