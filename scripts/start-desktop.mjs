// `npm start`: the desktop app. Needs the Electron binary, which `npm install` fetches where the network
// allows; without it, say so plainly and point to the headless mode.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

function electronBinary() {
  try {
    const dir = path.dirname(require.resolve('electron/package.json'));
    const rel = readFileSync(path.join(dir, 'path.txt'), 'utf8').trim();
    const bin = path.join(dir, 'dist', rel);
    return existsSync(bin) ? bin : null;
  } catch {
    return null;
  }
}

const bin = electronBinary();
if (!bin) {
  console.error(`Keystead desktop needs the Electron binary, and it is not installed.
This machine could not download it (npm install tries once; it needs internet access to Electron's releases).

  • Run the same app headless, in your browser:  npm run serve   (then open the printed address)
  • Or, on a machine with internet access:       node scripts/fetch-electron.mjs && npm start`);
  process.exit(1);
}

// The SQLCipher module in node_modules is built for Node (the headless host and tests use it). Electron
// needs its own build for its ABI; make it once, in a separate folder, so neither breaks the other.
function electronSqliteBinding() {
  const version = JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version;
  const target = path.join(root, '.native', `electron-${version}`, 'better_sqlite3.node');
  if (existsSync(target)) return target;
  const pkgDir = path.dirname(require.resolve('better-sqlite3-multiple-ciphers/package.json'));
  const work = path.join(root, '.native', `electron-${version}`, 'build-src');
  rmSync(work, { recursive: true, force: true });
  cpSync(pkgDir, work, { recursive: true, filter: (src) => !src.includes(`${path.sep}build${path.sep}`) });
  console.error(`keystead: building the SQLCipher module for Electron ${version} (once; needs Electron's headers from the network)…`);
  const gyp = spawnSync(
    'npx',
    ['--yes', 'node-gyp', 'rebuild', '--release', `--target=${version}`, '--runtime=electron', '--dist-url=https://electronjs.org/headers'],
    {
      cwd: work,
      stdio: 'inherit',
    },
  );
  if (gyp.status !== 0) {
    console.error('keystead: could not build the SQLCipher module for Electron. Use `npm run serve` meanwhile.');
    process.exit(1);
  }
  mkdirSync(path.dirname(target), { recursive: true });
  copyFileSync(path.join(work, 'build', 'Release', 'better_sqlite3.node'), target);
  rmSync(work, { recursive: true, force: true });
  return target;
}

const binding = electronSqliteBinding();
const build = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs'), '--if-stale'], { stdio: 'inherit', cwd: root });
if (build.status !== 0) process.exit(build.status ?? 1);
const child = spawn(bin, [root, ...process.argv.slice(2)], {
  stdio: 'inherit',
  cwd: root,
  env: { ...process.env, KEYSTEAD_SQLITE_BINDING: binding },
});
child.on('exit', (code) => process.exit(code ?? 0));
