import { useState, type FormEvent } from 'react';
import { splitErrors } from './errors.js';

/**
 * The state every form needs around one async action: busy while it runs, the API's message when it
 * fails. Problems with the form's own `fields` (named by the API's validation message) go to
 * `fieldErrors`, to show under each field; the rest is `error`, in words: a field it names is called by its
 * label (`labels`: the form's own, where they differ from FIELD_LABELS). `onSubmit` is ready for a <form>; `run` for a button.
 */
export function useSubmit(action: () => Promise<void>, fields: readonly string[] = [], labels: Readonly<Record<string, string>> = {}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const run = async () => {
    setBusy(true);
    setError(null);
    setFieldErrors({});
    try {
      await action();
    } catch (err) {
      const split = splitErrors(err, fields, labels);
      setFieldErrors(split.fields);
      setError(split.rest);
    } finally {
      setBusy(false);
    }
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void run();
  };
  return { busy, error, setError, fieldErrors, run, onSubmit };
}
