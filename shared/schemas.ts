import { z } from 'zod';
import { normalizeRole, ROLES, type Role } from './roles.js';
import { isOneInertLine } from './remote-text.js';

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

/**
 * Names others see (a wallet's title, a person's name, the organisation's) are shown in lists, approvals and
 * the CLI's terminal: one line, without control characters or bidi overrides that would forge or reorder
 * what an approver reads.
 */
const ONE_LINE = { error: 'must be one line of text, without control characters' };

/** A name of at most `max` characters, trimmed; `required` refuses an empty one. */
const oneLineName = (max: number, required: boolean, notText = 'must be a string') => {
  const text = z.string({ error: notText }).trim();
  return (required ? text.min(1, { error: 'is required' }) : text).max(max, { error: 'is too long' }).refine(isOneInertLine, ONE_LINE);
};

export const personName = oneLineName(100, false);
export const organisationName = oneLineName(200, true);
export const walletTitle = oneLineName(100, true, 'is required');

/** A role in any accepted spelling ("Api User", "MANAGER"), delivered as the wire role. */
export const role = z.string({ error: 'must be a string' }).transform((value, ctx): Role => {
  const r = normalizeRole(value);
  if (!r) {
    ctx.addIssue({ code: 'custom', message: `must be one of: ${ROLES.join(', ')}` });
    return z.NEVER;
  }
  return r;
});

export const id = z.string({ error: 'must be a string' }).trim().min(1, { error: 'is required' }).max(100, { error: 'is too long' });

export const label = z.string({ error: 'must be a string' }).trim().max(100, { error: 'is too long' });

/** Paging for lists that grow (audit log): newest first, `nextPageToken` from the previous page. */
export const paging = z.object({
  limit: z.coerce
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be at least 1' })
    .max(200, { error: 'must be 200 at most' })
    .default(50),
  nextPageToken: z.coerce
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number' })
    .positive({ error: 'must be positive' })
    .nullish(),
});
