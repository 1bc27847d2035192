import { EVENT_OPERATIONS } from '../../../shared/contracts/events.js';
import { callerOf } from '../context.js';
import { implement } from '../operation.js';
import type { EventServices } from './services.js';

export const EVENT_IMPLEMENTATIONS = implement<EventServices>()(EVENT_OPERATIONS, {
  eventTicket: { run: (ctx) => ctx.services.eventStreams.issueTicket(callerOf(ctx)) },
});
