import type { CoreServices } from '../context.js';
import type { EventStreams } from './streams.js';

/** What the event operations need: the streams, which issue the tickets. */
export interface EventServices extends CoreServices {
  eventStreams: EventStreams;
}
