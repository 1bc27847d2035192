import { HTTPWalletJSON, P2PKH, PrivateKey, WalletClient, type CreateActionArgs, type CreateActionResult } from '@bsv/sdk';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startRuntime } from '../main/host/runtime.js';
import { interleaved, report } from './lib.js';
import { fanOutCoins, json, PASSWORD } from './seed.js';
import { fundedToolboxWallet } from './toolbox-peer.js';

export const MEASURES = ['brc100-create-action'];

/** Each noSend action holds the coins it spends until it is sent or aborted: one coin per action, and some to spare. */
const ROUNDS = 40;
const WARMUP = 5;
const COINS = ROUNDS + WARMUP + 15;
const COIN_SATOSHIS = 20_000;
const APP = 'bench.example';

/**
 * brc100-create-action: one BRC-100 `createAction` answered by Keystead, called by @bsv/sdk's real
 * `WalletClient` over the JSON-over-HTTP listener as an allowed app / the same action by @bsv/wallet-toolbox's
 * `Wallet.createAction` in process (its signer, on its SQLite storage). The action on both sides: one P2PKH
 * output of 1,000 satoshis, a description, `signAndProcess: true` and `noSend: true`, so creation (funding,
 * signing, recording) is measured, not broadcast. Keystead's side pays an HTTP round trip the toolbox's
 * does not; its spending authorisation covers the run, so no call waits for an admin.
 */
export async function run(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'keystead-bench-brc100-'));
  const runtime = await startRuntime({
    dataDir,
    password: PASSWORD,
    port: 0,
    network: 'local',
    version: 'bench',
    sessionTtlSeconds: 3600,
    brc100Listen: { host: '127.0.0.1', port: 0 },
    brc100WaitSeconds: 60,
  });
  let toolbox: Awaited<ReturnType<typeof fundedToolboxWallet>> | undefined;
  try {
    const api = (method: string, route: string, body: unknown, headers: Record<string, string> = {}) =>
      json(`${runtime.url}${route}`, method, body, { ...auth, ...headers });
    const s = await json(`${runtime.url}/api/v1/setup`, 'POST', {
      organisation: 'Bench',
      email: 'bench@example.com',
      password: 'bench-pass-1',
    });
    const auth = { authToken: s.data.authToken, serviceid: s.data.serviceId };

    // Keystead: a funded wallet answering an allowed app whose monthly authorisation covers the run.
    const walletID = (await api('POST', '/v1/createWallet', { walletTitle: 'Apps' })).data.walletID;
    const address = (await api('GET', '/v1/address', undefined, { walletID })).data.address;
    await fanOutCoins(runtime.node!, address, COINS, COIN_SATOSHIS);
    await untilFunded(() => api('GET', '/v1/wallets', undefined), walletID, COINS * COIN_SATOSHIS);
    const app = new WalletClient(new HTTPWalletJSON(APP, runtime.brc100Url!), APP);
    const first = app.isAuthenticated({}); // records the app (pending) as a first call does
    await first;
    const allowed = await api('POST', '/api/v1/apps/decide', { originator: APP, allow: true, walletId: walletID });
    if (allowed.data?.state !== 'allowed') throw new Error(`allowing the bench app failed: ${JSON.stringify(allowed)}`);
    const limit = await api('PUT', '/api/v1/apps/spending-limit', { originator: APP, limit: { satoshis: 100_000_000 } });
    if (!limit.data || limit.data.code) throw new Error(`setting the bench app's spending authorisation failed: ${JSON.stringify(limit)}`);

    // The toolbox: a wallet with as many coins, from the same chain.
    toolbox = await fundedToolboxWallet(runtime, COINS, COIN_SATOSHIS, 'brc100-create-action');
    const peer = toolbox.wallet;

    const to = new P2PKH().lock(PrivateKey.fromRandom().toAddress()).toHex();
    const args: CreateActionArgs = {
      description: 'bench action',
      outputs: [{ lockingScript: to, satoshis: 1_000, outputDescription: 'payee' }],
      options: { signAndProcess: true, noSend: true, randomizeOutputs: false },
    };
    const check = (who: string) => (r: CreateActionResult) => {
      if (!r.txid || !r.tx) throw new Error(`${who} createAction returned no signed transaction: ${JSON.stringify(r).slice(0, 300)}`);
    };
    const { floor, measured } = await interleaved(
      ['@bsv/wallet-toolbox Wallet.createAction (in process, SQLite storage)', () => peer.createAction(args).then(check('toolbox'))],
      ['Keystead createAction (WalletClient over HTTP, allowed app)', () => app.createAction(args).then(check('Keystead'))],
      ROUNDS,
      WARMUP,
    );
    report({
      name: 'brc100-create-action',
      bench: 'Keystead BRC-100 createAction / @bsv/wallet-toolbox createAction of the same action (noSend)',
      floor,
      measured,
      goal: 0.5,
    });
  } finally {
    await toolbox?.close();
    await runtime.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The wallet books fan-out coins as the node announces them: waits (polling, bounded) until it holds them all. */
async function untilFunded(wallets: () => Promise<{ data: any }>, walletID: string, satoshis: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const w = (await wallets()).data.wallets.find((x: { walletID: string }) => x.walletID === walletID);
    if (w && w.balance.confirmed + w.balance.unconfirmed >= satoshis) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the bench wallet was not funded');
}
