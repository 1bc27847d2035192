// `npm test`: builds, then runs unit, integration (node:test) and e2e (Playwright in Debian's Chromium),
// and closes with one line `N passed, N failed` over all of them. Exits non-zero on any failure.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'test', 'output');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

function run(cmd, args, { capture = false, env = {} } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'],
    });
    let text = '';
    if (capture) {
      child.stdout.on('data', (d) => {
        process.stdout.write(d);
        text += d;
      });
    }
    child.on('exit', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), text }));
  });
}

const files = (dir) =>
  existsSync(path.join(root, dir))
    ? readdirSync(path.join(root, dir))
        .filter((f) => f.endsWith('.test.ts'))
        .sort()
        .map((f) => path.join(dir, f))
    : [];

let passed = 0;
let failed = 0;
let exitCode = 0;

const build = await run(process.execPath, ['scripts/build.mjs', '--quiet']);
if (build.code !== 0) {
  console.error('keystead: build failed');
  failed += 1;
  exitCode = 1;
} else {
  for (const [name, dir] of [
    ['unit', 'test/unit'],
    ['integration', 'test/integration'],
    ['hostile', 'test/hostile'],
  ]) {
    const list = files(dir);
    if (!list.length) continue;
    console.log(`\n=== ${name} tests (${list.length} files) ===`);
    const r = await run(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-reporter=spec', ...list], {
      capture: true,
    });
    const pass = Number(/ℹ pass (\d+)/.exec(r.text)?.[1] ?? 0);
    const fail = Number(/ℹ fail (\d+)/.exec(r.text)?.[1] ?? 0) + Number(/ℹ cancelled (\d+)/.exec(r.text)?.[1] ?? 0);
    passed += pass;
    failed += fail;
    if (r.code !== 0) {
      exitCode = 1;
      if (fail === 0) failed += 1; // the runner itself failed (e.g. a file did not load)
    }
  }

  console.log('\n=== e2e tests (Playwright, Chromium) ===');
  const e2e = await run(process.execPath, ['node_modules/@playwright/test/cli.js', 'test', '-c', 'test/e2e/playwright.config.ts'], {
    env: { PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
  });
  const report = path.join(out, 'e2e-results.json');
  if (existsSync(report)) {
    const stats = JSON.parse(readFileSync(report, 'utf8')).stats ?? {};
    passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
    failed += stats.unexpected ?? 0;
  }
  if (e2e.code !== 0) {
    exitCode = 1;
    if (!existsSync(report)) failed += 1;
  }
}

const summary = `${passed} passed, ${failed} failed`;
writeFileSync(path.join(out, 'summary.txt'), `${summary}\n`);
console.log(`\n${summary}`);
process.exit(exitCode || (failed > 0 ? 1 : 0));
