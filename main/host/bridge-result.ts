import type { BridgeResult } from '../../shared/bridge.js';
import { isDomainError } from '../../shared/errors.js';
import type { Logger } from '../log/logger.js';

/**
 * The IPC adapter's error mapping: runs an engine call and turns a domain error into the bridge's tagged
 * failure (code, message, kind and details). Anything else is a bug: logged, answered without internals.
 */
export async function toBridgeResult<T>(work: () => Promise<{ msg: string; output: T }>, logger: Logger): Promise<BridgeResult<T>> {
  try {
    const { msg, output } = await work();
    return { ok: true, msg, output };
  } catch (err) {
    if (isDomainError(err)) {
      const { retryAfter, errors, ...rest } = err.details as { retryAfter?: number; errors?: unknown };
      return {
        ok: false,
        error: {
          code: err.code,
          msg: err.message,
          kind: err.kind,
          ...(typeof retryAfter === 'number' ? { retryAfter } : {}),
          ...(errors ? { errors } : {}),
          ...(Object.keys(rest).length ? { details: rest } : {}),
        },
      };
    }
    logger.error({ err }, 'unexpected error in an IPC call');
    return { ok: false, error: { code: 'INTERNAL', msg: 'Something went wrong inside Keystead. The error was logged.', kind: 'internal' } };
  }
}
