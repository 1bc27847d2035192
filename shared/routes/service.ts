import { z } from 'zod';
import { defineRoute, type RouteTag } from '../route.js';

/**
 * The server's own routes that are not operations: its health, this document, and the UI's RPC (one POST
 * per operation, the body its input), defined once like every other route so the OpenAPI document lists
 * them as they are served.
 */
const SERVICE: RouteTag = {
  name: 'service',
  description: 'The server itself: whether it runs, what it serves, and the one RPC route per operation the UI uses.',
};

const envelope = (data: z.ZodType) => z.object({ statusCode: z.number().int(), data });

export const SERVICE_ROUTES = {
  health: defineRoute({
    method: 'GET',
    path: '/health',
    tag: SERVICE,
    auth: 'none',
    summary: 'Whether the server runs: its version, the network and how long it has run (seconds). No credentials.',
    response: envelope(
      z.object({ status: z.string(), msg: z.string(), version: z.string(), network: z.string(), uptime: z.number().int() }),
    ),
  }),
  openApi: defineRoute({
    method: 'GET',
    path: '/openapi.json',
    tag: SERVICE,
    auth: 'none',
    summary: 'This OpenAPI 3.1 document (not an envelope): every route the server answers, with its request and answer shapes.',
    response: z.object({ openapi: z.string(), info: z.object({}).loose(), paths: z.object({}).loose() }).loose(),
  }),
  rpc: defineRoute({
    method: 'POST',
    path: '/rpc/:operation',
    tag: SERVICE,
    auth: 'credentials',
    summary:
      'Calls any operation by its name with the JSON body as its input (what the UI uses): the same roles, checks and answers as its REST routes. Operations open to anyone (login, status) need no credentials; an unknown name is 404 NOT_FOUND.',
    params: z.object({ operation: z.string().meta({ description: 'An operation name, as in `OPERATIONS` (e.g. `listWallets`)' }) }),
    body: z.unknown().meta({ description: "The operation's input (its REST route's fields, as JSON)" }),
    response: envelope(z.object({ status: z.string(), msg: z.string() }).loose()),
  }),
};
