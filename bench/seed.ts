import { P2PKH, PrivateKey, SatoshisPerKilobyte, Transaction } from '@bsv/sdk';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LocalChain } from '../main/chain/local/local-chain.js';
import { startRuntime, type Runtime } from '../main/host/runtime.js';
import { openStore } from '../main/store/database.js';

/**
 * Organisation-scale data for the benchmarks, made fast: coins through a few fan-out transactions on the
 * local chain (real, spendable, booked by the wallet's own sync), history rows by direct inserts in one
 * database transaction. Never thousands of API calls.
 */

export const PASSWORD = 'bench';

export const json = (url: string, method: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then((r) => r.json() as Promise<{ data: any }>);

export async function benchRuntime(
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'keystead-bench-')),
): Promise<{ runtime: Runtime; dataDir: string; auth: Record<string, string> }> {
  const runtime = await startRuntime({ dataDir, password: PASSWORD, port: 0, network: 'local', version: 'bench', sessionTtlSeconds: 3600 });
  const s = await json(`${runtime.url}/api/v1/setup`, 'POST', {
    organisation: 'Bench',
    email: 'bench@example.com',
    password: 'bench-pass-1',
  });
  return { runtime, dataDir, auth: { authToken: s.data.authToken, serviceid: s.data.serviceId } };
}

/** Creates a wallet through the API and returns its id and first receive address. */
export async function benchWallet(
  runtime: Runtime,
  auth: Record<string, string>,
  title: string,
): Promise<{ walletID: string; address: string }> {
  const walletID = (await json(`${runtime.url}/v1/createWallet`, 'POST', { walletTitle: title }, auth)).data.walletID;
  const address = (await json(`${runtime.url}/v1/address`, 'GET', undefined, { ...auth, walletID })).data.address;
  return { walletID, address };
}

/**
 * Puts `count` coins of `satoshis` each on `address` with fan-out transactions of up to 1,000 outputs,
 * then mines them. The wallet books them as the node announces each transaction.
 */
export async function fanOutCoins(node: LocalChain, address: string, count: number, satoshis: number): Promise<void> {
  const funder = PrivateKey.fromRandom();
  for (let done = 0; done < count; done += 1000) {
    const n = Math.min(1000, count - done);
    const f = await node.faucet(funder.toAddress(), n * satoshis + 10_000);
    const parent = Transaction.fromHex((await node.txHex(f.txid!))!);
    const fan = new Transaction();
    fan.addInput({
      sourceTransaction: parent,
      sourceOutputIndex: parent.outputs.findIndex((o) => o.satoshis === n * satoshis + 10_000),
      unlockingScriptTemplate: new P2PKH().unlock(funder),
    });
    for (let i = 0; i < n; i++) fan.addOutput({ lockingScript: new P2PKH().lock(address), satoshis });
    fan.addOutput({ lockingScript: new P2PKH().lock(funder.toAddress()), change: true });
    await fan.fee(new SatoshisPerKilobyte(1));
    await fan.sign();
    const r = await node.submit(fan.toHex());
    if (r.status !== 'accepted') throw new Error(`fan-out refused: ${JSON.stringify(r)}`);
  }
  await node.mine();
}

/**
 * Adds `count` history rows (received payments, confirmed at increasing heights) to a wallet by direct
 * inserts in one database transaction, through a second connection to the running instance's database.
 */
export function seedHistory(dataDir: string, walletId: string, count: number): void {
  const store = openStore({ dataDir, password: PASSWORD });
  try {
    const { id } = store.db.prepare<[string], { id: number }>('SELECT id FROM wallets WHERE wallet_id = ?').get(walletId)!;
    const insert = store.db.prepare(
      "INSERT INTO wallet_txs (wallet_row, txid, direction, amount, fee, counterparty, memo, height, time, state) VALUES (?, ?, 'in', ?, NULL, NULL, ?, ?, ?, 'seen')",
    );
    const start = Date.now() - count * 60_000;
    store.db.transaction(() => {
      for (let i = 0; i < count; i++)
        insert.run(id, randomBytes(32).toString('hex'), 1000 + (i % 500), `seeded ${i}`, 1 + Math.floor(i / 10), start + i * 60_000);
    })();
  } finally {
    store.close();
  }
}
