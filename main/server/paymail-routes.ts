import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Engine } from '../engine/engine.js';
import { isDomainError } from '../../shared/errors.js';
import { httpStatusOf } from './http-errors.js';
import { PaymailError } from '../engine/paymail/host.js';
import { MAX_RECEIVED_BEEF_BYTES, MAX_RECEIVED_TX_BYTES, RECEIVE_ENVELOPE_BYTES } from '../engine/paymail/receive-limits.js';

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
export function registerPaymailRoutes(app: FastifyInstance, engine: Engine, baseUrl: (req: FastifyRequest) => string = (req) => `http://${req.headers.host}`): void {
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
  type H = { Params: { handle: string; pubkey?: string } };

  app.get('/.well-known/bsvalias', async (req, reply) => reply.send(host.capabilities(baseUrl(req))));
  app.get<H>('/api/bsvalias/id/:handle', (req, reply) => answer(reply, () => host.pki(req.params.handle)));
  app.get<H>('/api/bsvalias/verify-pubkey/:handle/:pubkey', (req, reply) => answer(reply, () => host.verifyPubkey(req.params.handle, req.params.pubkey!)));
  app.get<H>('/api/bsvalias/public-profile/:handle', (req, reply) => answer(reply, () => host.profile(req.params.handle)));
  app.post<H>('/api/bsvalias/address/:handle', { bodyLimit: PAYMAIL_BODY_LIMITS.destination }, (req, reply) => answer(reply, () => host.basicDestination(req.params.handle, req.body)));
  app.post<H>('/api/bsvalias/p2p-payment-destination/:handle', { bodyLimit: PAYMAIL_BODY_LIMITS.destination }, (req, reply) => answer(reply, () => host.p2pDestination(req.params.handle, req.body)));
  app.post<H>('/api/bsvalias/receive-transaction/:handle', { bodyLimit: PAYMAIL_BODY_LIMITS.receiveTransaction }, (req, reply) => answer(reply, () => host.receiveTransaction(req.params.handle, req.body)));
  app.post<H>('/api/bsvalias/beef/:handle', { bodyLimit: PAYMAIL_BODY_LIMITS.beef }, (req, reply) => answer(reply, () => host.receiveBeef(req.params.handle, req.body)));
}
