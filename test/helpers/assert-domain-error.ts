import assert from 'node:assert/strict';
import { DomainError } from '../../shared/errors.js';

/** Awaits a promise expected to fail with the given DomainError code (and message pattern). */
export async function rejectsWith(p: Promise<unknown>, code: string, msg?: RegExp): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof DomainError, `expected DomainError ${code}, got ${err}`);
    assert.equal(err.code, code, err.message);
    if (msg) assert.match(err.message, msg);
    return true;
  });
}
