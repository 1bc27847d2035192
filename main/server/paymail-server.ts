import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Engine } from '../engine/engine.js';
import { RateLimit } from '../engine/paymail/rate-limit.js';
import { answerClientError } from './client-errors.js';
import { registerPaymailRoutes } from './paymail-routes.js';
import { SECURITY_HEADERS } from './guards.js';

export interface PaymailServerOptions {
  engine: Engine;
  /** The address the world reaches this listener at (e.g. https://pay.example.com); else from the request. */
  publicUrl?: string;
  /** Requests one client may make per minute (and at once). */
  perClientPerMinute?: number;
}

export const PUBLIC_PAYMAIL_RATE = 120;

/**
 * The public paymail listener (`--paymail-listen`): the bsvalias routes and nothing else, for any Host,
 * meant to sit behind a reverse proxy that terminates TLS. It has no session, no API and no UI; each
 * client is rate limited (the proxy's `X-Forwarded-For` names the client when the proxy is on this host).
 */
export async function buildPaymailServer({ engine, publicUrl, perClientPerMinute = PUBLIC_PAYMAIL_RATE }: PaymailServerOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, trustProxy: false, bodyLimit: 32 * 1024 * 1024, return503OnClosing: true, clientErrorHandler: answerClientError });
  const limit = new RateLimit(perClientPerMinute, perClientPerMinute, Date.now);

  app.addHook('onRequest', async (req, reply) => {
    const client = clientOf(req);
    if (!limit.take(client)) {
      return reply.code(429).header('retry-after', String(limit.retryAfter(client))).send({ code: 'rate-limited', message: 'Too many requests; try again shortly.' });
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
    const proto = String(req.headers['x-forwarded-proto'] ?? 'http').split(',')[0].trim() === 'https' ? 'https' : 'http';
    return `${proto}://${req.headers['x-forwarded-host'] ?? req.headers.host}`;
  };
  registerPaymailRoutes(app, engine, baseUrl);
  app.setNotFoundHandler((req, reply) => reply.code(404).send({ code: 'not-found', message: `Only the paymail routes are served here, not ${req.method} ${req.url.split('?')[0]}.` }));
  app.setErrorHandler((err: { statusCode?: number }, _req, reply) => {
    const status = typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) engine.logger.error({ err }, 'unexpected error on the public paymail listener');
    return reply.code(status).send({ code: status === 500 ? 'internal' : 'bad-request', message: status === 500 ? 'The paymail host failed.' : 'The request could not be read.' });
  });
  return app;
}

/** The client a request comes from: the proxy's X-Forwarded-For when the proxy is this host, else the peer. */
function clientOf(req: FastifyRequest): string {
  const peer = req.socket.remoteAddress ?? 'unknown';
  const forwarded = req.headers['x-forwarded-for'];
  const local = peer === '127.0.0.1' || peer === '::1' || peer === '::ffff:127.0.0.1';
  if (local && typeof forwarded === 'string' && forwarded.trim()) return forwarded.split(',')[0].trim();
  return peer;
}
