import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { Writable } from 'node:stream';
import { EVENT_TICKET_PARAM, type LiveEvent } from '../../shared/events.js';
import { DomainError } from '../../shared/errors.js';
import type { RouteInput } from '../../shared/route.js';
import { EVENT_ROUTES } from '../../shared/routes/events.js';
import type { Engine } from '../engine/engine.js';
import { credentialsFromHeaders, SECURITY_HEADERS } from './guards.js';
import { registerRoute } from './route-binding.js';

/** A comment line this often keeps proxies and idle timers from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;
/** Streams one user may hold open at once (each tab or script holds one). */
export const MAX_STREAMS_PER_USER = 16;
/**
 * Bytes a stream may hold unsent (a client that stopped reading): past this it is ended, and the client
 * reconnects with its last event id to catch up. A live client reads far faster than events come.
 */
export const MAX_UNSENT_BYTES = 1 << 20;

/**
 * Writes to a stream unless more than `maxUnsent` bytes already wait to be sent: a client that stopped
 * reading gets its connection closed instead of its events buffered without bound in this process.
 */
export function boundedWriter(res: Writable, maxUnsent: number): (chunk: string) => void {
  return (chunk) => {
    if (res.writableEnded || res.destroyed) return;
    if (res.writableLength > maxUnsent) {
      res.destroy();
      return;
    }
    res.write(chunk);
  };
}

/**
 * `GET /v1/events`: the live event stream as Server-Sent Events. Credentials as on every route, or a
 * ticket in the query (from `POST /v1/events/ticket`) for the browser's EventSource, which cannot send
 * headers; `Last-Event-ID` (header, or `lastEventId` in the query) replays what a reconnecting client
 * missed. Returns how to end every open stream (the server calls it when closing).
 */
export function registerEventsRoute(app: FastifyInstance, engine: Engine): () => void {
  const open = new Map<ServerResponse, { uid: string; end: () => void }>();

  async function serve(req: FastifyRequest, reply: FastifyReply, { query, headers }: RouteInput<typeof EVENT_ROUTES.stream>) {
    const ticket = query[EVENT_TICKET_PARAM];
    const lastEventId = parseLastEventId(headers['last-event-id'] ?? query.lastEventId);
    const res = reply.raw;
    const write = boundedWriter(res, MAX_UNSENT_BYTES);
    const frame = (e: LiveEvent) => `id: ${e.id}\nevent: ${e.type}\ndata: ${JSON.stringify(e.data)}\n\n`;
    // Events delivered while the stream is being opened (the replay) wait until the headers are out.
    const early: LiveEvent[] = [];
    let started = false;
    const stream = engine.openEventStream(
      { credentials: credentialsFromHeaders(req.headers), ticket, lastEventId },
      (e) => (started ? write(frame(e)) : early.push(e)),
      (reason) => finish(reason),
    );
    const uid = stream.caller.uid;
    if ([...open.values()].filter((s) => s.uid === uid).length >= MAX_STREAMS_PER_USER) {
      stream.close();
      throw new DomainError('RATE_LIMITED', `At most ${MAX_STREAMS_PER_USER} event streams may be open per user; close one first.`);
    }

    reply.hijack();
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      ...SECURITY_HEADERS,
      'x-accel-buffering': 'no',
    });
    // How long a browser waits before reconnecting; then a comment, so clients see the stream is open.
    write(`retry: 3000\n: connected as ${stream.caller.role}\n\n`);
    started = true;
    for (const e of early) write(frame(e));
    const heartbeat = setInterval(() => write(': keep-alive\n\n'), HEARTBEAT_MS);
    heartbeat.unref();

    let done = false;
    function finish(reason?: string) {
      if (done) return;
      done = true;
      clearInterval(heartbeat);
      stream.close();
      open.delete(res);
      if (reason) write(`event: end\ndata: ${JSON.stringify({ reason })}\n\n`);
      res.end();
    }
    // On shutdown the connection just closes: the client reconnects (with its last id) when Keystead is back.
    open.set(res, { uid, end: () => finish() });
    req.raw.on('close', () => finish());
  }
  registerRoute(app, EVENT_ROUTES.stream, { handler: serve });

  return () => {
    for (const s of [...open.values()]) s.end();
  };
}

function parseLastEventId(s: string | undefined): number | undefined {
  if (s === undefined || s.trim() === '') return undefined;
  // An id we could not have given (not a whole number) replays nothing and asks the client to reload.
  return /^\d{1,16}$/.test(s.trim()) ? Number(s.trim()) : -1;
}
