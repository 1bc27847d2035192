import { ApiError, createApiClient, sessionHeaders, type CallResult } from '../../shared/api-client.js';
import type { CallAuth } from '../../shared/bridge.js';
import { OPERATIONS } from '../../shared/operations.js';
import type { KeysteadClient, LiveListener } from './client.js';
import { EVENT_TICKET_PARAM, LIVE_EVENT_TYPES, type LiveEventType } from '../../shared/events.js';

/** How long to wait before reconnecting a dropped event stream. */
const RECONNECT_MS = 2_000;

/** The UI's RPC over HTTP: POST /rpc/<operation>, same origin as the page. */
export function createHttpClient(baseUrl = '', pageOrigin: () => string = () => window.location.origin): KeysteadClient {
  const api = createApiClient({ baseUrl, routes: 'rpc' });
  const call: KeysteadClient['call'] = (op, input, auth) => api.call(op, input, sessionHeaders(auth));
  return {
    host: 'browser',
    keepsToken: true,
    call,
    async start() {
      const { output } = await call(OPERATIONS.appStatus, {});
      return { state: output.initialised ? 'signIn' : 'firstRun', version: output.version, network: output.network };
    },
    async setup(input) {
      return (await call(OPERATIONS.setup, input)).output;
    },
    async signIn(email, password, _locked, otp) {
      return (await call(OPERATIONS.login, { email, password, otp })).output;
    },
    async apiUrl() {
      return pageOrigin();
    },
    liveEvents(auth, listener) {
      return followEvents(baseUrl, (a) => call(OPERATIONS.eventTicket, {}, a), auth, listener);
    },
  };
}

/**
 * The browser's EventSource cannot send headers, so each connection opens with a fresh single-use ticket;
 * after a drop it reconnects with a new ticket and the last id seen, so nothing is missed.
 */
function followEvents(
  baseUrl: string,
  ticket: (auth: CallAuth) => Promise<CallResult<{ ticket: string }>>,
  auth: CallAuth,
  listener: LiveListener,
): () => void {
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
