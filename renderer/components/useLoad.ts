import { useCallback, useEffect, useRef, useState } from 'react';
import { messageOf } from './errors.js';

/**
 * Loads data once and on demand; keeps the last good data while reloading. Only the answer to the latest
 * request is kept: when the inputs change (another wallet chosen) while an earlier request is still out, its
 * late answer is dropped instead of showing one wallet's data under another's name.
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[] = []) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const latest = useRef(0);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const run = useCallback(load, deps);
  const reload = useCallback(async () => {
    const ticket = ++latest.current;
    setLoading(true);
    try {
      const value = await run();
      if (ticket !== latest.current) return;
      setData(value);
      setError(null);
    } catch (err) {
      if (ticket === latest.current) setError(messageOf(err));
    } finally {
      if (ticket === latest.current) setLoading(false);
    }
  }, [run]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, error, loading, reload };
}
