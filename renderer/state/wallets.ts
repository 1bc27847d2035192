import { create } from 'zustand';
import { OPERATIONS, type WalletSummary } from '../../shared/operations.js';
import { messageOf } from '../components/errors.js';
import type { SessionStore } from './session.js';

export interface WalletsState {
  /** The signed-in user's wallets with their balances; null until first loaded. */
  wallets: WalletSummary[] | null;
  error: string | null;
  loading: boolean;
  /** Loads the list again; every view showing wallets sees the result. Concurrent calls share one load. */
  refresh(): Promise<void>;
}

/** One list of wallets for every view, refreshed after anything that changes a wallet or its balance. */
export function createWalletsStore(session: SessionStore) {
  let loading: Promise<void> | null = null;
  const store = create<WalletsState>((set) => ({
    wallets: null,
    error: null,
    loading: false,
    refresh() {
      loading ??= (async () => {
        set({ loading: true });
        try {
          const { wallets } = await session.getState().call(OPERATIONS.listWallets, {});
          set({ wallets, error: null });
        } catch (err) {
          set({ error: messageOf(err) });
        } finally {
          set({ loading: false });
          loading = null;
        }
      })();
      return loading;
    },
  }));
  // Another user signing in must never see the last one's wallets.
  session.subscribe((s, prev) => {
    if (s.authToken !== prev.authToken) store.setState({ wallets: null, error: null });
  });
  return store;
}

export type WalletsStore = ReturnType<typeof createWalletsStore>;
