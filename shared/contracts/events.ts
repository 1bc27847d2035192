import { z } from 'zod';
import { byName, defineOperation } from '../operation.js';
import { ALL_ROLES } from './access.js';

export const EVENT_OPERATIONS = byName(
  defineOperation({
    name: 'eventTicket',
    input: z.object({}),
    output: z.object({ ticket: z.string(), expiresAt: z.string() }),
    access: ALL_ROLES,
    summary:
      "A single-use ticket (valid 60 s) that opens the live event stream as the caller: `GET /v1/events?ticket=…`, for clients such as the browser's EventSource that cannot send headers.",
    msg: 'Event ticket issued.',
    rest: [{ method: 'POST', path: '/v1/events/ticket' }],
  }),
);
