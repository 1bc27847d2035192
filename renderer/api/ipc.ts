import type { BridgeResult, CallAuth, KeysteadBridge } from '../../shared/bridge.js';
import type { OperationName } from '../../shared/operations.js';
import { ApiError, type CallResult, type KeysteadClient } from './client.js';

function unwrap<T>(result: BridgeResult<T>): CallResult<T> {
  if (result.ok) return { msg: result.msg, output: result.output };
  const { code, msg, kind, retryAfter, errors } = result.error;
  throw Object.assign(new ApiError(code, msg, kind, retryAfter), errors ? { errors } : {});
}

/** The desktop client: the preload's named functions, results unwrapped exactly like HTTP envelopes. */
export function createIpcClient(bridge: KeysteadBridge): KeysteadClient {
  return {
    host: 'desktop',
    async call(name: OperationName, input: unknown, auth?: CallAuth) {
      const fn = bridge.ops[name] as (input: unknown, auth?: CallAuth) => Promise<BridgeResult<unknown>>;
      return unwrap(await fn(input, auth)) as never;
    },
    vault: {
      status: () => bridge.vault.status(),
      setup: async (input) => unwrap(await bridge.vault.setup(input)),
      unlock: async (input) => unwrap(await bridge.vault.unlock(input)),
    },
  };
}
