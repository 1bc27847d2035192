import { P2PKH, PrivateKey } from '@bsv/sdk';
import { rmSync } from 'node:fs';
import { report } from './lib.js';
import { benchRuntime, benchWallet, fanOutCoins, json } from './seed.js';

export const MEASURES = ['concurrent-pays'];

const CLIENTS = 8;
const PAYS = 30;

/**
 * concurrent-pays: eight clients paying from eight wallets at once, throughput against eight times one
 * client's (goal ≥ 0.8; on 2 cores ≥ 0.45). The ratio is (pays/s with 8 clients) / (8 × pays/s with 1).
 */
export async function run(): Promise<void> {
  const { runtime, dataDir, auth } = await benchRuntime();
  try {
    const wallets = [];
    for (let i = 0; i < CLIENTS; i++) wallets.push(await benchWallet(runtime, auth, `Client ${i}`));
    for (const w of wallets) await fanOutCoins(runtime.node!, w.address, PAYS * 2 + 10, 20_000);
    const req = { outputs: [{ script: new P2PKH().lock(PrivateKey.fromRandom().toAddress()).toHex(), satoshis: 5_000 }] };
    const payMany = async (walletID: string, n: number) => {
      for (let i = 0; i < n; i++) {
        const r = await json(`${runtime.url}/v1/pay`, 'POST', req, { ...auth, walletID });
        if (!r.data.txid) throw new Error(`pay failed: ${JSON.stringify(r.data)}`);
      }
    };
    await payMany(wallets[0].walletID, 5); // warm-up
    let t = process.hrtime.bigint();
    await payMany(wallets[0].walletID, PAYS);
    const oneMs = Number(process.hrtime.bigint() - t) / 1e6;
    t = process.hrtime.bigint();
    await Promise.all(wallets.map((w) => payMany(w.walletID, PAYS)));
    const allMs = Number(process.hrtime.bigint() - t) / 1e6;
    const one = PAYS / oneMs;
    const all = (CLIENTS * PAYS) / allMs;
    report({
      name: 'concurrent-pays',
      bench: `${CLIENTS} clients paying from ${CLIENTS} wallets at once: throughput / ${CLIENTS} × one client's`,
      floor: { label: `one client: ${(one * 1000).toFixed(0)} pays/s`, iterations: PAYS, totalMs: oneMs, perOpMs: oneMs / PAYS },
      measured: { label: `${CLIENTS} clients: ${(all * 1000).toFixed(0)} pays/s`, iterations: CLIENTS * PAYS, totalMs: allMs, perOpMs: allMs / (CLIENTS * PAYS) },
      goal: 0.45,
      higherIsBetter: true,
      ratio: all / (CLIENTS * one),
    });
  } finally {
    await runtime.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
