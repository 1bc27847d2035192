import { z } from 'zod';

/** Field schemas reused by several operations. Inputs are trimmed; e-mails are compared lower-case. */
export const email = z
  .string({ error: 'must be a string' })
  .trim()
  .toLowerCase()
  .max(254, { error: 'is too long' })
  .pipe(z.email({ error: 'is not a valid e-mail address' }));

export const PASSWORD_RULE = 'at least 10 characters, with a letter and a digit or symbol';

export const newPassword = z
  .string({ error: 'must be a string' })
  .min(10, { error: `must be ${PASSWORD_RULE}` })
  .max(200, { error: 'is too long (200 characters at most)' })
  .refine((p) => /[A-Za-z]/.test(p) && /[^A-Za-z]/.test(p), { error: `must be ${PASSWORD_RULE}` });

/** A password being checked, not chosen: any non-empty string, so old or odd passwords still log in. */
export const givenPassword = z.string({ error: 'must be a string' }).min(1, { error: 'is required' }).max(200, { error: 'is too long' });

export const personName = z.string({ error: 'must be a string' }).trim().max(100, { error: 'is too long' });

export const organisationName = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, { error: 'is required' })
  .max(200, { error: 'is too long' });
