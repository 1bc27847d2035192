// Tries to fetch the Electron binary once, tolerantly. package.json's `allowScripts` stops electron's own
// postinstall (which fails the whole `npm ci` when offline); this step runs it for it and, when the
// network does not allow, says so in one line and lets the install succeed.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
let electronDir;
try {
  electronDir = path.dirname(require.resolve('electron/package.json'));
} catch {
  process.exit(0); // production install without dev dependencies: nothing to fetch
}
if (existsSync(path.join(electronDir, 'path.txt')) || process.env.KEYSTEAD_SKIP_ELECTRON === '1') process.exit(0);

const result = spawnSync(process.execPath, [path.join(electronDir, 'install.js')], {
  cwd: electronDir,
  stdio: 'pipe',
  timeout: 120_000,
  env: { ...process.env, ELECTRON_GET_NO_PROGRESS: '1' },
});
if (result.status === 0 && existsSync(path.join(electronDir, 'path.txt'))) {
  console.log('keystead: Electron binary installed; `npm start` opens the desktop app.');
} else {
  console.log(
    'keystead: Electron binary not available (no network to fetch it); install continues. ' +
      'Use `npm run serve` for the headless app, or re-run `node scripts/fetch-electron.mjs` when online.',
  );
}
