import type { CallAuth } from '../../shared/bridge.js';
import type { Envelope, ErrorData } from '../../shared/envelope.js';
import { kindOf } from '../../shared/errors.js';
import type { AnyContract } from '../../shared/operation.js';
import { OPERATIONS } from '../../shared/operations.js';
import { ApiError, type CallResult, type KeysteadClient } from './client.js';

/** The UI's RPC over HTTP: POST /rpc/<operation>, same origin as the page. */
export function createHttpClient(baseUrl = '', pageOrigin: () => string = () => window.location.origin): KeysteadClient {
  async function call(op: AnyContract, input: unknown, auth?: CallAuth): Promise<CallResult<never>> {
    let response: Response;
    try {
      response = await fetch(`${baseUrl}/rpc/${op.name}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(auth?.authToken ? { authorization: `Bearer ${auth.authToken}` } : {}),
          ...(auth?.serviceId ? { serviceid: auth.serviceId } : {}),
        },
        body: JSON.stringify(input ?? {}),
      });
    } catch {
      throw new ApiError('NOT_READY', 'Cannot reach the Keystead server. Is it still running?', 'unavailable');
    }
    const body = (await response.json().catch(() => null)) as Envelope<Record<string, unknown>> | null;
    if (!body || typeof body.data !== 'object') throw new ApiError('INTERNAL', `Unexpected answer from the server (HTTP ${response.status}).`, 'internal');
    if (body.data.status === 'error') {
      // The error's details (a compile's `errors`, a transpile's `errorLogs`, …) travel on the ApiError.
      const { status: _status, code, msg, retryAfter, ...details } = body.data as unknown as ErrorData & Record<string, unknown>;
      throw Object.assign(new ApiError(code, msg, kindOf(code) ?? 'internal', retryAfter), details);
    }
    const { status: _s, msg, ...output } = body.data;
    return { msg, output } as never;
  }
  return {
    host: 'browser',
    keepsToken: true,
    call: call as KeysteadClient['call'],
    async start() {
      const { output } = await call(OPERATIONS.appStatus, {});
      const s = output as { initialised: boolean; version: string; network: string };
      return { state: s.initialised ? 'signIn' : 'firstRun', version: s.version, network: s.network };
    },
    async setup(input) {
      return (await call(OPERATIONS.setup, input)).output;
    },
    async signIn(email, password) {
      return (await call(OPERATIONS.login, { email, password })).output;
    },
    async apiUrl() {
      return pageOrigin();
    },
  };
}
