import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { LockingScript, MerklePath, P2PKH, PrivateKey, Transaction, UnlockingScript } from '@bsv/sdk';
import { startRuntime } from '../main/host/runtime.js';
import { buildPaymailServer } from '../main/server/paymail-server.js';
import { report, type Timing } from './lib.js';

/**
 * Untrusted work stays off the event loop: the private API's `GET /health` p99 while strangers post BEEF
 * bombs to the paymail listener and a signed-in viewer posts slow compiles, over its p99 idle (goal ≤ 2).
 * The bombs: a payment whose unproven parent holds 1,000 CHECKSIGs (8 s of the main thread before the
 * budget), 30 CHECKMULTISIGs with no key count, 600 CHECKSIGs in an unlocking script, a 30-deep unconfirmed
 * chain, a merkle proof of another block, and a package within the budget (450 CHECKSIGs, valid) whose
 * scripts do run, on the workers. The listener's per-client rate limit is lifted here, so every bomb is
 * checked rather than answered 429.
 */
export const MEASURES = ['hostile-latency'];

const N = 1_000;

function p99(label: string, samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)];
  return { label, iterations: samples.length, totalMs: samples.reduce((a, b) => a + b, 0), perOpMs: at };
}

async function latencies(n: number, op: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = process.hrtime.bigint();
    await op();
    out.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return out;
}

export async function run(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'keystead-bench-'));
  const runtime = await startRuntime({
    dataDir,
    password: 'bench',
    port: 0,
    network: 'local',
    version: 'bench',
    sessionTtlSeconds: 3600,
    paymailDomain: 'acme.test',
    compile: { timeoutMs: 1_000, memoryMb: 512, maxSourceBytes: 2_000_000 },
  });
  const pub = await buildPaymailServer({ engine: runtime.engine, perClientPerMinute: 1_000_000_000 });
  try {
    await pub.listen({ host: '127.0.0.1', port: 0 });
    const pubUrl = `http://127.0.0.1:${(pub.server.address() as AddressInfo).port}`;
    const json = (r: Response) => r.json() as Promise<{ data: Record<string, string> }>;
    const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const setup = (
      await json(await post(`${runtime.url}/api/v1/setup`, { organisation: 'Bench', email: 'bench@example.com', password: 'bench-pass-1' }))
    ).data;
    const admin = { authToken: setup.authToken, serviceid: setup.serviceId };
    await post(`${runtime.url}/v1/createWallet`, { walletTitle: 'Shop', paymail: 'shop', paymailActivate: true }, admin);
    await post(`${runtime.url}/api/v1/createUser`, { email: 'viewer@example.com', password: 'viewer-pass-1', role: 'viewer' }, admin);
    const viewer = {
      authToken: (await json(await post(`${runtime.url}/api/v1/login`, { email: 'viewer@example.com', password: 'viewer-pass-1' }))).data
        .authToken,
    };

    const beefs = await bombs(runtime.node!);
    let body = '';
    for (let i = 0; i < 40_000; i++) body += `int v${i} = x + ${i};\n`;
    const slowCompile = {
      sourceCode: Buffer.from(`contract C { public function f(int x) { ${body} require(v0 > 0); } }`).toString('base64'),
    };
    const health = async () => (await fetch(`${runtime.url}/health`)).text();

    const idle = await latencies(N, health);
    let stop = false;
    const answers = new Map<number, number>();
    const strangers = [0, 1].map(async (k) => {
      for (let i = k; !stop; i++) {
        const r = await post(`${pubUrl}/api/bsvalias/beef/shop@acme.test`, { beef: beefs[i % beefs.length], reference: 'none' });
        answers.set(r.status, (answers.get(r.status) ?? 0) + 1);
        await r.text();
      }
    });
    const compilers = [0, 1].map(async () => {
      while (!stop) await post(`${runtime.url}/v1/compile`, slowCompile, viewer).then((r) => r.text());
    });
    await new Promise((r) => setTimeout(r, 1_000)); // the first bombs and compiles are being worked on
    const busy = await latencies(N, health);
    stop = true;
    await Promise.all([...strangers, ...compilers]);
    console.log(`  BEEF answers while measured: ${[...answers].map(([s, n]) => `${n} × ${s}`).join(', ')}`);
    report({
      name: 'hostile-latency',
      bench: '/health p99 while hostile BEEFs and compiles run / p99 idle',
      floor: p99('GET /health p99, idle', idle),
      measured: p99('GET /health p99, hostile BEEFs and compiles', busy),
      goal: 2,
    });
  } finally {
    await pub.close();
    await runtime.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The hostile BEEFs, built on a coin of the local chain (funded and mined in the runtime's node). */
async function bombs(node: NonNullable<Awaited<ReturnType<typeof startRuntime>>['node']>): Promise<string[]> {
  const key = PrivateKey.fromRandom();
  const lock = new P2PKH().lock(key.toAddress());
  const funded = await node.faucet(key.toAddress(), 100_000);
  await node.mine();
  const proven = Transaction.fromHex((await node.txHex(funded.txid!))!);
  proven.merklePath = MerklePath.fromHex((await node.txStatus(funded.txid!)).merklePath!);
  const coin = proven.outputs.findIndex((o) => o.lockingScript.toHex() === lock.toHex());
  const spend = async (
    source: Transaction,
    vout: number,
    script: LockingScript,
    satoshis: number,
    unlocking?: UnlockingScript,
    version = 1,
  ) => {
    const tx = new Transaction(version);
    tx.addInput(
      unlocking
        ? { sourceTransaction: source, sourceOutputIndex: vout, unlockingScript: unlocking }
        : { sourceTransaction: source, sourceOutputIndex: vout, unlockingScriptTemplate: new P2PKH().unlock(key) },
    );
    tx.addOutput({ lockingScript: script, satoshis });
    await tx.sign();
    return tx;
  };
  const parentHolding = async (script: string) =>
    (await spend(await spend(proven, coin, LockingScript.fromHex(script), 90_000), 0, lock, 80_000)).toHexBEEF();
  let deep = await spend(proven, coin, lock, 99_000);
  for (let i = 0; i < 30; i++) deep = await spend(deep, 0, lock, 98_000 - i * 100);
  const elsewhere = Transaction.fromHex(proven.toHex());
  elsewhere.merklePath = MerklePath.fromHex(proven.merklePath.toHex());
  elsewhere.merklePath.blockHeight = 0;
  return [
    await parentHolding('6ead'.repeat(999) + 'ac'),
    await parentHolding('76ae'.repeat(30)),
    (await spend(proven, coin, lock, 90_000, UnlockingScript.fromHex('ac'.repeat(600)), 2)).toHexBEEF(),
    deep.toHexBEEF(),
    (await spend(await spend(elsewhere, coin, lock, 90_000), 0, lock, 80_000)).toHexBEEF(),
    await parentHolding('6ead'.repeat(449) + 'ac'),
  ];
}
