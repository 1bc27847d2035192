import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { errorEnvelope, successEnvelope } from '../../shared/envelope.js';
import { openApiDocument } from '../../shared/openapi.js';
import type { RouteDefinition } from '../../shared/route.js';
import { isOperationName, OPERATIONS, type OperationName } from '../../shared/operations.js';
import type { Engine } from '../engine/engine.js';
import { DomainError } from '../../shared/errors.js';
import { mapHttpError } from './http-errors.js';
import { answerClientError, MAX_URL_LENGTH } from './client-errors.js';
import { credentialsFromHeaders, isAllowedFetchSite, isAllowedHost, isAllowedOrigin, SECURITY_HEADERS, UI_CSP } from './guards.js';
import { REST_ROUTES } from './routes.js';
import { registerChainRoutes } from './chain-routes.js';
import { registerPaymailRoutes } from './paymail-routes.js';
import { registerEventsRoute } from './events-route.js';
import { registerOrdinalsRoute } from './ordinals-route.js';
import { definitionOf, registerRoute } from './route-binding.js';
import { SERVICE_ROUTES } from '../../shared/routes/service.js';
import type { LocalChain } from '../chain/local/local-chain.js';

/** How long a client may take to send one whole request (headers and body). */
export const REQUEST_TIMEOUT_MS = 60_000;

