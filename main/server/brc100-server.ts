import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { originator as originatorSchema } from '../../shared/contracts/apps.js';
import { DomainError } from '../../shared/errors.js';
import type { Engine } from '../engine/engine.js';
import { RateLimit } from '../engine/paymail/rate-limit.js';
import { unauthorized, WalletErr } from '../engine/apps/werr.js';
import { answerClientError } from './client-errors.js';
import { SECURITY_HEADERS } from './guards.js';

/** Where the BRC-100 listener listens when the operator turns it on without saying (the reference wallets' port). */
export const DEFAULT_BRC100_LISTEN = '127.0.0.1:3321';

export interface Brc100Limits {
  /** Largest request body (encrypt/decrypt carry their data as JSON arrays of bytes). */
  bodyLimit: number;
  /** Calls one originator may make per minute (and at once). */
  perOriginatorPerMinute: number;
}

export const DEFAULT_BRC100_LIMITS: Brc100Limits = { bodyLimit: 1024 * 1024, perOriginatorPerMinute: 600 };

export interface Brc100ServerOptions {
  engine: Engine;
  limits?: Partial<Brc100Limits>;
}

/**
 * The host[:port] an Origin or Originator header names: a URL's host (`http://app.example` → `app.example`),
 * or a bare host as the header may carry it. Null when it names none (absent, `null`, not a host).
 */
export function originatorOf(header: string | string[] | undefined, fromBrowserPage = false): string | null {
  if (typeof header !== 'string' || header.trim() === '' || header.trim() === 'null') return null;
  let host = header.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(host)) {
    try {
      const url = new URL(host);
      // The app's name drops the scheme, so a browser page served over plain HTTP (which anyone on the network
      // path can write) would pass for the HTTPS app of the same host: in a browser only a local development
      // server may use it. A process (@bsv/sdk's HTTPWalletJSON in Node writes `Origin: http://<originator>`)
      // names itself, as it could with Originator anyway.
      if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
      if (fromBrowserPage && url.protocol === 'http:' && !isLoopbackHost(url.hostname)) return null;
      host = url.host;
    } catch {
      return null;
    }
  }
  const parsed = originatorSchema.safeParse(host);
  return parsed.success ? parsed.data : null;
}

const isLoopbackHost = (hostname: string) =>
  hostname === 'localhost' || hostname.endsWith('.localhost') || /^127\./.test(hostname) || hostname === '[::1]';

/**
 * The BRC-100 listener (`--brc100-listen`): `POST /<method>` with the JSON @bsv/sdk's HTTPWalletJSON sends,
 * answered by the engine's Brc100Host. Any web page in the user's browser can reach it, so every call names
 * its app (Origin / Originator, agreeing when both are sent) and runs only for an app an admin allowed; CORS
 * lets browser apps read the answers, which is safe because the gate, not the browser, decides.
 */
export async function buildBrc100Server({ engine, limits: given = {} }: Brc100ServerOptions): Promise<FastifyInstance> {
  const limits = { ...DEFAULT_BRC100_LIMITS, ...given };
  const app = Fastify({
    logger: false,
    trustProxy: false,
    bodyLimit: limits.bodyLimit,
    return503OnClosing: true,
    clientErrorHandler: answerClientError,
    requestTimeout: 120_000,
  });
  const rate = new RateLimit(limits.perOriginatorPerMinute, limits.perOriginatorPerMinute, Date.now);

  // HTTPWalletJSON sends `JSON.stringify(args)`, which is nothing for a call without arguments.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(Object.assign(new Error('The request body is not JSON.'), { statusCode: 400 }), undefined);
    }
  });

  app.addHook('onSend', async (req, reply, payload) => {
    reply.headers(SECURITY_HEADERS);
    reply.header('cache-control', 'no-store');
    // Browser apps read the answers cross-origin; what they may do is decided by the originator gate.
    const origin = req.headers.origin;
    if (typeof origin === 'string' && origin !== 'null') {
      reply.header('access-control-allow-origin', origin);
      reply.header('vary', 'Origin');
    }
    return payload;
  });
  app.addHook('onResponse', async (req, reply) => {
    engine.logger.debug({ method: req.method, path: req.url.split('?')[0], status: reply.statusCode, listener: 'brc100' }, 'request');
  });

  app.options('/:method', async (_req, reply) =>
    reply
      .code(204)
      .header('access-control-allow-methods', 'POST')
      .header('access-control-allow-headers', 'content-type, accept, originator')
      .header('access-control-max-age', '600')
      .send(),
  );

  app.post<{ Params: { method: string } }>('/:method', async (req, reply) => {
    // Browsers mark every request with Sec-Fetch-Site (a page cannot remove it); processes do not send it.
    const fromOrigin = originatorOf(req.headers.origin, req.headers['sec-fetch-site'] !== undefined);
    const fromOriginator = originatorOf(req.headers.originator);
    // `Origin: null` is a sandboxed or file:// page: it could name any app in Originator, so it names none.
    if (req.headers.origin !== undefined && !fromOrigin)
      return refuse(
        reply,
        'The Origin header names no app: null, not a web origin, or a plain-HTTP page served from another machine (serve the app over HTTPS).',
      );
    if (req.headers.originator !== undefined && !fromOriginator) return refuse(reply, 'The Originator header names no host.');
    if (fromOrigin && fromOriginator && fromOrigin !== fromOriginator) {
      return refuse(reply, `The Origin (${fromOrigin}) and Originator (${fromOriginator}) headers name different apps.`);
    }
    const originator = fromOrigin ?? fromOriginator;
    if (!originator) return refuse(reply, 'Name your app: send an Origin or Originator header (WalletClient does).');
    if (!rate.take(originator)) {
      return reply
        .code(429)
        .header('retry-after', String(rate.retryAfter(originator)))
        .send({ message: 'Too many calls from this app; try again shortly.' });
    }
    return engine.brc100.call(originator, req.params.method, req.body, req.socket.remoteAddress ?? 'unknown');
  });

  app.setNotFoundHandler((req, reply) =>
    reply.code(404).send({ message: `Only POST /<wallet method> is served here, not ${req.method} ${req.url.split('?')[0]}.` }),
  );
  app.setErrorHandler((err: Error & { statusCode?: number }, req, reply) => {
    if (err instanceof WalletErr) return reply.code(400).send(err.toJSON());
    if (err instanceof DomainError) return reply.code(err.kind === 'unavailable' ? 503 : 500).send({ message: err.message });
    if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
      if (err.statusCode === 413) reply.header('connection', 'close');
      return reply.code(err.statusCode).send({ message: err.statusCode === 413 ? 'The request body is too large.' : err.message });
    }
    engine.logger.error({ err: err.message, path: req.url.split('?')[0] }, 'unexpected error on the BRC-100 listener');
    return reply.code(500).send({ message: 'The wallet failed to answer.' });
  });
  return app;
}

function refuse(reply: FastifyReply, message: string): FastifyReply {
  return reply.code(400).send(unauthorized(message).toJSON());
}
