import { HD } from '@bsv/sdk';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEngine } from '../main/engine/engine.js';
import { LocalNode } from '../main/chain/local/local-node.js';
import { LocalProvider } from '../main/chain/local/local-provider.js';
import { AddressBook } from '../main/engine/wallets/address-book.js';
import { openStore } from '../main/store/database.js';
import { createRepos } from '../main/store/repos/index.js';
import { OPERATIONS } from '../shared/operations.js';
import { report, type Timing } from './lib.js';

/**
 * Deriving 1,000 receive addresses through the engine (cached chain node, one child step each, stored
 * in SQLCipher) against the floor of bare @bsv/sdk child derivation + address encoding from the same
 * account node. Goal ≤ 1.3×.
 */
export const MEASURES = ['derive-addresses'];

export async function run(): Promise<void> {
  const COUNT = 1000;
  const ROUNDS = 3;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'keystead-bench-'));
  const store = openStore({ dataDir, password: 'bench' });
  const node = LocalNode.open({ dataDir, password: 'bench' });
  const engine = createEngine({
    store,
    chain: new LocalProvider(node, () => null),
    config: { version: 'bench', network: 'local', sessionTtlMs: 3600_000, paymailDomain: 'bench.test', broadcastWindowMs: 30_000 },
  });
  try {
    const meta = { clientId: 'bench' };
    const s = (
      await engine.execute(OPERATIONS.setup.name, { organisation: 'Bench', email: 'bench@example.com', password: 'bench-pass-1' }, {}, meta)
    ).output;
    const w = (await engine.execute(OPERATIONS.createWallet.name, { walletTitle: 'Bench' }, { authToken: s.authToken }, meta)).output;
    // The engine's address book over the same database, as the wallet operations use it.
    const row = store.db.prepare('SELECT * FROM wallets WHERE wallet_id = ?').get(w.walletID) as Record<string, unknown>;
    const repos = createRepos(store.db);
    const wallet = repos.wallets.own(s.uid, w.walletID)!;
    const book = new AddressBook({ repos, now: Date.now });
    const receiveNode = HD.fromString(String(row.account_xpub)).deriveChild(0);

    let floor: Timing | undefined;
    let measured: Timing | undefined;
    let next = repos.addresses.count(wallet.id, 0);
    for (let r = 0; r < ROUNDS; r++) {
      let t = process.hrtime.bigint();
      for (let i = 0; i < COUNT; i++) receiveNode.deriveChild(next + i).pubKey.toAddress();
      const f = Number(process.hrtime.bigint() - t) / 1e6;
      t = process.hrtime.bigint();
      book.derive(wallet, 0, next, next + COUNT);
      const m = Number(process.hrtime.bigint() - t) / 1e6;
      next += COUNT;
      if (!floor || f < floor.totalMs)
        floor = { label: 'bare @bsv/sdk deriveChild + toAddress', iterations: COUNT, totalMs: f, perOpMs: f / COUNT };
      if (!measured || m < measured.totalMs)
        measured = { label: 'engine AddressBook.derive (+ store)', iterations: COUNT, totalMs: m, perOpMs: m / COUNT };
    }
    report({
      name: 'derive-addresses',
      bench: 'address derivation (1,000 receive addresses)',
      floor: floor!,
      measured: measured!,
      goal: 1.3,
    });
  } finally {
    engine.close();
    node.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
