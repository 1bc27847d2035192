import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ROOT } from '../helpers/headless.js';

const cruise = (...targets: string[]) =>
  spawnSync(
    process.execPath,
    [
      path.join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs'),
      ...targets,
      '--config',
      '.dependency-cruiser.cjs',
      '--output-type',
      'err',
    ],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );

/**
 * The design's dependency direction is enforced by `npm run lint` (dependency-cruiser). These tests prove
 * the rules bite: deliberately bad files under test/fixtures/layering/ are refused, each by its rule, and
 * the real tree passes.
 */
describe('layering rules', () => {
  it('refuse upward imports, electron outside main/electron, a toolchain or renderer that reaches into main, and a capability against the order', () => {
    const r = cruise('test/fixtures/layering');
    assert.notEqual(r.status, 0, 'the bad fixtures must fail');
    const out = r.stdout + r.stderr;
    const rules = [
      'engine-below-server',
      'electron-only-in-main-electron',
      'contracts-stand-alone',
      'renderer-only-shared',
      'shared-stands-alone',
    ];
    rules.push('engine-layer-wallets', 'capabilities-below-the-engine-root', 'engine-capability-in-the-order');
    for (const rule of rules) {
      assert.match(out, new RegExp(`error ${rule}:`), `${rule} did not fire:\n${out}`);
    }
  });

  it('hold for the real tree', () => {
    const r = cruise('main', 'shared', 'renderer', 'preload');
    assert.equal(r.status, 0, r.stdout + r.stderr);
  });
});
