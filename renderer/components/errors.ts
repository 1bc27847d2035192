import { ApiError } from '../api/client.js';

/** The sentence to show for a failed call: the API's own message, which is written for people. */
export function messageOf(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof LocalCheck) return err.message;
  return 'Something went wrong. Try again.';
}

/** A check the form makes before calling the API (e.g. two passwords differ); its message is shown as is. */
export class LocalCheck extends Error {}

/** The input fields a form shows: a validation error naming one of them is shown under it. */
export interface SplitErrors {
  /** Per field, its problem as a sentence ("Is required."), without the API's `field:` prefix. */
  fields: Record<string, string>;
  /** What names no field of the form, as one message (null: nothing). */
  rest: string | null;
}

const sentence = (t: string) => {
  const s = t.trim();
  return s ? `${s[0].toUpperCase()}${s.slice(1)}${/[.!?]$/.test(s) ? '' : '.'}` : s;
};

/**
 * Splits a failed call's message into the fields it names: the API's validation messages read
 * "email: is not a valid e-mail address; password: is required"; a form shows each part under its field.
 */
export function splitErrors(err: unknown, fields: readonly string[]): SplitErrors {
  const message = messageOf(err);
  if (!(err instanceof ApiError) || err.code !== 'VALIDATION_FAILED') return { fields: {}, rest: message };
  const out: Record<string, string> = {};
  const rest: string[] = [];
  for (const part of message.split('; ')) {
    const m = /^([A-Za-z][\w.]*): (.+)$/s.exec(part);
    const field = m?.[1].split('.')[0];
    if (m && field && fields.includes(field) && !out[field]) out[field] = sentence(m[2]);
    else rest.push(part);
  }
  return { fields: out, rest: rest.length ? rest.join('; ') : null };
}
