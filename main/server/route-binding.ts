import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler, RouteOptions } from 'fastify';
import type { z } from 'zod';
import { DomainError } from '../../shared/errors.js';
import { ROUTE_PARTS, type RouteDefinition, type RouteInput, type RoutePart } from '../../shared/route.js';

/** What the server adds to a route's definition (shared/route.ts): its handler and its transport limits. */
export interface RouteBinding<D extends RouteDefinition, Own extends RoutePart = never> {
  /** Called with the request's parts as the definition's schemas read them, once they all pass. */
  handler: (req: FastifyRequest, reply: FastifyReply, input: Omit<RouteInput<D>, Own>) => unknown;
  /** Checks that come before the request is read, such as the node's API key (a refusal there wins). */
  preHandler?: preHandlerAsyncHookHandler;
  bodyLimit?: number;
  /**
   * Parts the handler reads from the request and checks itself, with the definition's schema, when the
   * order of its answers matters (the paymail host says "unknown paymail" before judging the body).
   */
  checkedByHandler?: readonly Own[];
}

/**
 * Registers a route from its definition: every part the definition has a schema for is parsed before the
 * handler runs, and a request that does not pass gets the definition's refusal (the route's own protocol
 * shape), or else the server's error answer. The definition rides along in the route's config, so the
 * OpenAPI document can list exactly the routes a server registered.
 */
export function registerRoute<D extends RouteDefinition, Own extends RoutePart = never>(
  app: FastifyInstance,
  definition: D,
  binding: RouteBinding<D, Own>,
): void {
  const own = new Set<RoutePart>(binding.checkedByHandler ?? []);
  app.route({
    method: definition.method,
    url: definition.path,
    bodyLimit: binding.bodyLimit,
    preHandler: binding.preHandler,
    config: { [DEFINITION]: definition },
    handler: async (req, reply) => {
      const read = readInput(definition, req, own);
      if ('refused' in read) return refuse(reply, definition, read.refused);
      return binding.handler(req, reply, read.input as Omit<RouteInput<D>, Own>);
    },
  });
}

const DEFINITION = 'routeDefinition';

/** The definition a route was registered from (in an `onRoute` hook), if it was. */
export function definitionOf(route: RouteOptions): RouteDefinition | undefined {
  return (route.config as Record<string, RouteDefinition | undefined> | undefined)?.[DEFINITION];
}

interface Refused {
  part: RoutePart;
  error: z.ZodError;
}

function readInput(
  definition: RouteDefinition,
  req: FastifyRequest,
  own: ReadonlySet<RoutePart>,
): { input: Record<string, unknown> } | { refused: Refused } {
  const sent: Record<RoutePart, unknown> = { params: req.params, query: req.query, headers: req.headers, body: req.body };
  const input: Record<string, unknown> = {};
  for (const part of ROUTE_PARTS) {
    const schema = definition[part];
    if (!schema || own.has(part)) continue;
    const parsed = schema.safeParse(sent[part]);
    if (!parsed.success) return { refused: { part, error: parsed.error } };
    input[part] = parsed.data;
  }
  return { input };
}

function refuse(reply: FastifyReply, definition: RouteDefinition, { part, error }: Refused) {
  if (definition.refusal) return reply.code(definition.refusal.status).send(definition.refusal.body);
  const where = (path: PropertyKey[]) => [part, ...path.map(String)].join('.');
  throw new DomainError('VALIDATION_FAILED', error.issues.map((issue) => `${where(issue.path)}: ${issue.message}`).join('; '));
}
