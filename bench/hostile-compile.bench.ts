import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startRuntime } from '../main/host/runtime.js';
import { report, time } from './lib.js';

/**
 * Untrusted work stays off the event loop: `GET /health` while nobody compiles (the floor) against
 * `GET /health` while hostile compiles (about 3 s of work each, stopped by a 1 s limit) keep the compile
 * pool busy. With compiles on the event loop the ratio would be in the thousands.
 */
export const MEASURES = ['hostile-compile'];

export async function run(): Promise<void> {
  const N = 300;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'keystead-bench-'));
  const runtime = await startRuntime({
    dataDir,
    password: 'bench',
    port: 0,
    network: 'local',
    version: 'bench',
    sessionTtlSeconds: 3600,
    compile: { timeoutMs: 1_000, memoryMb: 512, maxSourceBytes: 2_000_000 },
  });
  try {
    const setup = await fetch(`${runtime.url}/api/v1/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ organisation: 'Bench', email: 'bench@example.com', password: 'bench-pass-1' }),
    }).then((r) => r.json() as Promise<{ data: { authToken: string } }>);
    const headers = { authToken: setup.data.authToken, 'content-type': 'application/json' };
    let body = '';
    for (let i = 0; i < 40_000; i++) body += `int v${i} = x + ${i};\n`;
    const hostile = JSON.stringify({
      sourceCode: Buffer.from(`contract C { public function f(int x) { ${body} require(v0 > 0); } }`).toString('base64'),
    });
    const health = async () => (await fetch(`${runtime.url}/health`)).text();

    const idle = await time('GET /health, idle', N, health);
    let stop = false;
    const attackers = [0, 1].map(async () => {
      while (!stop) await fetch(`${runtime.url}/v1/compile`, { method: 'POST', headers, body: hostile }).then((r) => r.text());
    });
    await new Promise((r) => setTimeout(r, 500)); // the first hostile compile is running
    const busy = await time('GET /health, hostile compiles running', N, health, 20);
    stop = true;
    await Promise.all(attackers);
    report({ name: 'hostile-compile', bench: 'API latency while a hostile compile runs', floor: idle, measured: busy, goal: 2 });
  } finally {
    await runtime.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