export interface ServerOptions {
  engine: Engine;
  /** The embedded node, whose ARC/WhatsOnChain routes are served under /chain. */
  node?: LocalChain | null;
  chainApiKey?: string;
  /** The built renderer (dist/renderer); when absent, `/` explains how to build it. */
  uiDir?: string;
  /** Largest accepted request body in bytes. */
  bodyLimit?: number;
}

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export async function buildServer({
  engine,
  node,
  chainApiKey,
  uiDir,
  bodyLimit = DEFAULT_BODY_LIMIT,
}: ServerOptions): Promise<FastifyInstance> {
  const startedAt = Date.now();
  // A request must arrive whole within a minute (a slow sender cannot hold a connection open for ever; the
  // event stream, once answered, is not a request being received any more).
  const app = Fastify({
    bodyLimit,
    logger: false,
    trustProxy: false,
    return503OnClosing: true,
    clientErrorHandler: answerClientError,
    requestTimeout: REQUEST_TIMEOUT_MS,
  });

  // JSON bodies: fastify's parser (it strips __proto__ poisoning), except that an empty body is no body,
  // so a bodiless DELETE sent with Content-Type: application/json is accepted like any other.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (typeof body === 'string' && body.trim() === '') return done(null, undefined);
    parseJson(req as never, String(body), done);
  });

  const port = () => (app.server.address() as AddressInfo | null)?.port ?? 0;

  app.addHook('onRequest', async (req, reply) => {
    if (req.url.length > MAX_URL_LENGTH)
      return sendError(reply, new DomainError('URI_TOO_LONG', `The URL is too long (${MAX_URL_LENGTH} characters at most).`));
    // The UI is served without source maps, even if a build left some behind.
    if (req.url.split('?')[0].endsWith('.map')) return sendError(reply, new DomainError('NOT_FOUND', 'No such file.'));
    if (!isAllowedHost(req.headers.host, port())) {
      return sendError(reply, new DomainError('HOST_FORBIDDEN', 'This server only answers requests addressed to 127.0.0.1 or localhost.'));
    }
    const origin = req.headers.origin;
    const fetchSite = req.headers['sec-fetch-site'];
    if (!isAllowedOrigin(origin, port()) || !isAllowedFetchSite(Array.isArray(fetchSite) ? fetchSite[0] : fetchSite)) {
      return sendError(reply, new DomainError('ORIGIN_FORBIDDEN', 'Cross-origin requests are refused.'));
    }
  });

  // On shutdown, requests already in flight finish; their keep-alive connections must then close too,
  // or close() would wait for the keep-alive timeout.
  let closing = false;
  let endEventStreams = () => {};
  app.addHook('preClose', async () => {
    closing = true;
    // Live event streams never end by themselves: end them, or close() would wait for them forever.
    endEventStreams();
    app.server.closeIdleConnections();
  });
  app.addHook('onResponse', async (req, reply) => {
    if (closing) app.server.closeIdleConnections();
    // The path only: a query string may carry a credential a careless client put there.
    engine.logger.debug(
      { method: req.method, path: req.url.split('?')[0], status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
      'request',
    );
  });

  app.addHook('onSend', async (_req, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    reply.headers(SECURITY_HEADERS);
    reply.header('x-frame-options', 'DENY');
    reply.header('cache-control', reply.getHeader('cache-control') ?? 'no-store');
    const type = String(reply.getHeader('content-type') ?? '');
    if (type.startsWith('text/html')) reply.header('content-security-policy', UI_CSP);
    return payload;
  });

  app.setErrorHandler((err, _req, reply) => sendError(reply, err));

  function sendError(reply: FastifyReply, err: unknown) {
    const mapped = mapHttpError(err);
    // Logged without the request: its body or headers may hold credentials.
    if (mapped.unexpected) engine.logger.error({ err }, 'unexpected error in an HTTP request');
    return reply.code(mapped.envelope.statusCode).headers(mapped.headers).send(mapped.envelope);
  }

  async function run(op: OperationName, input: unknown, req: FastifyRequest, reply: FastifyReply, serviceIdFromCredential = false) {
    // The API speaks JSON; a text/plain body (the one other type fastify reads) is refused, not guessed at.
    if (typeof req.body === 'string') throw new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.');
    const result = await engine.execute(op, input, credentialsFromHeaders(req.headers), { clientId: req.ip, serviceIdFromCredential });
    return reply.code(200).send(successEnvelope(result.output as object, result.msg));
  }

  // The API's OpenAPI 3.1 document: the operation routes from their contracts, the other routes (the paymail
  // host's, the local node's, the event stream) from the definitions they were registered with, those this
  // server registered (built once, on the first request, when all are known).
  const extraRoutes: RouteDefinition[] = [];
  app.addHook('onRoute', (route) => {
    const definition = definitionOf(route);
    if (definition && route.method !== 'HEAD') extraRoutes.push(definition);
  });
  let openApi: Record<string, unknown> | null = null;
  registerRoute(app, SERVICE_ROUTES.health, {
    handler: async (_req, reply) =>
      reply.send(
        successEnvelope(
          { version: engine.config.version, network: engine.config.network, uptime: Math.round((Date.now() - startedAt) / 1000) },
          'Keystead is running.',
        ),
      ),
  });
  registerRoute(app, SERVICE_ROUTES.openApi, {
    handler: async (_req, reply) =>
      reply.send((openApi ??= openApiDocument(Object.values(OPERATIONS), { version: engine.config.version }, extraRoutes))),
  });

  for (const route of REST_ROUTES) {
    app.route({
      method: route.method,
      url: route.url,
      bodyLimit: route.bodyLimit,
      handler: async (req, reply) => run(route.op, route.input(req), req, reply, route.serviceIdFromCredential),
    });
  }

  endEventStreams = registerEventsRoute(app, engine);
  if (node) registerChainRoutes(app, { node, usdRate: () => engine.usdRate(), apiKey: chainApiKey });
  registerPaymailRoutes(app, engine);
  registerOrdinalsRoute(app, engine);

  // The UI's RPC: one POST per operation, the body is the input. Same table, same checks as REST.
  registerRoute(app, SERVICE_ROUTES.rpc, {
    handler: async (req, reply, { params, body }) => {
      if (!isOperationName(params.operation)) throw new DomainError('NOT_FOUND', `There is no operation named ${params.operation}.`);
      return run(params.operation, body ?? {}, req, reply);
    },
  });

  const hasUi = uiDir !== undefined && existsSync(path.join(uiDir, 'index.html'));
  if (hasUi) {
    await app.register(fastifyStatic, { root: uiDir, prefix: '/', wildcard: false, index: ['index.html'], cacheControl: false });
  }

  // The UI routes by the URL's fragment (#/wallets), so its one page is `/` (served by the static files when
  // built). Every other unknown path answers a JSON 404: a script that mistypes a path under /v1, /v2, /api
  // or /rpc must get an error, never the app's web page with a 200.
  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0];
    if (req.method === 'GET' && (url === '/' || url === '/index.html')) {
      if (hasUi) return reply.type('text/html').sendFile('index.html');
      return reply
        .code(404)
        .type('text/plain')
        .send('The Keystead UI is not built. Run `npm run build`, or start with `npm run serve`, which builds it.');
    }
    return reply.code(404).send(errorEnvelope(404, 'NOT_FOUND', `No route ${req.method} ${url}.`));
  });

  return app;
}
