import assert from 'node:assert/strict';
import { AppError } from '../../main/engine/errors.js';

/** Awaits a promise expected to fail with the given AppError code (and message pattern). */
export async function rejectsWith(p: Promise<unknown>, code: string, msg?: RegExp): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof AppError, `expected AppError ${code}, got ${err}`);
    assert.equal(err.code, code, err.message);
    if (msg) assert.match(err.message, msg);
    return true;
  });
}
