import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import { P2PKH, PrivateKey, SatoshisPerKilobyte, Transaction } from '@bsv/sdk';
import { LocalNode } from '../../main/chain/local/local-node.js';
import { LocalProvider } from '../../main/chain/local/local-provider.js';
import type { ChainProvider } from '../../main/chain/types.js';
import { createEngine, type Engine } from '../../main/engine/engine.js';
import { openStore, type Store } from '../../main/store/database.js';
import { meta } from './engine.js';
import { ADMIN } from './http.js';
import { tempDir } from './tmp.js';

const PASSWORD = 'pw';

/**
 * A chain that can fork, for tests of what the books do when the chain they followed loses: `fork()` copies a
 * node's ledger into a second node, the two diverge, and `polled()` answers (as WhatsOnChain and ARC would,
 * with no pushed events) from whichever node is `current`.
 */
export class ForkableChain {
  readonly nodes: LocalNode[] = [];
  private readonly dirs: string[] = [];
  current = 0;

  constructor(private readonly now: () => number) {
    const dir = tempDir();
    this.dirs.push(dir);
    this.nodes.push(LocalNode.open({ dataDir: dir, password: PASSWORD, now }));
  }

  get node(): LocalNode {
    return this.nodes[this.current];
  }

  /** Copies node `from`'s ledger into a new node; returns its index. */
  fork(from = 0): number {
    this.nodes[from].close();
    const dir = tempDir();
    cpSync(this.dirs[from], dir, { recursive: true });
    this.nodes[from] = LocalNode.open({ dataDir: this.dirs[from], password: PASSWORD, now: this.now });
    this.dirs.push(dir);
    this.nodes.push(LocalNode.open({ dataDir: dir, password: PASSWORD, now: this.now }));
    return this.nodes.length - 1;
  }

  provider(i: number): LocalProvider {
    return new LocalProvider(this.nodes[i], () => null);
  }

  /** A polled provider answering from whichever node is current. */
  polled(): ChainProvider {
    const p = () => new LocalProvider(this.node, () => null);
    return {
      network: 'local',
      describe: 'a chain that forks',
      broadcast: (h) => p().broadcast(h),
      getUtxos: (a) => p().getUtxos(a),
      getBalance: (a) => p().getBalance(a),
      getHistory: (a) => p().getHistory(a),
      getTransactionHex: (t) => p().getTransactionHex(t),
      getSpentBy: (t, v) => p().getSpentBy(t, v),
      getHeldScripts: (a, l) => p().getHeldScripts(a, l),
      getTxStatus: (t) => p().getTxStatus(t),
      getMerkleProof: async (t) => this.node.txStatus(t).merklePath,
      getTip: () => p().getTip(),
      getMerkleRoot: (h) => p().getMerkleRoot(h),
      getBlockHeader: (h) => p().getBlockHeader(h),
      getFeePolicy: () => p().getFeePolicy(),
      getUsdRate: () => p().getUsdRate(),
      events: undefined,
    };
  }

  close(): void {
    for (const n of this.nodes) n.close();
  }
}

/** An engine over an organisation's data dir (opened again after a close) and the given chain, never polling on its own. */
export function engineOver(
  dataDir: string,
  chain: ChainProvider,
  now: () => number,
  paymailHosts?: Record<string, string>,
): { engine: Engine; store: Store } {
  const store = openStore({ dataDir, password: PASSWORD });
  const config = {
    version: 'test',
    network: 'local',
    sessionTtlMs: 3600_000,
    paymailDomain: 'acme.test',
    broadcastWindowMs: 30_000,
    paymailHosts,
  };
  const engine = createEngine({ store, chain, config, syncIntervalMs: 0, now });
  return { engine, store };
}

/** Unspent satoshis on the books (available and reserved), across the organisation's wallets. */
export function booksUnspent(store: Store): number {
  return (store.db.prepare("SELECT coalesce(sum(satoshis), 0) AS s FROM utxos WHERE status <> 'spent'").get() as { s: number }).s;
}

/** What the chain says the organisation's addresses hold. */
export async function chainUnspent(store: Store, chain: ChainProvider): Promise<number> {
  const addresses = store.db.prepare('SELECT DISTINCT address FROM addresses').all() as { address: string }[];
  let total = 0;
  for (const a of addresses) total += await chain.getBalance(a.address);
  return total;
}

/** A payer's transaction of `satoshis` to `to` from output 0 of `funding` (`key`'s), accepted by `node`; its txid. */
export async function spendFrom(node: LocalNode, key: PrivateKey, funding: string, to: string, satoshis: number): Promise<string> {
  const tx = new Transaction();
  tx.addInput({
    sourceTransaction: Transaction.fromHex(node.txHex(funding)!),
    sourceOutputIndex: 0,
    unlockingScriptTemplate: new P2PKH().unlock(key),
  });
  tx.addOutput({ lockingScript: new P2PKH().lock(to), satoshis });
  tx.addOutput({ lockingScript: new P2PKH().lock(key.toAddress()), change: true });
  await tx.fee(new SatoshisPerKilobyte(1));
  await tx.sign();
  assert.equal(node.submit(tx.toHex()).status, 'accepted');
  return tx.id('hex');
}

/** An organisation with one wallet over a ForkableChain (polled, by default), its clock and engine. */
export interface ForkedOrg {
  fc: ForkableChain;
  chain: ChainProvider;
  clock: { now: number };
  engine: Engine;
  store: Store;
  who: { authToken: string; serviceId: string };
  walletId: string;
  address: string;
  /** Closes and opens the engine again: its start scans every wallet (as a poll does), then reconciles. */
  rescan(): Promise<void>;
  close(): void;
}

export async function forkedOrg(chainOf: (fc: ForkableChain) => ChainProvider = (fc) => fc.polled()): Promise<ForkedOrg> {
  const clock = { now: Date.parse('2026-01-01T00:00:00Z') };
  const fc = new ForkableChain(() => clock.now);
  const chain = chainOf(fc);
  const dataDir = tempDir();
  const o = { fc, chain, clock, ...engineOver(dataDir, chain, () => clock.now) } as ForkedOrg;
  await o.engine.ready;
  const s = (await o.engine.execute('setup', ADMIN, {}, meta)).output;
  o.who = { authToken: s.authToken, serviceId: s.serviceId };
  o.walletId = (await o.engine.execute('createWallet', { walletTitle: 'Treasury' }, o.who, meta)).output.walletID;
  o.address = (await o.engine.execute('walletAddress', { walletId: o.walletId }, o.who, meta)).output.address;
  o.rescan = async () => {
    o.engine.close();
    Object.assign(
      o,
      engineOver(dataDir, chain, () => clock.now),
    );
    await o.engine.ready;
    for (let i = 0; i < 3; i++) {
      clock.now += 120_000;
      await o.engine.reconcile();
    }
  };
  o.close = () => {
    o.engine.close();
    fc.close();
  };
  return o;
}

/** A stranger with a coin of 100,000 satoshis in a block (output 0 of `funding`). */
export async function fundedPayer(o: ForkedOrg): Promise<{ payer: PrivateKey; funding: string }> {
  const payer = PrivateKey.fromRandom();
  const funding = (await o.fc.node.faucet(payer.toAddress(), 100_000)).txid!;
  o.fc.node.mineBlocks(1);
  return { payer, funding };
}

/** The wallet's history row of `txid`, as the API answers it. */
export async function historyRow(o: ForkedOrg, txid: string) {
  return (await o.engine.execute('history', { walletId: o.walletId }, o.who, meta)).output.history.find((h) => h.txid === txid);
}
