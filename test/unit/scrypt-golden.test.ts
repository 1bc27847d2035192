import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fingerprints } from '../../scripts/scrypt-golden.js';
import { ROOT } from '../helpers/headless.js';

/**
 * The compiler's bytes do not change by accident: every corpus contract's script (plain and -O) and
 * artifact, and every negative fixture's diagnostics, match the recorded fingerprints. A deliberate change
 * regenerates them with `npm run golden:scrypt` and says why in its commit.
 */
describe('sCrypt output is stable', () => {
  it('matches test/fixtures/scrypt-golden.json', () => {
    const want = JSON.parse(readFileSync(path.join(ROOT, 'test', 'fixtures', 'scrypt-golden.json'), 'utf8')) as Record<string, unknown>;
    const got = fingerprints();
    const changed = Object.keys({ ...want, ...got }).filter((k) => JSON.stringify(want[k]) !== JSON.stringify(got[k]));
    assert.deepEqual(
      changed,
      [],
      `changed output: ${changed.map((k) => `${k}: ${JSON.stringify(want[k])} → ${JSON.stringify(got[k])}`).join('\n')}`,
    );
  });
});
