import type { FastifyInstance } from 'fastify';
import { inscriptionHeaders } from '../../shared/contracts/ordinals.js';
import { ORDINALS_ROUTES } from '../../shared/routes/ordinals.js';
import type { Engine } from '../engine/engine.js';
import { credentialsFromHeaders } from './guards.js';
import { registerRoute } from './route-binding.js';

/**
 * `GET /v1/ordinals/:outpoint/content`: an inscription's bytes, through the inscriptionContent operation (the
 * same credentials, roles and checks), answered raw with headers that keep hostile content from running.
 */
export function registerOrdinalsRoute(app: FastifyInstance, engine: Engine): void {
  registerRoute(app, ORDINALS_ROUTES.inscriptionContent, {
    handler: async (req, reply, { params }) => {
      const { output } = await engine.execute('inscriptionContent', { outpoint: params.outpoint }, credentialsFromHeaders(req.headers), {
        clientId: req.ip,
      });
      return reply.code(200).headers(inscriptionHeaders(output.contentType)).send(Buffer.from(output.contentBase64, 'base64'));
    },
  });
}
