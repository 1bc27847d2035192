// Builds everything into dist/: the main process (headless and desktop entries), the preload bridge and
// the renderer. `--if-stale` skips the work when dist/ is newer than every source file (used by
// `npm run serve`); `--quiet` keeps stdout clean for the headless host's one-line contract.
import { execFileSync } from 'node:child_process';
import { build as esbuild } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));
const quiet = args.has('--quiet');
const stamp = path.join(root, 'dist', '.build-stamp');
const log = (msg) => (quiet ? process.stderr : process.stdout).write(`${msg}\n`);

function newestMtime(entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return 0;
  const st = statSync(full);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const child of readdirSync(full)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

const SOURCES = ['main', 'shared', 'preload', 'renderer', 'assets', 'package.json', 'vite.config.ts', 'scripts/build.mjs'];
if (args.has('--if-stale') && existsSync(stamp)) {
  const built = statSync(stamp).mtimeMs;
  if (SOURCES.every((s) => newestMtime(s) <= built)) process.exit(0);
}

const started = Date.now();
// The open token template is sCrypt compiled by our own compiler: the build fails if it does not compile.
execFileSync(process.execPath, ['--import', 'tsx', path.join(root, 'scripts', 'build-token-templates.ts')], {
  cwd: root,
  stdio: ['ignore', quiet ? 'ignore' : 'inherit', 'inherit'],
});
log('keystead: building main, preload and renderer…');
const common = { bundle: true, platform: 'node', target: 'node20', sourcemap: true, logLevel: 'warning', packages: 'external' };
await Promise.all([
  esbuild({
    ...common,
    // compile-worker, script-worker, key-worker and node-thread: the compile pool's, the local node's script checks', the key
    // ring's and the local node's own worker threads load them
    // beside the entry that started them.
    entryPoints: {
      headless: 'main/headless.ts',
      desktop: 'main/desktop.ts',
      cli: 'main/cli.ts',
      'compile-worker': 'main/contracts/compile-worker.ts',
      'script-worker': 'main/chain/local/script-worker.ts',
      'key-worker': 'main/engine/wallets/key-worker.ts',
      'node-thread': 'main/chain/local/node-thread-entry.ts',
    },
    outdir: 'dist/main',
    format: 'esm',
    absWorkingDir: root,
  }),
  // A sandboxed preload must be a single CommonJS file that requires nothing but electron.
  esbuild({
    ...common,
    packages: undefined,
    external: ['electron'],
    entryPoints: ['preload/index.ts'],
    outfile: 'dist/preload/index.cjs',
    format: 'cjs',
    absWorkingDir: root,
  }),
]);

// The sCrypt standard library is read at run time from scrypt-stdlib/ beside the bundles (main/contracts/scrypt/stdlib.ts).
const stdlibFrom = path.join(root, 'main', 'contracts', 'scrypt', 'stdlib');
const stdlibTo = path.join(root, 'dist', 'main', 'scrypt-stdlib');
rmSync(stdlibTo, { recursive: true, force: true });
mkdirSync(stdlibTo, { recursive: true });
for (const file of readdirSync(stdlibFrom).filter((f) => f.endsWith('.scrypt'))) {
  copyFileSync(path.join(stdlibFrom, file), path.join(stdlibTo, file));
}

const { build: viteBuild } = await import('vite');
await viteBuild({ configFile: path.join(root, 'vite.config.ts'), logLevel: quiet ? 'error' : 'warn' });

mkdirSync(path.dirname(stamp), { recursive: true });
writeFileSync(stamp, new Date().toISOString());
log(`keystead: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
