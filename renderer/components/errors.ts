import { ApiError } from '../api/client.js';

/** The sentence to show for a failed call: the API's own message, which is written for people. */
export function messageOf(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof LocalCheck) return err.message;
  return 'Something went wrong. Try again.';
}

/** A check the form makes before calling the API (e.g. two passwords differ); its message is shown as is. */
export class LocalCheck extends Error {}
