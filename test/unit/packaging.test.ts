import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, it } from 'node:test';
import YAML from 'yaml';
import { ROOT } from '../helpers/headless.js';

const require = createRequire(import.meta.url);
// electron-builder's own validator (pinned version: the path is internal to app-builder-lib).
const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
  validateConfiguration(config: unknown, logger: unknown): Promise<void>;
};
const { DebugLogger } = require('builder-util') as { DebugLogger: new () => unknown };

const config = YAML.parse(readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8'));

describe('electron-builder.yml', () => {
  it("passes electron-builder's configuration schema", async () => {
    await validateConfiguration(structuredClone(config), new DebugLogger());
  });

  it('is checked for real: a wrong key is rejected', async () => {
    await assert.rejects(
      validateConfiguration({ ...structuredClone(config), linux: { bogusKey: 1 } }, new DebugLogger()),
      /configuration/i,
    );
  });

  it('targets Linux, macOS and Windows, unpacks the native modules, and sets the security fuses', () => {
    assert.deepEqual(config.linux.target, ['AppImage', 'deb']);
    assert.equal(config.mac.target, 'dmg');
    assert.equal(config.win.target, 'nsis');
    assert.ok(config.asarUnpack.some((p: string) => p.includes('better-sqlite3-multiple-ciphers')));
    assert.ok(config.asarUnpack.some((p: string) => p.includes('node_modules/secp256k1/')));
    assert.equal(config.extraMetadata.main, 'dist/main/desktop.js');
    assert.deepEqual(
      {
        runAsNode: config.electronFuses.runAsNode,
        nodeOptions: config.electronFuses.enableNodeOptionsEnvironmentVariable,
        inspect: config.electronFuses.enableNodeCliInspectArguments,
        asarOnly: config.electronFuses.onlyLoadAppFromAsar,
      },
      { runAsNode: false, nodeOptions: false, inspect: false, asarOnly: true },
    );
    assert.ok(existsSync(path.join(ROOT, config.linux.icon)), 'the icon exists');
  });
});
