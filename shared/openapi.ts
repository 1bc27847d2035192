import { z } from 'zod';
import type { AnyContract, RestBinding } from './operation.js';
import { pathParameters, type RouteDefinition } from './route.js';

/**
 * The OpenAPI 3.1 document of the REST API, as a function of the operation contracts: every REST binding
 * of every operation becomes a path item (method, header/path/query parameters, the JSON body, the
 * success envelope around the operation's output, the error envelope), the roles go into the
 * description, and the security schemes are the credential forms the server reads. The routes that are
 * not operations (the paymail host's, the local node's, the event stream) come from their definitions
 * (shared/routes/), the ones the server registered.
 */
export function openApiDocument(
  contracts: readonly AnyContract[],
  info: { version: string },
  routes: readonly RouteDefinition[] = [],
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const path = openApiPath(r.path);
    paths[path] ??= {};
    paths[path][r.method.toLowerCase()] = routeObject(r);
  }
  for (const c of contracts) {
    c.rest.forEach((binding, i) => {
      const path = openApiPath(binding.path);
      paths[path] ??= {};
      paths[path][binding.method.toLowerCase()] = operationObject(c, binding, c.rest.length > 1 ? `${c.name}_${i + 1}` : c.name);
    });
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Keystead API',
      version: info.version,
      description:
        'The embedded HTTP API of Keystead (loopback only). Every answer is an envelope: `{statusCode, data: {status, msg, …}}`; errors carry `data.code`. Every operation is also `POST /rpc/<operationId>` with its input as the body.',
    },
    servers: [{ url: 'http://127.0.0.1:7480' }],
    ...(routes.length ? { tags: [...new Map(routes.map((r) => [r.tag.name, r.tag])).values()] } : {}),
    paths,
    components: {
      securitySchemes: {
        authToken: { type: 'apiKey', in: 'header', name: 'authToken', description: 'The token from POST /v1/auth (or /api/v1/setup).' },
        bearer: { type: 'http', scheme: 'bearer', description: 'The same token as `Authorization: Bearer <token>`.' },
        uid: { type: 'apiKey', in: 'header', name: 'uid', description: 'A user id, sent with `apikey`.' },
        apikey: { type: 'apiKey', in: 'header', name: 'apikey', description: 'An API key of that user.' },
      },
      schemas: {
        ErrorEnvelope: {
          type: 'object',
          required: ['statusCode', 'data'],
          properties: {
            statusCode: { type: 'integer' },
            data: {
              type: 'object',
              required: ['status', 'msg', 'code'],
              properties: {
                status: { const: 'error' },
                msg: { type: 'string' },
                code: { type: 'string' },
                retryAfter: { type: 'integer', description: 'Seconds to wait, on 429.' },
              },
            },
          },
        },
      },
    },
  };
}

function operationObject(c: AnyContract, binding: RestBinding, operationId: string): Record<string, unknown> {
  const input = jsonSchema(c.input, 'input');
  const properties = (input.properties ?? {}) as Record<string, Record<string, unknown>>;
  const parameters: Record<string, unknown>[] = [];
  for (const name of binding.params ? pathParameters(binding.path) : []) {
    parameters.push({ name, in: 'path', required: true, schema: properties[name] ?? { type: 'string' } });
  }
  for (const name of binding.headers ?? []) {
    parameters.push({
      name,
      in: 'header',
      required: false,
      schema: properties[name] ?? { type: 'string' },
      description: 'Also accepted in the query string.',
    });
  }
  for (const [header, field] of Object.entries(binding.renames ?? {})) {
    parameters.push({
      name: header,
      in: 'header',
      required: false,
      schema: properties[field] ?? { type: 'string' },
      description: `Sets \`${field}\`.`,
    });
  }
  if (binding.wallet)
    parameters.push({
      name: 'walletID',
      in: 'header',
      required: false,
      schema: { type: 'string' },
      description: 'The wallet (also `walletID` in the query or body).',
    });
  if (binding.query) {
    const taken = new Set(parameters.map((p) => p.name));
    for (const [name, schema] of Object.entries(properties))
      if (!taken.has(name)) parameters.push({ name, in: 'query', required: false, schema });
  }
  const fromCredential = binding.serviceIdFromCredential === true;
  if (c.enterprise)
    parameters.push({
      name: 'serviceid',
      in: 'header',
      required: !fromCredential,
      schema: { type: 'string' },
      description: fromCredential
        ? "The organisation's service id: optional on this path (the credential names the organisation); refused when it names another."
        : "The organisation's service id.",
    });
  const roles = c.access === 'public' ? 'Public: no credentials.' : `Roles: ${c.access.join(', ')}.`;
  const operation: Record<string, unknown> = {
    operationId,
    summary: c.summary,
    description: `${roles}${c.enterprise && !fromCredential ? ' Needs the organisation’s `serviceid`.' : ''}`,
    tags: [tagOf(binding.path)],
    parameters,
    responses: {
      200: {
        description: c.msg,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['statusCode', 'data'],
              properties: {
                statusCode: { const: 200 },
                data: {
                  allOf: [
                    {
                      type: 'object',
                      required: ['status', 'msg'],
                      properties: { status: { enum: ['success', 'partial success'] }, msg: { type: 'string' } },
                    },
                    jsonSchema(c.output, 'output'),
                  ],
                },
              },
            },
          },
        },
      },
      default: {
        description: 'An error, with `data.code` and `data.msg`.',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
      },
    },
  };
  if (binding.body) operation.requestBody = { required: false, content: { 'application/json': { schema: input } } };
  if (c.access !== 'public') operation.security = CREDENTIALS;
  return operation;
}

