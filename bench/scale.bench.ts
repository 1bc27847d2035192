import { P2PKH, PrivateKey } from '@bsv/sdk';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startRuntime } from '../main/host/runtime.js';
import { OPERATIONS } from '../shared/operations.js';
import { benchApi } from './api.js';
import { interleaved, report, wanted, type Timing } from './lib.js';
import { benchRuntime, benchWallet, fanOutCoins, PASSWORD, seedHistory } from './seed.js';

/** Organisation scale (BENCH_SCALE, default 100,000): coins and history rows in one wallet. */
const SCALE = Number(process.env.BENCH_SCALE ?? 100_000);
const SMALL = 100;

export const MEASURES = ['pay-100k', 'history-100k', 'startup-100k'];

/**
 * pay-100k: a pay from a wallet holding SCALE coins / from one holding 100 (goal ≤ 1.2).
 * history-100k: the first page of a wallet's history with SCALE transactions / with 100 (goal ≤ 1.5).
 * startup-100k: start to listening on that data directory / on an empty one (goal ≤ 1.5).
 */
export async function run(): Promise<void> {
  const { runtime, dataDir, auth } = await benchRuntime();
  let closed = false;
  try {
    const node = runtime.node!;
    const big = await benchWallet(runtime, auth, 'Big');
    const small = await benchWallet(runtime, auth, 'Small');
    const seedStart = Date.now();
    await fanOutCoins(node, big.address, SCALE, 20_000);
    await fanOutCoins(node, small.address, SMALL, 20_000);
    seedHistory(dataDir, big.walletID, SCALE);
    seedHistory(dataDir, small.walletID, SMALL);
    console.log(
      `\n[scale] seeded ${SCALE.toLocaleString('en-US')} coins and ${SCALE.toLocaleString('en-US')} history rows in ${((Date.now() - seedStart) / 1000).toFixed(1)} s`,
    );
    const api = benchApi(runtime.url, auth);
    const balances = (await api.call(OPERATIONS.listWallets, {})).output.wallets;
    const held = balances.find((w) => w.walletID === big.walletID)!.balance;
    if (held.confirmed + held.unconfirmed !== SCALE * 20_000) throw new Error(`the big wallet books ${JSON.stringify(held)}`);

    if (wanted('pay-100k')) {
      const req = { outputs: [{ script: new P2PKH().lock(PrivateKey.fromRandom().toAddress()).toHex(), satoshis: 5_000 }] };
      const pay = (walletId: string) => () => api.call(OPERATIONS.pay, { ...req, walletId });
      const { floor, measured } = await interleaved(
        [`pay from a wallet holding ${SMALL} coins`, pay(small.walletID)],
        [`pay from a wallet holding ${SCALE.toLocaleString('en-US')} coins`, pay(big.walletID)],
        60,
        5,
      );
      report({ name: 'pay-100k', bench: `pay from ${SCALE.toLocaleString('en-US')} coins / from ${SMALL}`, floor, measured, goal: 1.2 });
    }

    if (wanted('history-100k')) {
      const page = (walletId: string) => async () => {
        const { history } = (await api.call(OPERATIONS.history, { walletId, maxResults: 20 })).output;
        if (history.length !== 20) throw new Error(`history answered ${history.length} rows, not 20`);
      };
      const { floor, measured } = await interleaved(
        [`first history page of ${SMALL} transactions`, page(small.walletID)],
        [`first history page of ${SCALE.toLocaleString('en-US')} transactions`, page(big.walletID)],
        100,
        10,
      );
      report({
        name: 'history-100k',
        bench: `first page of history with ${SCALE.toLocaleString('en-US')} transactions / with ${SMALL}`,
        floor,
        measured,
        goal: 1.5,
      });
    }

    if (wanted('startup-100k')) {
      await runtime.close();
      closed = true;
      const startOnce = async (dir: string) => {
        const t = process.hrtime.bigint();
        const r = await startRuntime({
          dataDir: dir,
          password: PASSWORD,
          port: 0,
          network: 'local',
          version: 'bench',
          sessionTtlSeconds: 3600,
        });
        const ms = Number(process.hrtime.bigint() - t) / 1e6;
        await r.close();
        return ms;
      };
      const rounds = 3;
      let emptyMs = 0;
      let fullMs = 0;
      for (let i = 0; i < rounds; i++) {
        const empty = mkdtempSync(path.join(os.tmpdir(), 'keystead-bench-empty-'));
        emptyMs += await startOnce(empty);
        rmSync(empty, { recursive: true, force: true });
        fullMs += await startOnce(dataDir);
      }
      const timing = (label: string, ms: number): Timing => ({ label, iterations: rounds, totalMs: ms, perOpMs: ms / rounds });
      report({
        name: 'startup-100k',
        bench: `start to listening with ${SCALE.toLocaleString('en-US')} coins and transactions / with an empty database`,
        floor: timing('start on an empty data directory', emptyMs),
        measured: timing(`start with ${SCALE.toLocaleString('en-US')} coins and transactions`, fullMs),
        goal: 1.5,
      });
    }
  } finally {
    if (!closed) await runtime.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
