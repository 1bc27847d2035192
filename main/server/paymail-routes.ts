import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Engine } from '../engine/engine.js';
import { isDomainError } from '../../shared/errors.js';
import { httpStatusOf } from './http-errors.js';
import { PaymailError } from '../engine/paymail/host.js';
import { MAX_RECEIVED_BEEF_BYTES, MAX_RECEIVED_TX_BYTES, RECEIVE_ENVELOPE_BYTES } from '../engine/paymail/receive-limits.js';
import type { RouteDefinition } from '../../shared/route.js';
import { PAYMAIL_ROUTES } from '../../shared/routes/paymail.js';
import { registerRoute, type RouteBinding } from './route-binding.js';

/**
 * Each route's largest body, sized to what it carries: a destination request is a few small fields; a
 * payment is its transaction in hex (twice its bytes) with a reference and metadata. Larger is refused
 * with 413 from the Content-Length (or as soon as a chunked body passes it), before it is read.
 */
export const PAYMAIL_BODY_LIMITS = {
  destination: 8 * 1024,
  receiveTransaction: 2 * MAX_RECEIVED_TX_BYTES + RECEIVE_ENVELOPE_BYTES,
  beef: 2 * MAX_RECEIVED_BEEF_BYTES + RECEIVE_ENVELOPE_BYTES,
} as const;

/**
 * The paymail host routes (bsvalias). They answer in the protocol's own shapes (`{code, message}` on
 * errors), not Keystead's envelope, and need no credentials, like any paymail host. Served on the local
 * API's port and, with `--paymail-listen`, on the public paymail listener; `baseUrl` is where the
 * capabilities point.
 */
export function registerPaymailRoutes(
  app: FastifyInstance,
  engine: Engine,
  baseUrl: (req: FastifyRequest) => string = (req) => `http://${req.headers.host}`,
  /**
   * Who asks, as the public listener's rate limit keys clients (reading its trusted proxy's header), for the
   * host's per-client share of destinations; undefined on the local API, which only this machine reaches.
   */
  clientOf: (req: FastifyRequest) => string | undefined = () => undefined,
): void {
  const host = engine.paymailHost;
  const answer = async (reply: FastifyReply, work: () => unknown) => {
    try {
      return reply.send(await work());
    } catch (err) {
      if (err instanceof PaymailError) return reply.code(err.status).send({ code: err.code, message: err.message });
      if (isDomainError(err)) return reply.code(httpStatusOf(err.code)).send({ code: err.code.toLowerCase(), message: err.message });
      engine.logger.error({ err }, 'unexpected error in the paymail host');
      return reply.code(500).send({ code: 'internal', message: 'The paymail host failed.' });
    }
  };
  const R = PAYMAIL_ROUTES;
  // The host checks each body itself, with the route's schema, once it has found the paymail.
  const lookup = <D extends RouteDefinition>(definition: D, handler: RouteBinding<D>['handler']) =>
    registerRoute(app, definition, { handler });
  const destination = <D extends RouteDefinition>(definition: D, bodyLimit: number, handler: RouteBinding<D, 'body'>['handler']) =>
    registerRoute(app, definition, { handler, bodyLimit, checkedByHandler: ['body'] });

  lookup(R.capabilities, async (req, reply) => reply.send(host.capabilities(baseUrl(req))));
  lookup(R.pki, (_req, reply, { params }) => answer(reply, () => host.pki(params.handle)));
  lookup(R.verifyPubkey, (_req, reply, { params }) => answer(reply, () => host.verifyPubkey(params.handle, params.pubkey)));
  lookup(R.publicProfile, (_req, reply, { params }) => answer(reply, () => host.profile(params.handle)));
  const limits = PAYMAIL_BODY_LIMITS;
  destination(R.basicDestination, limits.destination, (req, reply, { params }) =>
    answer(reply, () => host.basicDestination(params.handle, req.body, clientOf(req))),
  );
  destination(R.p2pDestination, limits.destination, (req, reply, { params }) =>
    answer(reply, () => host.p2pDestination(params.handle, req.body, clientOf(req))),
  );
  destination(R.receiveTransaction, limits.receiveTransaction, (req, reply, { params }) =>
    answer(reply, () => host.receiveTransaction(params.handle, req.body)),
  );
  destination(R.receiveBeef, limits.beef, (req, reply, { params }) => answer(reply, () => host.receiveBeef(params.handle, req.body)));
}
