import type { z } from 'zod';
import type { Role } from './roles.js';

/**
 * The wire contract of one operation: everything about it that main, preload and renderer share. The
 * engine adds the handler (main/engine/<capability>/operations.ts); the REST routes, the UI's RPC, the
 * IPC channels, the renderer's view of roles, the README's role table and the OpenAPI document
 * (shared/openapi.ts, converting the zod schemas to JSON Schema) are all derived from these contracts.
 */
export type Access = 'public' | readonly Role[];

export type HttpMethod = 'GET' | 'POST' | 'DELETE' | 'PUT';

/**
 * Where a REST route finds the operation's input. The parts are merged in this order, later ones winning:
 * the whole query string (`query`), named parameters read from the headers or else the query (`headers`),
 * the JSON body (`body`), path parameters (`params`), headers renamed into fields (`renames`, e.g.
 * `idempotency-key`). With `wallet`,
 * the wallet id is read from a header, the query or the body under any of its spellings.
 */
export interface RestBinding {
  method: HttpMethod;
  path: string;
  query?: boolean;
  headers?: readonly string[];
  body?: boolean;
  renames?: Readonly<Record<string, string>>;
  wallet?: boolean;
  /** Path parameters (`/api/v1/token/:id`) join the input under their names. */
  params?: boolean;
  /** A larger body limit than the server's, for routes that take large sources. */
  bodyLimit?: number;
  /**
   * On an enterprise operation's public-API path (`/v1/…`, as the public service's SDK calls it), the
   * organisation comes from the credential: `serviceid` is optional there (a wrong one is still refused).
   */
  serviceIdFromCredential?: boolean;
}

export interface OperationContract<N extends string = string, I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  name: N;
  input: I;
  /** What the operation returns inside the envelope's `data`, next to `status` and `msg`. */
  output: O;
  access: Access;
  /** One line for the README and the OpenAPI document. */
  summary: string;
  /** The success message in `data.msg` (the public service's wording where it has one). */
  msg: string;
  /** The REST routes (the spec's paths) that reach it; every operation is also `POST /rpc/<name>`. */
  rest: readonly RestBinding[];
  /** Whether the call must also carry the organisation's serviceid (the spec's enterprise API). */
  enterprise?: boolean;
  /**
   * Whether each call (success or failure) is written to the audit log; a function says it per call, for an
   * operation that both reads and changes (only a change is audited: reading leaves no entry).
   */
  audit?: boolean | ((input: z.infer<I>) => boolean);
  /**
   * A utility anyone who reaches the private listener may call without credentials (the offline toolchain,
   * as on the public service): a call with none runs without a caller (the handler limits it per client);
   * credentials that are given are checked as for any operation.
   */
  credentialsOptional?: boolean;
}

export type AnyContract = OperationContract<string, z.ZodType, z.ZodType>;

export function defineOperation<const N extends string, I extends z.ZodType, O extends z.ZodType>(
  contract: OperationContract<N, I, O>,
): OperationContract<N, I, O> {
  return contract;
}

/** Contracts keyed by their names, so a capability lists each one once. */
export function byName<const T extends readonly AnyContract[]>(...contracts: T): { [C in T[number] as C['name']]: C } {
  return Object.fromEntries(contracts.map((c) => [c.name, c])) as { [C in T[number] as C['name']]: C };
}

export type InputOf<C extends AnyContract> = z.input<C['input']>;
export type ParsedInputOf<C extends AnyContract> = z.output<C['input']>;
export type OutputOf<C extends AnyContract> = z.output<C['output']>;
