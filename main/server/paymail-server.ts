import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Server, IncomingMessage, ServerResponse } from 'node:http';
import type { Engine } from '../engine/engine.js';
import { RateLimit } from '../engine/paymail/rate-limit.js';
import { answerClientError } from './client-errors.js';
import { registerPaymailRoutes } from './paymail-routes.js';
import { SECURITY_HEADERS } from './guards.js';
import { clientAddress, isLoopbackAddress, limitKey, normaliseAddress } from './client-address.js';

/** What the public listener allows each caller and all of them together. */
export interface PaymailListenerLimits {
  /** Requests one client may make per minute (and at once). */
  perClientPerMinute: number;
  /** Connections open at once, from everyone. */
  maxConnections: number;
  /** Connections open at once from one peer address (an IPv6 /64); trusted proxies are exempt. */
  maxConnectionsPerPeer: number;
  /** Time to send the request line and headers (a slowloris is cut off here). */
  headersTimeoutMs: number;
  /** Time to send the whole request, body included. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection is kept for the next request. */
  keepAliveTimeoutMs: number;
  /** A connection with no traffic either way for this long is closed (a client that stops reading). */
  idleTimeoutMs: number;
}

export const PUBLIC_PAYMAIL_RATE = 120;

export const DEFAULT_LISTENER_LIMITS: PaymailListenerLimits = {
  perClientPerMinute: PUBLIC_PAYMAIL_RATE,
  maxConnections: 256,
  maxConnectionsPerPeer: 16,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  idleTimeoutMs: 60_000,
};

/**
 * A host as the capability URLs may carry it: a DNS name (underscores too, as proxies' upstream names have)
 * or an address, with an optional port; nothing else.
 */
const HOST = /^(?:[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,62})(?:\.[A-Za-z0-9_-]{1,63})*\.?|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$/;

export interface PaymailServerOptions {
  engine: Engine;
  /** The address the world reaches this listener at (e.g. https://pay.example.com); else from the request. */
  publicUrl?: string;
  /** Requests one client may make per minute (and at once); overrides `limits.perClientPerMinute`. */
  perClientPerMinute?: number;
  limits?: Partial<PaymailListenerLimits>;
  /** Proxies whose `X-Forwarded-For` names the client (`--trust-proxy`); without any, the peer is the client. */
  trustedProxies?: readonly string[];
}

/**
 * The public paymail listener (`--paymail-listen`): the bsvalias routes and nothing else, for any Host,
 * meant to sit behind a reverse proxy that terminates TLS. It has no session, no API and no UI. Every
 * limit holds per caller: requests a minute and connections per client, time to send a request, and a
 * body no larger than its route needs (paymail-routes.ts).
 */
