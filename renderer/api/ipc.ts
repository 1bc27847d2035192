import type { BridgeResult, CallAuth, KeysteadBridge } from '../../shared/bridge.js';
import type { AnyContract } from '../../shared/operation.js';
import { OPERATIONS } from '../../shared/operations.js';
import { ApiError, type CallResult, type KeysteadClient } from './client.js';

function unwrap<T>(result: BridgeResult<T>): CallResult<T> {
  if (result.ok) return { msg: result.msg, output: result.output };
  const { code, msg, kind, retryAfter, errors, details } = result.error;
  throw Object.assign(new ApiError(code, msg, kind, retryAfter), errors ? { errors } : {}, details ?? {});
}

/** The desktop client: the preload's named functions, results unwrapped exactly like HTTP envelopes. */
export function createIpcClient(bridge: KeysteadBridge): KeysteadClient {
  async function call(op: AnyContract, input: unknown, auth?: CallAuth): Promise<CallResult<never>> {
    const fn = bridge.ops[op.name as keyof typeof bridge.ops] as (input: unknown, auth?: CallAuth) => Promise<BridgeResult<unknown>>;
    return unwrap(await fn(input, auth)) as never;
  }
  const appStatus = async () => (await call(OPERATIONS.appStatus, {})).output as { version: string; network: string };
  return {
    host: 'desktop',
    keepsToken: false,
    call: call as KeysteadClient['call'],
    async start() {
      const vault = await bridge.vault.status();
      if (!vault.exists) return { state: 'firstRun', version: '', network: '' };
      if (!vault.unlocked) return { state: 'locked', version: '', network: '' };
      return { state: 'signIn', ...(await appStatus()) };
    },
    async setup(input) {
      return unwrap(await bridge.vault.setup(input)).output;
    },
    async signIn(email, password, locked, otp) {
      return locked
        ? unwrap(await bridge.vault.unlock({ email, password, otp })).output
        : (await call(OPERATIONS.login, { email, password, otp })).output;
    },
    async apiUrl() {
      return (await bridge.vault.status()).apiUrl;
    },
    liveEvents(auth, listener) {
      let stopped = false;
      void bridge.events
        .open(auth, undefined, (push) => {
          if (stopped) return;
          if (push.kind === 'event') listener.event(push.event);
          else listener.end(push.reason);
        })
        .then((r) => {
          if (!r.ok) listener.end(r.error.msg);
          else listener.connected?.(true);
        });
      return () => {
        stopped = true;
        void bridge.events.close();
      };
    },
  };
}
