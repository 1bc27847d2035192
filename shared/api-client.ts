import { restRequest, rpcRequest, type ApiRequest } from './api-request.js';
import type { CallAuth } from './bridge.js';
import type { Envelope, ErrorData } from './envelope.js';
import { kindOf, type ErrorCode, type ErrorKind } from './errors.js';
import type { AnyContract, InputOf, OutputOf } from './operation.js';

/**
 * The typed HTTP client of Keystead's API, for every caller that is not the server: the renderer (over the
 * UI's RPC), the CLI's remote commands and the benchmarks (over the public REST routes). Operations are
 * named by their contracts, so paths and header spellings come from shared/contracts/ and nowhere else.
 * Plain fetch only: it runs in Node and in the browser alike.
 */

/** A failed call, with the API's code and message; views show `message` as it is. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly kind: ErrorKind,
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Nothing answered at the address (refused, reset, no route). */
export class UnreachableError extends ApiError {
  constructor(readonly url: string) {
    super('NOT_READY', 'Cannot reach the Keystead server. Is it still running?', 'unavailable');
    this.name = 'UnreachableError';
  }
}

/** Something answered, but not with the API's envelope (another server at the address, a proxy's error page). */
export class UnexpectedAnswerError extends ApiError {
  constructor(
    readonly url: string,
    readonly httpStatus: number,
  ) {
    super('INTERNAL', `Unexpected answer from the server (HTTP ${httpStatus}).`, 'internal');
    this.name = 'UnexpectedAnswerError';
  }
}

export interface CallResult<T> {
  msg: string;
  output: T;
}

/** A success over HTTP also says whether every item went ahead ("partial success" when some failed). */
export interface HttpCallResult<T> extends CallResult<T> {
  status: 'success' | 'partial success';
}

export interface ApiClientOptions {
  /** The server's address, without a trailing slash ('' for the page's own origin). */
  baseUrl: string;
  /** `rpc`: POST /rpc/<operation>, as the UI calls; `rest`: the operation's public route, as scripts call. */
  routes: 'rpc' | 'rest';
  /** Headers every call carries: the credentials, in the spelling the caller uses. */
  headers?: Record<string, string>;
}

export interface ApiClient {
  call<C extends AnyContract>(op: C, input: InputOf<C>, headers?: Record<string, string>): Promise<HttpCallResult<OutputOf<C>>>;
}

/** A session's credentials as the UI sends them: a bearer token, and the organisation for enterprise operations. */
export function sessionHeaders(auth?: CallAuth): Record<string, string> {
  return {
    ...(auth?.authToken ? { authorization: `Bearer ${auth.authToken}` } : {}),
    ...(auth?.serviceId ? { serviceid: auth.serviceId } : {}),
  };
}

export function createApiClient({ baseUrl, routes, headers: always = {} }: ApiClientOptions): ApiClient {
  const build: (op: AnyContract, input: unknown) => ApiRequest = routes === 'rpc' ? rpcRequest : restRequest;
  async function call(op: AnyContract, input: unknown, headers: Record<string, string> = {}): Promise<HttpCallResult<unknown>> {
    const req = build(op, input);
    const url = baseUrl + req.path;
    const hasBody = req.body !== undefined;
    let response: Response;
    try {
      response = await fetch(url, {
        method: req.method,
        headers: { ...(hasBody ? { 'content-type': 'application/json' } : {}), ...always, ...headers, ...req.headers },
        body: hasBody ? JSON.stringify(req.body) : undefined,
      });
    } catch {
      throw new UnreachableError(url);
    }
    const envelope = (await response.json().catch(() => null)) as Envelope<Record<string, unknown>> | null;
    const data = envelope?.data;
    if (!data || typeof data !== 'object') throw new UnexpectedAnswerError(url, response.status);
    // `pending` (202: a payment awaiting approval) is not the operation's output either: it travels like an
    // error, with its code (APPROVAL_REQUIRED), kind `accepted` and details (`approvalId`).
    if (data.status === 'error' || data.status === 'pending') {
      // The error's details (a compile's `errors`, a transpile's `errorLogs`, …) travel on the ApiError.
      const { status: _status, code, msg, retryAfter, ...details } = data as unknown as ErrorData & Record<string, unknown>;
      throw Object.assign(new ApiError(code, msg, kindOf(code) ?? 'internal', retryAfter), details);
    }
    const { status, msg, ...output } = data;
    return { status, msg, output };
  }
  return { call: call as ApiClient['call'] };
}
