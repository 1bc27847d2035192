import { HD, Mnemonic, P2PKH, PrivateKey, SatoshisPerKilobyte, Transaction } from '@bsv/sdk';
import { rmSync } from 'node:fs';
import { report } from './lib.js';
import { benchRuntime, json } from './seed.js';

export const MEASURES = ['sync-import'];

const USED = 2_000;
const GAP = 20;

/**
 * sync-import: importing a phrase whose wallet has 2,000 used receive addresses on the local chain (the
 * scan walks them to the gap limit and books every payment) / deriving those addresses bare (goal ≤ 3).
 */
export async function run(): Promise<void> {
  const { runtime, dataDir, auth } = await benchRuntime();
  try {
    const node = runtime.node!;
    const phrase = Mnemonic.fromRandom(128).toString();
    const deriveBare = () => {
      const chain = HD.fromSeed(Mnemonic.fromString(phrase).toSeed()).derive("m/44'/236'/0'").deriveChild(0);
      const out: string[] = [];
      for (let i = 0; i < USED + GAP; i++) out.push(chain.deriveChild(i).pubKey.toAddress());
      return out;
    };
    const addresses = deriveBare().slice(0, USED);
    // Every address paid once, by two fan-outs of 1,000 outputs.
    const funder = PrivateKey.fromRandom();
    for (let start = 0; start < USED; start += 1000) {
      const batch = addresses.slice(start, start + 1000);
      const f = await node.faucet(funder.toAddress(), batch.length * 1_000 + 10_000);
      const parent = Transaction.fromHex((await node.txHex(f.txid!))!);
      const fan = new Transaction();
      fan.addInput({
        sourceTransaction: parent,
        sourceOutputIndex: parent.outputs.findIndex((o) => o.satoshis === batch.length * 1_000 + 10_000),
        unlockingScriptTemplate: new P2PKH().unlock(funder),
      });
      for (const a of batch) fan.addOutput({ lockingScript: new P2PKH().lock(a), satoshis: 1_000 });
      fan.addOutput({ lockingScript: new P2PKH().lock(funder.toAddress()), change: true });
      await fan.fee(new SatoshisPerKilobyte(1));
      await fan.sign();
      if ((await node.submit(fan.toHex())).status !== 'accepted') throw new Error('fan-out refused');
    }
    await node.mine();

    let t = process.hrtime.bigint();
    deriveBare();
    const floorMs = Number(process.hrtime.bigint() - t) / 1e6;
    t = process.hrtime.bigint();
    const r = await json(`${runtime.url}/v1/createWallet`, 'POST', { walletTitle: 'Imported', mnemonicPhrase: phrase }, auth);
    const importMs = Number(process.hrtime.bigint() - t) / 1e6;
    const w = (await json(`${runtime.url}/v1/wallets`, 'GET', undefined, auth)).data.wallets.find(
      (x: { walletID: string }) => x.walletID === r.data.walletID,
    );
    if (w.balance.confirmed !== USED * 1_000) throw new Error(`the import found ${JSON.stringify(w.balance)}`);
    report({
      name: 'sync-import',
      bench: `importing a phrase with ${USED.toLocaleString('en-US')} used addresses / deriving them bare`,
      floor: { label: `derive ${USED + GAP} addresses bare (@bsv/sdk HD)`, iterations: 1, totalMs: floorMs, perOpMs: floorMs },
      measured: {
        label: 'POST /v1/createWallet with the phrase (scan to the gap, book every payment)',
        iterations: 1,
        totalMs: importMs,
        perOpMs: importMs,
      },
      goal: 3,
    });
  } finally {
    await runtime.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
