import type { CallAuth } from '../../shared/bridge.js';
import type { Envelope, ErrorData } from '../../shared/envelope.js';
import { kindOf } from '../../shared/errors.js';
import type { AnyContract } from '../../shared/operation.js';
import { OPERATIONS } from '../../shared/operations.js';
import { ApiError, type CallResult, type KeysteadClient, type LiveListener } from './client.js';
import { EVENT_TICKET_PARAM, LIVE_EVENT_TYPES, type LiveEventType } from '../../shared/events.js';

/** How long to wait before reconnecting a dropped event stream. */
const RECONNECT_MS = 2_000;

/** The UI's RPC over HTTP: POST /rpc/<operation>, same origin as the page. */
export function createHttpClient(baseUrl = '', pageOrigin: () => string = () => window.location.origin): KeysteadClient {
  async function call(op: AnyContract, input: unknown, auth?: CallAuth): Promise<CallResult<never>> {
    let response: Response;
    try {
      response = await fetch(`${baseUrl}/rpc/${op.name}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(auth?.authToken ? { authorization: `Bearer ${auth.authToken}` } : {}),
          ...(auth?.serviceId ? { serviceid: auth.serviceId } : {}),
        },
        body: JSON.stringify(input ?? {}),
      });
    } catch {
      throw new ApiError('NOT_READY', 'Cannot reach the Keystead server. Is it still running?', 'unavailable');
    }
    const body = (await response.json().catch(() => null)) as Envelope<Record<string, unknown>> | null;
    if (!body || typeof body.data !== 'object') throw new ApiError('INTERNAL', `Unexpected answer from the server (HTTP ${response.status}).`, 'internal');
    if (body.data.status === 'error') {
      // The error's details (a compile's `errors`, a transpile's `errorLogs`, …) travel on the ApiError.
      const { status: _status, code, msg, retryAfter, ...details } = body.data as unknown as ErrorData & Record<string, unknown>;
      throw Object.assign(new ApiError(code, msg, kindOf(code) ?? 'internal', retryAfter), details);
    }
    const { status: _s, msg, ...output } = body.data;
    return { msg, output } as never;
  }
  return {
    host: 'browser',
    keepsToken: true,
    call: call as KeysteadClient['call'],
    async start() {
      const { output } = await call(OPERATIONS.appStatus, {});
      const s = output as { initialised: boolean; version: string; network: string };
      return { state: s.initialised ? 'signIn' : 'firstRun', version: s.version, network: s.network };
    },
    async setup(input) {
      return (await call(OPERATIONS.setup, input)).output;
    },
    async signIn(email, password) {
      return (await call(OPERATIONS.login, { email, password })).output;
    },
    async apiUrl() {
      return pageOrigin();
    },
    liveEvents(auth, listener) {
      return followEvents(baseUrl, (a) => call(OPERATIONS.eventTicket, {}, a) as Promise<CallResult<{ ticket: string }>>, auth, listener);
    },
  };
}

/**
 * The browser's EventSource cannot send headers, so each connection opens with a fresh single-use ticket;
 * after a drop it reconnects with a new ticket and the last id seen, so nothing is missed.
 */
function followEvents(baseUrl: string, ticket: (auth: CallAuth) => Promise<CallResult<{ ticket: string }>>, auth: CallAuth, listener: LiveListener): () => void {
  let source: EventSource | null = null;
  let lastId: number | undefined;
  let stopped = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    stopped = true;
    clearTimeout(retry);
    source?.close();
  };
  const reconnect = () => {
    listener.connected?.(false);
    if (!stopped) retry = setTimeout(() => void connect(), RECONNECT_MS);
  };
  async function connect() {
    let t: string;
    try {
      t = (await ticket(auth)).output.ticket;
    } catch (err) {
      if (err instanceof ApiError && err.kind === 'unauthenticated') {
        stop();
        return listener.end(err.message);
      }
      return reconnect();
    }
    if (stopped) return;
    const query = new URLSearchParams({ [EVENT_TICKET_PARAM]: t, ...(lastId !== undefined ? { lastEventId: String(lastId) } : {}) });
    const es = (source = new EventSource(`${baseUrl}/v1/events?${query}`));
    es.onopen = () => listener.connected?.(true);
    for (const type of LIVE_EVENT_TYPES) {
      es.addEventListener(type, (m) => {
        const id = Number((m as MessageEvent).lastEventId);
        if (Number.isSafeInteger(id)) lastId = id;
        listener.event({ id, type: type as LiveEventType, data: JSON.parse((m as MessageEvent).data) });
      });
    }
    es.addEventListener('end', (m) => {
      stop();
      listener.end((JSON.parse((m as MessageEvent).data) as { reason: string }).reason);
    });
    // The browser would retry with the spent ticket; we reconnect ourselves with a new one.
    es.onerror = () => {
      es.close();
      reconnect();
    };
  }
  void connect();
  return stop;
}
