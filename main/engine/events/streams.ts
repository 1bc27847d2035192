import { randomBytes } from 'node:crypto';
import type { LiveEvent } from '../../../shared/events.js';
import { DomainError } from '../../../shared/errors.js';
import { authenticate, reauthenticate } from '../auth/authenticate.js';
import type { Caller, CoreServices, Credentials } from '../context.js';
import type { EventHub } from './hub.js';
import { mayReceive } from './visibility.js';

export const TICKET_TTL_MS = 60_000;
/** How often an open stream checks that its credentials still hold (signed out, expired, user deleted). */
export const STREAM_RECHECK_MS = 30_000;
const MAX_TICKETS = 10_000;

export interface StreamRequest {
  credentials: Credentials;
  /** A ticket from `eventTicket`, instead of credentials (used once). */
  ticket?: string;
  /** The last event id the client saw (`Last-Event-ID`): what came after it is replayed first. */
  lastEventId?: number;
}

export interface EventStream {
  readonly caller: Caller;
  close(): void;
}

/**
 * Opens live event streams for signed-in callers. Each stream gets only the events its caller may see
 * (visibility.ts), checks its credentials again every half minute and ends when they no longer hold.
 * Tickets stand in for credentials where a client cannot send headers: single use, one minute, kept in
 * memory only.
 */
export class EventStreams {
  private readonly tickets = new Map<string, { caller: Caller; expiresAt: number }>();
  private readonly checks = new Set<() => void>();

  constructor(
    private readonly services: Pick<CoreServices, 'repos' | 'now'>,
    private readonly hub: EventHub,
    private readonly recheckMs = STREAM_RECHECK_MS,
  ) {}

  /** A ticket that opens one stream as `caller` (with the session or API key the caller used). */
  issueTicket(caller: Caller): { ticket: string; expiresAt: string } {
    const now = this.services.now();
    for (const [t, v] of this.tickets) if (v.expiresAt <= now) this.tickets.delete(t);
    if (this.tickets.size >= MAX_TICKETS) throw new DomainError('RATE_LIMITED', 'Too many event tickets are waiting to be used. Try again in a minute.');
    const ticket = randomBytes(24).toString('base64url');
    const expiresAt = now + TICKET_TTL_MS;
    this.tickets.set(ticket, { caller, expiresAt });
    return { ticket, expiresAt: new Date(expiresAt).toISOString() };
  }

  private redeem(ticket: string): Caller {
    const found = this.tickets.get(ticket);
    this.tickets.delete(ticket);
    if (!found || found.expiresAt <= this.services.now()) throw new DomainError('INVALID_CREDENTIALS', 'The event ticket is not valid (each ticket opens one stream, within a minute of being issued).');
    return reauthenticate(this.services, found.caller);
  }

  /**
   * Checks every open stream's credentials now (after a sign-out, a role change, a user or key removed),
   * rather than at the next periodic check: a stream must not outlive its access.
   */
  recheckAll(): void {
    for (const check of [...this.checks]) check();
  }

  /**
   * Authenticates, replays what the client missed (or one `reset` event when that is no longer kept), then
   * delivers every new event the caller may see until `close()`, or `end(reason)` when the credentials lapse.
   */
  open(request: StreamRequest, deliver: (event: LiveEvent) => void, end: (reason: string) => void): EventStream {
    let caller = request.ticket !== undefined ? this.redeem(request.ticket) : authenticate(this.services, request.credentials);
    const visible = (audience: Parameters<typeof mayReceive>[2]) => mayReceive(this.services, caller, audience);

    if (request.lastEventId !== undefined) {
      const missed = this.hub.since(request.lastEventId);
      if (missed === null) {
        const reason = 'The events since the last one you saw are no longer kept; reload, then follow the stream.';
        deliver({ id: this.hub.lastId, type: 'reset', time: new Date(this.services.now()).toISOString(), data: { reason } });
      } else for (const s of missed) if (visible(s.audience)) deliver(s.event);
    }
    const stopListening = this.hub.listen((s) => {
      if (visible(s.audience)) deliver(s.event);
    });
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      this.checks.delete(check);
      stopListening();
      clearInterval(recheck);
    };
    const check = () => {
      try {
        caller = reauthenticate(this.services, caller);
      } catch (err) {
        close();
        end(err instanceof DomainError ? err.message : 'The credentials no longer hold.');
      }
    };
    const recheck = setInterval(check, this.recheckMs);
    recheck.unref();
    this.checks.add(check);
    return {
      get caller() {
        return caller;
      },
      close,
    };
  }
}
