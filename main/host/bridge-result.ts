import type { BridgeResult } from '../../shared/bridge.js';
import { mapError } from '../server/errors.js';

/** Runs an engine call for IPC and turns any failure into the same code/msg/status the HTTP API gives. */
export async function toBridgeResult<T>(work: () => Promise<{ msg: string; output: T }>, logError: (m: string) => void): Promise<BridgeResult<T>> {
  try {
    const { msg, output } = await work();
    return { ok: true, msg, output };
  } catch (err) {
    const mapped = mapError(err);
    if (mapped.unexpected) logError(`keystead: unexpected error: ${(err as Error)?.stack ?? String(err)}`);
    const { code, msg, retryAfter } = mapped.envelope.data;
    const errors = (mapped.envelope.data as { errors?: unknown }).errors;
    return { ok: false, error: { code, msg, statusCode: mapped.envelope.statusCode, ...(retryAfter ? { retryAfter } : {}), ...(errors ? { errors } : {}) } };
  }
}
