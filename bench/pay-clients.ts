import { parentPort, workerData } from 'node:worker_threads';
import { OPERATIONS } from '../shared/operations.js';
import type { PaymentOutput } from '../main/engine/payments/plan.js';
import { benchApi } from './api.js';

/**
 * The concurrent-pays clients, on a thread of their own (concurrency.bench.ts): each client pays in a loop
 * through the public REST route, as a script on another machine would, so that the clients' own HTTP work
 * (building requests, parsing answers) is not done by the event loop of the server they measure.
 */
export interface PayClientsData {
  url: string;
  auth: Record<string, string>;
  outputs: PaymentOutput[];
}

/** A message to the thread: pay `pays` times from each wallet, the wallets' loops at once; answered with the elapsed ms. */
export interface PayRound {
  walletIds: string[];
  pays: number;
}

const { url, auth, outputs } = workerData as PayClientsData;
const api = benchApi(url, auth);

parentPort!.on('message', async ({ walletIds, pays }: PayRound) => {
  try {
    const t = process.hrtime.bigint();
    await Promise.all(
      walletIds.map(async (walletId) => {
        for (let i = 0; i < pays; i++) await api.call(OPERATIONS.pay, { outputs, walletId });
      }),
    );
    parentPort!.postMessage({ ms: Number(process.hrtime.bigint() - t) / 1e6 });
  } catch (err) {
    parentPort!.postMessage({ error: (err as Error).message });
  }
});
