import { useEffect, useRef } from 'react';
import { useLive as useLiveStore } from '../state/store.js';
import type { LiveTopic } from '../state/live.js';

/** Calls `reload` whenever the live event stream says something of `topics` changed (no polling). */
export function useLiveReload(topics: readonly LiveTopic[], reload: () => void): void {
  const tick = useLiveStore((s) => topics.reduce((n, t) => n + s.ticks[t], 0));
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    reload();
    // Only a change of the topics' ticks reloads; `reload` may be a new function on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tick]);
}
