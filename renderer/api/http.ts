import type { CallAuth } from '../../shared/bridge.js';
import type { Envelope, ErrorData } from '../../shared/envelope.js';
import type { OperationName } from '../../shared/operations.js';
import { kindOf } from '../../shared/errors.js';
import { ApiError, type KeysteadClient } from './client.js';

/** The UI's RPC over HTTP: POST /rpc/<operation>, same origin as the page. */
export function createHttpClient(baseUrl = ''): KeysteadClient {
  return {
    host: 'browser',
    async call(name: OperationName, input: unknown, auth?: CallAuth) {
      let response: Response;
      try {
        response = await fetch(`${baseUrl}/rpc/${name}`, {
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
        const err = body.data as unknown as ErrorData & { errors?: unknown };
        throw Object.assign(new ApiError(err.code, err.msg, kindOf(err.code) ?? 'internal', err.retryAfter), err.errors ? { errors: err.errors } : {});
      }
      const { status: _s, msg, ...output } = body.data;
      return { msg, output } as never;
    },
  };
}
