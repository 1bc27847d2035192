import { randomBytes } from 'node:crypto';
import type { LiveEvent } from '../../../shared/events.js';
import { DomainError } from '../../../shared/errors.js';
import { authenticate, reauthenticate } from '../auth/authenticate.js';
import type { Caller, CoreServices, Credentials, Repos } from '../context.js';
import type { EventHub } from './hub.js';
import { mayReceive } from './visibility.js';

export const TICKET_TTL_MS = 60_000;
/** How often an open stream checks that its credentials still hold (signed out, expired, user deleted). */
export const STREAM_RECHECK_MS = 30_000;
/** Tickets one user may hold unused at once; asking for more expires that user's oldest first. */
export const MAX_TICKETS_PER_USER = 16;
/**
 * Tickets held in memory for everyone together. The per-user cap keeps one user far below it; if many
 * users together reach it, the oldest ticket anyone holds expires first, so nobody is ever refused one.
 */
export const MAX_TICKETS = 10_000;

interface Ticket {
  caller: Caller;
  expiresAt: number;
}

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
  /** Every unused ticket, in the order they were issued (a Map keeps insertion order). */
  private readonly tickets = new Map<string, Ticket>();
  /** Each user's unused tickets, oldest first. */
  private readonly byUser = new Map<string, Set<string>>();
  private readonly checks = new Set<() => void>();

  constructor(
    private readonly services: Pick<CoreServices, 'now'> & { repos: Pick<Repos, 'users' | 'sessions' | 'apiKeys' | 'wallets'> },
    private readonly hub: EventHub,
    private readonly recheckMs = STREAM_RECHECK_MS,
  ) {}

  /**
   * A ticket that opens one stream as `caller` (with the session or API key the caller used). Never
   * refused: a user past their cap loses their own oldest ticket, so one user cannot lock others out.
   */
  issueTicket(caller: Caller): { ticket: string; expiresAt: string } {
    const now = this.services.now();
    this.dropExpired(now);
    const mine = this.byUser.get(caller.uid) ?? new Set<string>();
    while (mine.size >= MAX_TICKETS_PER_USER) this.drop(mine.values().next().value!);
    while (this.tickets.size >= MAX_TICKETS) this.drop(this.tickets.keys().next().value!);
    const ticket = randomBytes(24).toString('base64url');
    const expiresAt = now + TICKET_TTL_MS;
    this.tickets.set(ticket, { caller, expiresAt });
    mine.add(ticket);
    this.byUser.set(caller.uid, mine);
    return { ticket, expiresAt: new Date(expiresAt).toISOString() };
  }

  /** Unused tickets held now, in all and for one user (for tests and diagnostics). */
  outstanding(uid?: string): number {
    return uid === undefined ? this.tickets.size : (this.byUser.get(uid)?.size ?? 0);
  }

  /** Tickets are issued in order with one lifetime, so the expired ones are at the front. */
  private dropExpired(now: number): void {
    for (const [t, v] of this.tickets) {
      if (v.expiresAt > now) break;
      this.drop(t);
    }
  }

  private drop(ticket: string): Ticket | undefined {
    const found = this.tickets.get(ticket);
    if (!found) return undefined;
    this.tickets.delete(ticket);
    const mine = this.byUser.get(found.caller.uid);
    mine?.delete(ticket);
    if (mine?.size === 0) this.byUser.delete(found.caller.uid);
    return found;
  }

  private redeem(ticket: string): Caller {
    const found = this.drop(ticket);
    if (!found || found.expiresAt <= this.services.now())
      throw new DomainError(
        'INVALID_CREDENTIALS',
        'The event ticket is not valid (each ticket opens one stream, within a minute of being issued).',
      );
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
