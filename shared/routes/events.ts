import { z } from 'zod';
import { EVENT_TICKET_PARAM } from '../events.js';
import { defineRoute } from '../route.js';

/** A query parameter sent more than once counts by its first value. */
const firstValue = (value: unknown) => (Array.isArray(value) ? value[0] : value);
/** A ticket sent more than once is none that was issued: it is refused as an unknown ticket is. */
const NO_SUCH_TICKET = '';

const lastEventId = z.preprocess(firstValue, z.string().optional()).meta({
  description:
    'The id of the last event the client saw: what it missed since is replayed first (a `reset` event when that is no longer kept).',
});

export const EVENT_ROUTES = {
  stream: defineRoute({
    method: 'GET',
    path: '/v1/events',
    tag: {
      name: 'live events',
      description: 'What changed, as it happens, for clients that follow Keystead without asking again and again.',
    },
    auth: 'credentials',
    summary:
      'Server-Sent Events of what changed (balance, payment.received, payment.state, token.received, block, rate, sync.state, sync.error, feeManager.low, payees; reset when a replay is no longer possible), only what the caller may see. Credentials as on every route, or `?ticket=` from POST /v1/events/ticket; `Last-Event-ID` replays what a reconnecting client missed.',
    query: z.object({
      [EVENT_TICKET_PARAM]: z
        .preprocess((t) => (Array.isArray(t) ? NO_SUCH_TICKET : t), z.string().optional())
        .meta({
          description: 'A ticket from POST /v1/events/ticket, instead of credentials, for clients that cannot send headers (EventSource).',
        }),
      lastEventId,
    }),
    headers: z.object({ 'last-event-id': lastEventId }),
    response: z.string().meta({ description: "Server-Sent Events: `id`, `event` (the type), `data` (JSON); see the README's Live events" }),
    responseType: 'text/event-stream',
  }),
};
