import { z } from 'zod';
import { byName, defineOperation } from '../operation.js';
import { ADMIN, ALL_ROLES } from './access.js';

export const PAYMAIL_OPERATIONS = byName(
  defineOperation({
    name: 'listPaymailHosts',
    input: z.object({}),
    output: z.object({ hosts: z.array(z.object({ domain: z.string(), url: z.string(), source: z.enum(['config', 'admin', 'self']) })) }),
    access: ALL_ROLES,
    summary: 'Where paymail domains are looked up before DNS (e.g. local domains).',
    msg: 'Paymail hosts fetched successfully.',
    rest: [{ method: 'GET', path: '/v1/paymailHosts' }],
  }),
  defineOperation({
    name: 'setPaymailHost',
    input: z.object({
      domain: z
        .string({ error: 'is required' })
        .trim()
        .toLowerCase()
        .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/, { error: 'must be a domain name' }),
      url: z.union([
        z
          .string()
          .trim()
          .regex(/^https?:\/\/[^\s/]+(:\d+)?\/?$/, { error: 'must be an http(s) origin like http://127.0.0.1:7480' }),
        z.null(),
      ]),
    }),
    output: z.object({ domain: z.string(), url: z.string().nullable() }),
    access: ADMIN,
    summary: 'Maps a paymail domain to a host URL (null removes it).',
    msg: 'Paymail host saved.',
    rest: [{ method: 'POST', path: '/v1/paymailHosts', body: true }],
    audit: true,
  }),
);
