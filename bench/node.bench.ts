import { LockingScript, P2PKH, PrivateKey, SatoshisPerKilobyte, Spend, Transaction } from '@bsv/sdk';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LocalNode } from '../main/chain/local/local-node.js';
import { report, type Timing } from './lib.js';

/**
 * Transactions accepted per second by the local node (parse, checks, Spend validation, SQLCipher
 * writes) against the floor of bare @bsv/sdk Spend validation of the same transactions. Goal ≤ 1.1×.
 */
export const MEASURES = ['node-accept'];

export async function run(): Promise<void> {
  const N = 400;
  const WARMUP = 50;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'keystead-bench-'));
  const node = LocalNode.open({ dataDir, password: 'bench' });
  try {
    const key = PrivateKey.fromRandom();
    const funded = await node.faucet(key.toAddress(), (N + WARMUP) * 2000);
    const parent = Transaction.fromHex(node.txHex(funded.txid!)!);
    // One fan-out gives every benchmark transaction its own output to spend.
    const fan = new Transaction();
    fan.addInput({ sourceTransaction: parent, sourceOutputIndex: 0, unlockingScriptTemplate: new P2PKH().unlock(key) });
    for (let i = 0; i < N + WARMUP; i++) fan.addOutput({ lockingScript: new P2PKH().lock(key.toAddress()), satoshis: 1500 });
    fan.addOutput({ lockingScript: new P2PKH().lock(key.toAddress()), change: true });
    await fan.fee(new SatoshisPerKilobyte(1));
    await fan.sign();
    if (node.submit(fan.toHex()).status !== 'accepted') throw new Error('fan-out refused');
    node.mine();

    const txs: Transaction[] = [];
    const to = PrivateKey.fromRandom().toAddress();
    for (let i = 0; i < N + WARMUP; i++) {
      const tx = new Transaction();
      tx.addInput({ sourceTransaction: fan, sourceOutputIndex: i, unlockingScriptTemplate: new P2PKH().unlock(key) });
      tx.addOutput({ lockingScript: new P2PKH().lock(to), satoshis: 1000 });
      await tx.fee(new SatoshisPerKilobyte(1));
      await tx.sign();
      txs.push(tx);
    }
    const hexes = txs.map((t) => t.toHex());
    const lock = LockingScript.fromHex(new P2PKH().lock(key.toAddress()).toHex());
    const bareValidate = (tx: Transaction) => {
      const input = tx.inputs[0];
      const ok = new Spend({
        sourceTXID: fan.id('hex'),
        sourceOutputIndex: input.sourceOutputIndex,
        sourceSatoshis: 1500,
        lockingScript: lock,
        transactionVersion: tx.version,
        otherInputs: [],
        unlockingScript: input.unlockingScript!,
        inputSequence: input.sequence ?? 0xffffffff,
        inputIndex: 0,
        outputs: tx.outputs,
        lockTime: tx.lockTime,
      }).validate();
      if (!ok) throw new Error('bare validation failed');
    };
    for (let i = 0; i < WARMUP; i++) {
      bareValidate(txs[i]);
      node.submit(hexes[i]);
    }
    // Interleaved in blocks, so warm-up and garbage collection weigh on both sides alike.
    let floorMs = 0;
    let measuredMs = 0;
    for (let start = WARMUP; start < WARMUP + N; start += 50) {
      const end = Math.min(start + 50, WARMUP + N);
      let t = process.hrtime.bigint();
      for (let i = start; i < end; i++) bareValidate(txs[i]);
      floorMs += Number(process.hrtime.bigint() - t) / 1e6;
      t = process.hrtime.bigint();
      for (let i = start; i < end; i++) if (node.submit(hexes[i]).status !== 'accepted') throw new Error('refused');
      measuredMs += Number(process.hrtime.bigint() - t) / 1e6;
    }
    const floor: Timing = { label: 'bare @bsv/sdk Spend.validate()', iterations: N, totalMs: floorMs, perOpMs: floorMs / N };
    const measured: Timing = { label: 'LocalNode.submit (accepted)', iterations: N, totalMs: measuredMs, perOpMs: measuredMs / N };
    report({ name: 'node-accept', bench: 'local node accepting a transaction / bare Spend of its inputs', floor, measured, goal: 1.1 });
    console.log(
      `  rate      ${Math.round(1000 / measured.perOpMs)} tx/s accepted; ${Math.round(1000 / floor.perOpMs)} tx/s bare validation`,
    );
  } finally {
    node.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