export async function buildPaymailServer({
  engine,
  publicUrl,
  perClientPerMinute,
  limits: given = {},
  trustedProxies = [],
}: PaymailServerOptions): Promise<FastifyInstance> {
  const limits = { ...DEFAULT_LISTENER_LIMITS, ...given, ...(perClientPerMinute !== undefined ? { perClientPerMinute } : {}) };
  const trusted = new Set(trustedProxies.map(normaliseAddress));
  const app = Fastify({
    logger: false,
    trustProxy: false,
    // Only routes that take a body raise this (paymail-routes.ts); an unknown route reads none of note.
    bodyLimit: 1024,
    return503OnClosing: true,
    clientErrorHandler: answerClientError,
    connectionTimeout: limits.idleTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    // Node checks the two timeouts above on this interval (30 s by default, which would let a slow client
    // hold its connection that much longer than the limit says).
    http: { headersTimeout: limits.headersTimeoutMs, connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs) },
  });
  capConnections(app.server, limits, trusted);
  const limit = new RateLimit(limits.perClientPerMinute, limits.perClientPerMinute, Date.now);

  app.addHook('onRequest', async (req, reply) => {
    const client = limitKey(clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], trusted));
    if (!limit.take(client)) {
      return reply
        .code(429)
        .header('retry-after', String(limit.retryAfter(client)))
        .send({ code: 'rate-limited', message: 'Too many requests; try again shortly.' });
    }
    // The GET routes take no body; Node would otherwise read and discard whatever a client streams.
    if ((req.method === 'GET' || req.method === 'HEAD') && hasBody(req)) {
      return reply
        .code(413)
        .header('connection', 'close')
        .send({ code: 'payload-too-large', message: 'This route takes no request body.' });
    }
  });
  app.addHook('onSend', async (_req, reply, payload) => {
    reply.headers(SECURITY_HEADERS);
    reply.header('cache-control', 'no-store');
    // Paymail clients in browsers read these routes cross-origin.
    reply.header('access-control-allow-origin', '*');
    return payload;
  });
  app.addHook('onResponse', async (req, reply) => {
    engine.logger.debug({ method: req.method, path: req.url.split('?')[0], status: reply.statusCode, listener: 'paymail' }, 'request');
  });

  const baseUrl = (req: FastifyRequest) => {
    if (publicUrl) return publicUrl;
    const proto =
      String(req.headers['x-forwarded-proto'] ?? 'http')
        .split(',')[0]
        .trim() === 'https'
        ? 'https'
        : 'http';
    // X-Forwarded-Host only from a proxy named with --trust-proxy: a stranger's header would otherwise choose
    // the host of the capability URLs in an answer a cache between could keep for others.
    const fromProxy = trusted.has(normaliseAddress(req.socket.remoteAddress ?? ''));
    const forwarded = fromProxy ? req.headers['x-forwarded-host'] : undefined;
    // Its last entry: what the nearest proxy wrote (one that appends leaves the client's own text before it).
    const host = String((Array.isArray(forwarded) ? forwarded.join(',') : forwarded)?.split(',').pop() ?? req.headers.host ?? '').trim();
    if (!HOST.test(host)) {
      const message = 'The Host header is not a host name or address (with an optional port).';
      throw Object.assign(new Error(message), { statusCode: 400, publicMessage: message });
    }
    return `${proto}://${host}`;
  };
  // A client on this machine (a reverse proxy not named with --trust-proxy, or a local process) is every
  // client at once: the paymail's own budget alone applies to it.
  registerPaymailRoutes(app, engine, baseUrl, (req) => {
    const client = clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], trusted);
    return isLoopbackAddress(client) ? undefined : limitKey(client);
  });
  app.setNotFoundHandler((req, reply) =>
    reply
      .code(404)
      .send({ code: 'not-found', message: `Only the paymail routes are served here, not ${req.method} ${req.url.split('?')[0]}.` }),
  );
  app.setErrorHandler((err: { statusCode?: number; publicMessage?: string }, req, reply) => {
    const status = typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) engine.logger.error({ err }, 'unexpected error on the public paymail listener');
    if (status === 413) {
      // The rest of the body is not worth reading: the connection closes after this answer.
      const message = `The request body is larger than this route takes (${req.routeOptions.bodyLimit ?? 1024} bytes).`;
      return reply.code(413).header('connection', 'close').send({ code: 'payload-too-large', message });
    }
    return reply.code(status).send({
      code: status === 500 ? 'internal' : 'bad-request',
      message: status === 500 ? 'The paymail host failed.' : (err.publicMessage ?? 'The request could not be read.'),
    });
  });
  return app;
}

function hasBody(req: FastifyRequest): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** At most `maxConnections` sockets in all and `maxConnectionsPerPeer` from one peer (proxies exempt). */
function capConnections(
  server: Server<typeof IncomingMessage, typeof ServerResponse>,
  limits: PaymailListenerLimits,
  trusted: ReadonlySet<string>,
): void {
  // Node closes connections past this itself, before any byte is read.
  server.maxConnections = limits.maxConnections;
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    const peer = normaliseAddress(socket.remoteAddress ?? 'unknown');
    if (trusted.has(peer)) return;
    const key = limitKey(peer);
    const n = (open.get(key) ?? 0) + 1;
    if (n > limits.maxConnectionsPerPeer) {
      socket.destroy();
      return;
    }
    open.set(key, n);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
  });
}
