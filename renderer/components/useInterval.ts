import { useEffect } from 'react';

/** Calls `fn` every `ms` while the component is shown (for live balances and chain status). */
export function useInterval(fn: () => void, ms: number): void {
  useEffect(() => {
    const id = setInterval(fn, ms);
    return () => clearInterval(id);
  }, [fn, ms]);
}