/** Any of the credential forms, as the security schemes name them. */
const CREDENTIALS = [{ authToken: [] }, { bearer: [] }, { uid: [], apikey: [] }];

function routeObject(r: RouteDefinition): Record<string, unknown> {
  const fields = (schema: z.ZodObject | undefined, where: 'query' | 'header') =>
    Object.entries(schema?.shape ?? {}).map(([name, field]) => ({
      name,
      in: where,
      required: !accepts(field, undefined),
      schema: jsonSchema(field, 'input'),
    }));
  const pathSchema = (name: string) => {
    const field = r.params?.shape[name];
    return field ? jsonSchema(field, 'input') : { type: 'string' };
  };
  const responseType = r.responseType ?? 'application/json';
  const route: Record<string, unknown> = {
    operationId: `${r.tag.name}_${r.method.toLowerCase()}_${r.path.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '')}`,
    summary: r.summary,
    ...(r.auth === 'node key' ? { description: "The node's API key in `Authorization`, when the node was started with one." } : {}),
    tags: [r.tag.name],
    parameters: [
      ...pathParameters(r.path).map((name) => ({ name, in: 'path', required: true, schema: pathSchema(name) })),
      ...fields(r.query, 'query'),
      ...fields(r.headers, 'header'),
    ],
    ...(r.body
      ? { requestBody: { required: !accepts(r.body, undefined), content: { 'application/json': { schema: jsonSchema(r.body, 'input') } } } }
      : {}),
    responses: {
      200: {
        description: responseType === 'text/event-stream' ? 'The event stream' : "This protocol's own shape, not the envelope",
        // Read as written ('input'): a foreign protocol's answer may carry fields beyond those listed.
        content: { [responseType]: { schema: jsonSchema(r.response, 'input') } },
      },
      ...(r.refusal ? { [r.refusal.status]: refusalObject(r.refusal.body) } : {}),
      default: { description: 'An error' },
    },
  };
  if (r.auth === 'credentials') route.security = CREDENTIALS;
  return route;
}

/** The answer to a request the route's schemas refuse, as it is sent. */
function refusalObject(body: unknown): Record<string, unknown> {
  const type = typeof body === 'string' ? 'text/plain' : 'application/json';
  return { description: "A request this route's schemas refuse, in the protocol's own shape", content: { [type]: { example: body } } };
}

function accepts(schema: z.ZodType, value: unknown): boolean {
  return schema.safeParse(value).success;
}

/** `/a/:b` as OpenAPI writes it, `/a/{b}`. */
function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}');
}

/** A zod schema as JSON Schema (draft 2020-12, which OpenAPI 3.1 uses); what JSON cannot say becomes `{}`. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  delete out.$schema;
  return out;
}

function tagOf(path: string): string {
  const parts = path.split('/').filter(Boolean);
  return parts[0] === 'api' ? 'enterprise' : (parts[1] ?? parts[0] ?? 'api');
}
