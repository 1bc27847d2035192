#!/usr/bin/env node
// `npx keystead …`: builds what is stale (quietly), then runs the CLI.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const build = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs'), '--if-stale', '--quiet'], {
  stdio: ['ignore', 'ignore', 'inherit'],
});
if (build.status !== 0) process.exit(build.status ?? 1);
await import(path.join(root, 'dist', 'main', 'cli.js'));
