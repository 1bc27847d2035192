import { P2PKH, PrivateKey } from '@bsv/sdk';
import { rmSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { PayClientsData, PayRound } from './pay-clients.js';
import { report, untilQuiet } from './lib.js';
import { benchRuntime, benchWallet, fanOutCoins } from './seed.js';

export const MEASURES = ['concurrent-pays'];

const CLIENTS = 8;
const PAYS = 30;
/** Rounds of each shape per run (alternating). */
const ROUNDS = 3;

/**
 * concurrent-pays: eight clients paying from eight wallets at once, throughput against eight times one
 * client's. The ratio is (pays/s with 8 clients) / (8 × pays/s with 1). One client's pay never waits on
 * I/O, so eight clients can at best use every core as fully as one client uses one: on 2 cores the bound
 * is 2 / 8 = 0.25, and the goal (≥ 0.22) asks for eight clients to get at least 1.8 times one client's
 * throughput, signatures and script checks running on the worker threads beside the event loop.
 */
export async function run(): Promise<void> {
  const { runtime, dataDir, auth } = await benchRuntime();
  try {
    const wallets = [];
    for (let i = 0; i < CLIENTS; i++) wallets.push(await benchWallet(runtime, auth, `Client ${i}`));
    for (const w of wallets) await fanOutCoins(runtime.node!, w.address, PAYS * (ROUNDS + 1) * 2 + 20, 20_000);
    let oneMs = 0;
    let allMs = 0;
    const outputs = [{ script: new P2PKH().lock(PrivateKey.fromRandom().toAddress()).toHex(), satoshis: 5_000 }];
    // The clients run on a thread of their own (pay-clients.ts), as they would in another process: the
    // server's event loop does only the server's work. Both sides of the ratio are measured through it.
    const clients = new Worker(new URL('./pay-clients-entry.cjs', import.meta.url), {
      workerData: { url: runtime.url, auth, outputs } satisfies PayClientsData,
    });
    try {
      const payRound = (round: PayRound) =>
        new Promise<number>((resolve, reject) => {
          clients.once('message', (m: { ms?: number; error?: string }) => (m.error ? reject(new Error(m.error)) : resolve(m.ms!)));
          clients.postMessage(round);
        });
      // Warm-up: both shapes once, so that neither side of the ratio pays for compiling the code paths
      // (measured first and cold, one client's pays took twice as long as warm, and the ratio read 0.34).
      await payRound({ walletIds: [wallets[0].walletID], pays: 10 });
      await payRound({ walletIds: wallets.map((w) => w.walletID), pays: 5 });
      // Each round from a quiet process: the first pays start the node's script workers, which load for a
      // second or more (under tsx) and would otherwise slow whichever round they overlap. The two shapes
      // alternate, ROUNDS times each, and their times are summed: a runner's slow moment then falls on both.
      for (let round = 0; round < ROUNDS; round++) {
        await untilQuiet();
        oneMs += await payRound({ walletIds: [wallets[0].walletID], pays: PAYS });
        await untilQuiet();
        allMs += await payRound({ walletIds: wallets.map((w) => w.walletID), pays: PAYS });
      }
    } finally {
      await clients.terminate();
    }
    const one = (ROUNDS * PAYS) / oneMs;
    const all = (ROUNDS * CLIENTS * PAYS) / allMs;
    report({
      name: 'concurrent-pays',
      bench: `${CLIENTS} clients paying from ${CLIENTS} wallets at once: throughput / ${CLIENTS} × one client's`,
      floor: {
        label: `one client: ${(one * 1000).toFixed(0)} pays/s`,
        iterations: ROUNDS * PAYS,
        totalMs: oneMs,
        perOpMs: oneMs / (ROUNDS * PAYS),
      },
      measured: {
        label: `${CLIENTS} clients: ${(all * 1000).toFixed(0)} pays/s`,
        iterations: ROUNDS * CLIENTS * PAYS,
        totalMs: allMs,
        perOpMs: allMs / (ROUNDS * CLIENTS * PAYS),
      },
      goal: 0.22,
      higherIsBetter: true,
      ratio: all / (CLIENTS * one),
    });
  } finally {
    await runtime.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
