import type { z } from 'zod';

/**
 * The contract of one HTTP route that is not an operation (the paymail host's, the local node's, the live
 * event stream): these answer in their own protocols' shapes, not the envelope, so they are not
 * operations, but they are defined the same way, once, with zod. The server validates requests with these
 * schemas (main/server/route-binding.ts) and the OpenAPI document lists the route from them
 * (shared/openapi.ts); the handler stays with its group's registration in main/server.
 */

/** A group of routes: the OpenAPI tag, described once. */
export interface RouteTag {
  name: string;
  description: string;
}

/**
 * Who may call: anyone (`none`); anyone holding the local node's API key in `Authorization`, when the node
 * was started with one (`node key`); or a Keystead user, with the credentials every operation takes.
 */
export type RouteAuth = 'none' | 'node key' | 'credentials';

/** What a request the schemas refuse is answered, in the route's protocol: a JSON body, or text. */
export interface Refusal {
  status: number;
  body: unknown;
}

export type ResponseType = 'application/json' | 'text/plain' | 'text/event-stream' | 'application/octet-stream';

type Fields = z.ZodObject;

export interface RouteDefinition {
  method: 'GET' | 'POST';
  /** Fastify's syntax: `:name` for a path parameter (each one named in `params`). */
  path: string;
  tag: RouteTag;
  summary: string;
  auth: RouteAuth;
  params?: Fields;
  query?: Fields;
  /** Header names in lower case, as Node reads them. */
  headers?: Fields;
  /** The JSON body (a text/plain body arrives as a string, so a schema may accept one). */
  body?: z.ZodType;
  /** The 200 answer. */
  response: z.ZodType;
  /** The 200 answer's media type; JSON when not given. */
  responseType?: ResponseType;
  /** The answer to a request the schemas refuse; without one, the server's own error answer. */
  refusal?: Refusal;
}

export function defineRoute<const D extends RouteDefinition>(definition: D): D {
  return definition;
}

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** A request's parts as the route's schemas read them. */
export interface RouteInput<D extends RouteDefinition> {
  params: Parsed<D['params']>;
  query: Parsed<D['query']>;
  headers: Parsed<D['headers']>;
  body: Parsed<D['body']>;
}

export type RoutePart = keyof RouteInput<RouteDefinition>;

export const ROUTE_PARTS: readonly RoutePart[] = ['params', 'query', 'headers', 'body'];

/** The path parameters a route's path names, in order. */
export function pathParameters(path: string): string[] {
  return [...path.matchAll(/:(\w+)/g)].map((m) => m[1]);
}
