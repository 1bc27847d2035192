import { useEffect, useRef, useState, type FormEvent } from 'react';
import { splitErrors } from './errors.js';

/**
 * The state every form needs around one async action: busy while it runs, the API's message when it
 * fails. Problems with the form's own `fields` (named by the API's validation message) go to
 * `fieldErrors`, to show under each field; the rest is `error`, in words: a field it names is called by its
 * label (`labels`: the form's own, where they differ from FIELD_LABELS). `onSubmit` is ready for a <form>; `run` for a button.
 * After a <form>'s submit the keyboard is never lost: its busy button let go of the focus, so it goes to the
 * first field in error, else back to the button that submitted it.
 */
export function useSubmit(
  action: () => Promise<void>,
  fields: readonly string[] = [],
  labels: Readonly<Record<string, string>> = {},
  /** The form's values by field: an empty one the API calls "not valid" is said to be required. */
  values: Readonly<Record<string, unknown>> = {},
) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  // The form and its submit button of the last submit, and how many submits have ended (the focus moves after each).
  const submitted = useRef<{ form: HTMLFormElement; submitter: HTMLElement | null } | null>(null);
  const [ended, setEnded] = useState(0);
  useEffect(() => {
    const last = submitted.current;
    if (!ended || !last || !last.form.isConnected) return;
    const invalid = last.form.querySelector<HTMLElement>('[aria-invalid="true"], input[data-invalid]');
    if (invalid) invalid.focus();
    else if (last.submitter?.isConnected && (!document.activeElement || document.activeElement === document.body)) last.submitter.focus();
  }, [ended]);
  const run = async () => {
    setBusy(true);
    setError(null);
    setFieldErrors({});
    try {
      await action();
    } catch (err) {
      const split = splitErrors(err, fields, labels, values);
      setFieldErrors(split.fields);
      setError(split.rest);
    } finally {
      setBusy(false);
    }
  };
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const submitter = (e.nativeEvent as SubmitEvent).submitter;
    submitted.current = { form: e.currentTarget, submitter: submitter instanceof HTMLElement ? submitter : null };
    void run().then(() => setEnded((n) => n + 1));
  };
  return { busy, error, setError, fieldErrors, run, onSubmit };
}
