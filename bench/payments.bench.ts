import { LockingScript, P2PKH, PrivateKey, SatoshisPerKilobyte, Spend, Transaction } from '@bsv/sdk';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LEDGER_STORE } from '../main/chain/local/ledger-schema.js';
import { startRuntime, type Runtime } from '../main/host/runtime.js';
import { openStore } from '../main/store/database.js';
import { OPERATIONS } from '../shared/operations.js';
import { benchApi } from './api.js';
import { interleaved, report, wanted } from './lib.js';

const json = (url: string, method: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then((r) => r.json() as Promise<{ data: any }>);

async function setup(): Promise<{ runtime: Runtime; dataDir: string; auth: Record<string, string> }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'keystead-bench-'));
  const runtime = await startRuntime({ dataDir, password: 'bench', port: 0, network: 'local', version: 'bench', sessionTtlSeconds: 3600 });
  const s = await json(`${runtime.url}/api/v1/setup`, 'POST', {
    organisation: 'Bench',
    email: 'bench@example.com',
    password: 'bench-pass-1',
  });
  return { runtime, dataDir, auth: { authToken: s.data.authToken } };
}

/** Pay through the HTTP API vs bare @bsv/sdk build + sign + Spend verify of the same shape (1 in, 1 out + change). Goal ≤ 1.1×. */
async function payBench(): Promise<void> {
  const N = 150;
  const { runtime, dataDir, auth } = await setup();
  try {
    const w = (await json(`${runtime.url}/v1/createWallet`, 'POST', { walletTitle: 'Bench' }, auth)).data.walletID;
    for (let i = 0; i < N + 10; i++) await json(`${runtime.url}/chain/faucet`, 'POST', { walletId: w, satoshis: 20_000 }, auth);
    await runtime.node!.mine();
    const to = PrivateKey.fromRandom().toAddress();
    const req = { outputs: [{ script: new P2PKH().lock(to).toHex(), satoshis: 5_000 }], memo: 'bench' };

    // The floor's material: a funded key and a source transaction of the same shape.
    const key = PrivateKey.fromRandom();
    const src = await runtime.node!.faucet(key.toAddress(), 20_000);
    const source = Transaction.fromHex((await runtime.node!.txHex(src.txid!))!);
    const lock = LockingScript.fromHex(new P2PKH().lock(key.toAddress()).toHex());
    const bare = async () => {
      const tx = new Transaction();
      tx.addInput({ sourceTransaction: source, sourceOutputIndex: 0, unlockingScriptTemplate: new P2PKH().unlock(key) });
      tx.addOutput({ lockingScript: LockingScript.fromHex(req.outputs[0].script), satoshis: 5_000 });
      tx.addOutput({ lockingScript: new P2PKH().lock(key.toAddress()), change: true });
      await tx.fee(new SatoshisPerKilobyte(1));
      await tx.sign();
      const input = tx.inputs[0];
      const ok = new Spend({
        sourceTXID: source.id('hex'),
        sourceOutputIndex: 0,
        sourceSatoshis: 20_000,
        lockingScript: lock,
        transactionVersion: tx.version,
        otherInputs: [],
        unlockingScript: input.unlockingScript!,
        inputSequence: 0xffffffff,
        inputIndex: 0,
        outputs: tx.outputs,
        lockTime: tx.lockTime,
      }).validate();
      if (!ok) throw new Error('bare verify failed');
    };
    const api = benchApi(runtime.url, auth);
    const viaApi = () => api.call(OPERATIONS.pay, { ...req, walletId: w });
    const { floor, measured } = await interleaved(
      ['bare @bsv/sdk build + sign + Spend verify', bare],
      ['POST /v1/pay (reserve, sign, broadcast, record)', viaApi],
      N,
      10,
    );
    report({
      name: 'pay-api',
      bench: 'one pay through the HTTP API / bare @bsv/sdk build + sign + Spend verify',
      floor,
      measured,
      goal: 1.1,
    });
  } finally {
    await runtime.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Lookup of a key holding 10,000 UTXOs vs the floor of one indexed query over the same rows. */
async function lookupBench(): Promise<void> {
  const COUNT = 10_000;
  const { runtime, dataDir, auth } = await setup();
  try {
    const node = runtime.node!;
    const key = PrivateKey.fromRandom();
    const address = key.toAddress();
    const funder = PrivateKey.fromRandom();
    // Ten fan-outs of 1,000 outputs each to the one address.
    for (let batch = 0; batch < COUNT / 1000; batch++) {
      const f = await node.faucet(funder.toAddress(), 1000 * 600 + 10_000);
      const parent = Transaction.fromHex((await node.txHex(f.txid!))!);
      const fan = new Transaction();
      fan.addInput({ sourceTransaction: parent, sourceOutputIndex: 0, unlockingScriptTemplate: new P2PKH().unlock(funder) });
      for (let i = 0; i < 1000; i++) fan.addOutput({ lockingScript: new P2PKH().lock(address), satoshis: 600 });
      fan.addOutput({ lockingScript: new P2PKH().lock(funder.toAddress()), change: true });
      await fan.fee(new SatoshisPerKilobyte(1));
      await fan.sign();
      if ((await node.submit(fan.toHex())).status !== 'accepted') throw new Error('fan-out refused');
    }
    await node.mine();
    const ledger = openStore({ dataDir, password: 'bench', ...LEDGER_STORE });
    const query = ledger.db.prepare(
      'SELECT o.txid, o.vout, o.satoshis, o.script, t.block_height FROM outputs o JOIN txs t ON t.txid = o.txid WHERE o.address = ? AND o.spent_by IS NULL',
    );
    const ROUNDS = 15;
    let floorMs = 0;
    let measuredMs = 0;
    let rows = 0;
    for (let r = 0; r < ROUNDS + 2; r++) {
      let t = process.hrtime.bigint();
      rows = query.all(address).length;
      const f = Number(process.hrtime.bigint() - t) / 1e6;
      t = process.hrtime.bigint();
      const res = await json(`${runtime.url}/v1/lookup`, 'POST', { privateKey: key.toWif() }, auth);
      const m = Number(process.hrtime.bigint() - t) / 1e6;
      if (res.data.coins[0].balance !== COUNT * 600) throw new Error(`lookup returned ${JSON.stringify(res.data.coins[0])}`);
      if (r >= 2) {
        floorMs += f;
        measuredMs += m;
      }
    }
    ledger.close();
    if (rows !== COUNT) throw new Error(`expected ${COUNT} rows, got ${rows}`);
    report({
      name: 'lookup-10k',
      goal: 1.5,
      bench: `lookup of a key holding ${COUNT.toLocaleString('en-US')} coins / one indexed query over the same rows`,
      floor: { label: 'one indexed query over the same rows', iterations: ROUNDS, totalMs: floorMs, perOpMs: floorMs / ROUNDS },
      measured: { label: 'POST /v1/lookup (compact)', iterations: ROUNDS, totalMs: measuredMs, perOpMs: measuredMs / ROUNDS },
    });
  } finally {
    await runtime.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export const MEASURES = ['pay-api', 'lookup-10k'];

export async function run(): Promise<void> {
  if (wanted('pay-api')) await payBench();
  if (wanted('lookup-10k')) await lookupBench();
}
