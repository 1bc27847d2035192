import { z } from 'zod';
import { byName, defineOperation } from '../operation.js';
import { paging } from '../schemas.js';
import { ADMIN } from './access.js';

export const auditEntry = z.object({
  id: z.number().int(),
  at: z.string(),
  actorUid: z.string().nullable(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  target: z.string().nullable(),
  outcome: z.enum(['success', 'error']),
  code: z.string().nullable(),
  client: z.string().nullable(),
});

export const AUDIT_OPERATIONS = byName(
  defineOperation({
    name: 'auditLog',
    input: paging,
    output: z.object({ entries: z.array(auditEntry), meta: z.object({ nextPageToken: z.number().int().nullable() }) }),
    access: ADMIN,
    enterprise: true,
    summary: 'The audit log, newest first, paged.',
    msg: 'Audit log fetched successfully.',
    rest: [{ method: 'GET', path: '/api/v1/audit', query: true }],
  }),
);
