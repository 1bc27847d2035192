import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Runtime } from '../main/host/runtime.js';

const PEER_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'peer');

/** @bsv/wallet-toolbox, installed into bench/peer on first use (a dependency of the benchmarks only). */
export function peerModules(label: string): { toolbox: any; sdk: any } {
  const entry = path.join(PEER_DIR, 'node_modules', '@bsv', 'wallet-toolbox');
  if (!existsSync(entry)) {
    console.log(`[${label}] installing @bsv/wallet-toolbox into bench/peer (first run only; builds its SQLite module, about 2 minutes)…`);
    const r = spawnSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: PEER_DIR, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('npm install in bench/peer failed');
  }
  const req = createRequire(path.join(PEER_DIR, 'package.json'));
  return { toolbox: req('@bsv/wallet-toolbox'), sdk: req('@bsv/sdk') };
}

/**
 * A @bsv/wallet-toolbox `Wallet` (its signer, on its own SQLite file) funded with `coins` outputs of
 * `satoshis` from Keystead's local chain, by BRC-29 payments it internalizes with their merkle path. It
 * runs offline: its services are the local node's routes (headers, chain height) and nothing else. As
 * peer.bench.ts sets its peer up.
 */
export async function fundedToolboxWallet(
  runtime: Runtime,
  coins: number,
  satoshis: number,
  label: string,
): Promise<{ wallet: any; sdk: any; close(): Promise<void> }> {
  const { toolbox, sdk } = peerModules(label);
  const { Wallet, WalletStorageManager, StorageKnex, Setup } = toolbox;
  const { KeyDeriver, PrivateKey, P2PKH, PublicKey, Transaction, MerklePath, Utils, SatoshisPerKilobyte } = sdk;
  const node = runtime.node!;
  const woc = `${runtime.url}/chain/woc/v1/bsv/local`;
  const header = (height: number) => fetch(`${woc}/block/${height}/header`).then((r) => r.json() as Promise<any>);
  const chainTracker = {
    isValidRootForHeight: async (root: string, height: number) => (await header(height)).merkleroot === root,
    currentHeight: async () => (await node.tip()).height,
  };
  const services = {
    chain: 'test',
    getChainTracker: async () => chainTracker,
    getHeight: async () => (await node.tip()).height,
    getHeaderForHeight: async (height: number) => {
      const h = await header(height);
      const w = new Utils.Writer();
      w.writeUInt32LE(h.version);
      w.write(Utils.toArray(h.previousblockhash, 'hex').reverse());
      w.write(Utils.toArray(h.merkleroot, 'hex').reverse());
      w.writeUInt32LE(h.time);
      w.writeUInt32LE(parseInt(h.bits, 16));
      w.writeUInt32LE(h.nonce);
      return w.toArray();
    },
    nLockTimeIsFinal: async () => true,
  };

  const peerDir = mkdtempSync(path.join(os.tmpdir(), 'keystead-toolbox-'));
  const keyDeriver = new KeyDeriver(PrivateKey.fromRandom());
  const identityKey = keyDeriver.identityKey;
  const knex = Setup.createSQLiteKnex(path.join(peerDir, 'wallet.sqlite'));
  const close = async () => {
    await knex.destroy();
    rmSync(peerDir, { recursive: true, force: true });
  };
  try {
    const storage = new StorageKnex({
      chain: 'test',
      knex,
      commissionSatoshis: 0,
      merchantIdentityKey: identityKey,
      feeModel: { model: 'sat/kb', value: 1 },
    });
    await storage.migrate('peer', identityKey);
    await storage.makeAvailable();
    const manager = new WalletStorageManager(identityKey, storage);
    await manager.makeAvailable();
    const wallet = new Wallet({ chain: 'test', keyDeriver, storage: manager, services });

    const sender = PrivateKey.fromRandom();
    const prefix = Utils.toBase64([1, 2, 3, 4, 5, 6, 7, 8]);
    const outs: { suffix: string; script: any }[] = [];
    for (let i = 0; i < coins; i++) {
      const suffix = Utils.toBase64([i, 9, 9, 9]);
      const { publicKey } = await wallet.getPublicKey({
        protocolID: [2, '3241645161d8'],
        keyID: `${prefix} ${suffix}`,
        counterparty: sender.toPublicKey().toString(),
        forSelf: true,
      });
      outs.push({ suffix, script: new P2PKH().lock(PublicKey.fromString(publicKey).toAddress()) });
    }
    const total = coins * satoshis + 10_000;
    const f = await node.faucet(sender.toAddress(), total);
    const parent = Transaction.fromHex((await node.txHex(f.txid!))!);
    const fund = new Transaction();
    fund.addInput({
      sourceTransaction: parent,
      sourceOutputIndex: parent.outputs.findIndex((o: any) => o.satoshis === total),
      unlockingScriptTemplate: new P2PKH().unlock(sender),
    });
    for (const o of outs) fund.addOutput({ lockingScript: o.script, satoshis });
    fund.addOutput({ lockingScript: new P2PKH().lock(sender.toAddress()), change: true });
    await fund.fee(new SatoshisPerKilobyte(1));
    await fund.sign();
    if ((await node.submit(fund.toHex())).status !== 'accepted') throw new Error('toolbox funding refused');
    await node.mine();
    fund.merklePath = MerklePath.fromHex((await node.txStatus(fund.id('hex'))).merklePath!);
    const taken = await wallet.internalizeAction({
      tx: fund.toAtomicBEEF(),
      description: 'bench funding',
      outputs: outs.map((o, i) => ({
        outputIndex: i,
        protocol: 'wallet payment',
        paymentRemittance: { derivationPrefix: prefix, derivationSuffix: o.suffix, senderIdentityKey: sender.toPublicKey().toString() },
      })),
    });
    if (!taken.accepted) throw new Error('the toolbox wallet did not take its funding');
    return { wallet, sdk, close };
  } catch (err) {
    await close();
    throw err;
  }
}
