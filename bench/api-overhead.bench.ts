import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startRuntime } from '../main/host/runtime.js';
import { compare, report } from './lib.js';

/**
 * What the embedded API adds to a call: an authenticated GET /api/v1/me (guards, token lookup in
 * SQLCipher, envelope) against the floor of a bare node:http server answering the same JSON.
 */
export const MEASURES = ['api-overhead'];

export async function run(): Promise<void> {
  const N = 2000;
  const body = JSON.stringify({ statusCode: 200, data: { status: 'success', msg: 'ok', uid: 'x', email: 'a@b.co', role: 'admin' } });
  const bare = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'keystead-bench-'));
  const runtime = await startRuntime({ dataDir, password: 'bench', port: 0, network: 'local', version: 'bench', sessionTtlSeconds: 3600 });
  try {
    const setup = await fetch(`${runtime.url}/api/v1/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ organisation: 'Bench', email: 'bench@example.com', password: 'bench-pass-1' }),
    }).then((r) => r.json() as Promise<{ data: { authToken: string } }>);
    const headers = { authToken: setup.data.authToken };

    const { floor, measured } = await compare(
      3,
      ['bare node:http JSON', N, async () => (await fetch(bareUrl)).text()],
      ['GET /api/v1/me (authenticated)', N, async () => (await fetch(`${runtime.url}/api/v1/me`, { headers })).text()],
    );
    report({ name: 'api-overhead', bench: 'api overhead', floor, measured });
  } finally {
    await runtime.close();
    bare.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
