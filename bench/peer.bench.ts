import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OPERATIONS } from '../shared/operations.js';
import { benchApi } from './api.js';
import { interleaved, report } from './lib.js';
import { benchRuntime, benchWallet, fanOutCoins } from './seed.js';

export const MEASURES = ['peer-pay'];

const PEER_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'peer');
const COINS = 60;

/** @bsv/wallet-toolbox, installed into bench/peer on first use (a dependency of this benchmark only). */
function peerModules(): { toolbox: any; sdk: any } {
  const entry = path.join(PEER_DIR, 'node_modules', '@bsv', 'wallet-toolbox');
  if (!existsSync(entry)) {
    console.log('[peer-pay] installing @bsv/wallet-toolbox into bench/peer (first run only; builds its SQLite module, about 2 minutes)…');
    const r = spawnSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: PEER_DIR, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('npm install in bench/peer failed');
  }
  const req = createRequire(path.join(PEER_DIR, 'package.json'));
  return { toolbox: req('@bsv/wallet-toolbox'), sdk: req('@bsv/sdk') };
}

/**
 * peer-pay: one pay through Keystead's API / the same payment as @bsv/wallet-toolbox `createAction` (its
 * signer, on its SQLite storage, `noSend`), both funded from Keystead's local chain. The toolbox runs
 * offline: its services are the local node's routes (headers, chain height) and nothing else.
 */
export async function run(): Promise<void> {
  const { toolbox, sdk } = peerModules();
  const { Wallet, WalletStorageManager, StorageKnex, Setup } = toolbox;
  const { KeyDeriver, PrivateKey, P2PKH, PublicKey, Transaction, MerklePath, Utils, SatoshisPerKilobyte } = sdk;
  const { runtime, dataDir, auth } = await benchRuntime();
  const peerDir = mkdtempSync(path.join(os.tmpdir(), 'keystead-peer-'));
  let knex: any;
  try {
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

    // The peer: a toolbox wallet on its own SQLite file.
    const keyDeriver = new KeyDeriver(PrivateKey.fromRandom());
    const identityKey = keyDeriver.identityKey;
    knex = Setup.createSQLiteKnex(path.join(peerDir, 'wallet.sqlite'));
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
    const peer = new Wallet({ chain: 'test', keyDeriver, storage: manager, services });

    // Funded from the local chain by BRC-29 payments it internalizes (with the funding's merkle path).
    const sender = PrivateKey.fromRandom();
    const prefix = Utils.toBase64([1, 2, 3, 4, 5, 6, 7, 8]);
    const outs: { suffix: string; script: any }[] = [];
    for (let i = 0; i < COINS; i++) {
      const suffix = Utils.toBase64([i, 9, 9, 9]);
      const { publicKey } = await peer.getPublicKey({
        protocolID: [2, '3241645161d8'],
        keyID: `${prefix} ${suffix}`,
        counterparty: sender.toPublicKey().toString(),
        forSelf: true,
      });
      outs.push({ suffix, script: new P2PKH().lock(PublicKey.fromString(publicKey).toAddress()) });
    }
    const f = await node.faucet(sender.toAddress(), COINS * 20_000 + 10_000);
    const parent = Transaction.fromHex((await node.txHex(f.txid!))!);
    const fund = new Transaction();
    fund.addInput({
      sourceTransaction: parent,
      sourceOutputIndex: parent.outputs.findIndex((o: any) => o.satoshis === COINS * 20_000 + 10_000),
      unlockingScriptTemplate: new P2PKH().unlock(sender),
    });
    for (const o of outs) fund.addOutput({ lockingScript: o.script, satoshis: 20_000 });
    fund.addOutput({ lockingScript: new P2PKH().lock(sender.toAddress()), change: true });
    await fund.fee(new SatoshisPerKilobyte(1));
    await fund.sign();
    if ((await node.submit(fund.toHex())).status !== 'accepted') throw new Error('peer funding refused');
    await node.mine();
    fund.merklePath = MerklePath.fromHex((await node.txStatus(fund.id('hex'))).merklePath!);
    const taken = await peer.internalizeAction({
      tx: fund.toAtomicBEEF(),
      description: 'bench funding',
      outputs: outs.map((o, i) => ({
        outputIndex: i,
        protocol: 'wallet payment',
        paymentRemittance: { derivationPrefix: prefix, derivationSuffix: o.suffix, senderIdentityKey: sender.toPublicKey().toString() },
      })),
    });
    if (!taken.accepted) throw new Error('the peer did not take its funding');

    // Keystead: a wallet with as many coins, from the same chain.
    const ours = await benchWallet(runtime, auth, 'Peer comparison');
    await fanOutCoins(node, ours.address, COINS, 20_000);

    const to = new P2PKH().lock(PrivateKey.fromRandom().toAddress()).toHex();
    const peerPay = async () => {
      const a = await peer.createAction({
        description: 'bench payment',
        outputs: [{ lockingScript: to, satoshis: 5_000, outputDescription: 'payee' }],
        options: { noSend: true, randomizeOutputs: false },
      });
      if (!a.txid) throw new Error('createAction returned no txid');
    };
    const api = benchApi(runtime.url, auth);
    const keysteadPay = () => api.call(OPERATIONS.pay, { outputs: [{ script: to, satoshis: 5_000 }], walletId: ours.walletID });
    const { floor, measured } = await interleaved(
      ['@bsv/wallet-toolbox createAction (noSend, SQLite storage)', peerPay],
      ['Keystead POST /v1/pay (reserve, sign, broadcast, book)', keysteadPay],
      40,
      5,
    );
    report({ name: 'peer-pay', bench: 'Keystead pay / @bsv/wallet-toolbox createAction for the same payment', floor, measured, goal: 1.0 });
  } finally {
    await knex?.destroy();
    await runtime.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(peerDir, { recursive: true, force: true });
  }
}
