import { useState, type FormEvent } from 'react';
import { messageOf } from './errors.js';

/**
 * The state every form needs around one async action: busy while it runs, the API's message when it
 * fails. `onSubmit` is ready for a <form>; `run` for a button.
 */
export function useSubmit(action: () => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void run();
  };
  return { busy, error, setError, run, onSubmit };
}
