import { useEffect } from 'react';
import { useWalletStore } from '../state/store.js';

/** The shared wallet list, refreshed when a view showing it opens; `reload` after changing a wallet. */
export function useWallets() {
  const data = useWalletStore((s) => s.wallets);
  const error = useWalletStore((s) => s.error);
  const loading = useWalletStore((s) => s.loading);
  const reload = useWalletStore((s) => s.refresh);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, error, loading, reload };
}
