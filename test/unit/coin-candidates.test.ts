import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3-multiple-ciphers';
import fc from 'fast-check';
import { selectCoins } from '../../main/engine/payments/coin-select.js';
import { chooseCoins } from '../../main/engine/payments/plan.js';
import type { PaymentServices } from '../../main/engine/payments/services.js';
import { migrate } from '../../main/store/migrations.js';
import { createWalletUtxoRepo } from '../../main/store/repos/wallet-utxos.js';
import type { WalletRow } from '../../main/store/repos/wallets.js';
import { MIGRATIONS } from '../../main/store/schema.js';

const POLICY = { satoshis: 1, bytes: 1000, dustLimit: 1 };
const SCRIPT = '76a914000000000000000000000000000000000000000088ac';

/**
 * A pay reads a few candidate coins, not the wallet (main/engine/payments/plan.ts, chooseCoins): first the
 * smallest coins from the amount up, then also the largest, then more of each, every coin last. Whatever it
 * reads, it must choose what a choice among every coin would: the same values (equal coins may differ).
 */
describe('coin candidates', () => {
  const db = new Database(':memory:');
  migrate(db, MIGRATIONS);
  db.exec(`INSERT INTO users (uid, email, password_hash, role, created_at, updated_at) VALUES ('u', 'a@b.c', 'h', 'admin', 0, 0)`);
  const walletUtxos = createWalletUtxoRepo(db);
  const services = {
    repos: { walletUtxos, wallets: { feeManager: () => null } },
  } as unknown as PaymentServices;
  let nextWallet = 0;

  const walletWith = (values: number[]): WalletRow => {
    const id = ++nextWallet;
    db.prepare(
      `INSERT INTO wallets (id, wallet_id, owner_uid, title, type, derivation_path, account_xpub, sealed_seed, created_at)
       VALUES (?, ?, 'u', 'w', 'standard', 'm', 'x', 's', 0)`,
    ).run(id, `w${id}`);
    const insert = db.prepare(
      `INSERT INTO utxos (wallet_row, txid, vout, satoshis, script, chain, idx, status, height, address)
       VALUES (?, ?, ?, ?, ?, 0, 0, 'available', 1, 'a')`,
    );
    values.forEach((v, i) => insert.run(id, id.toString(16).padStart(64, '0'), i, v, SCRIPT));
    return { id } as WalletRow;
  };
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);

  it('chooses the values a choice among every coin would, or fails where it fails', () => {
    fc.assert(
      fc.property(
        // Wallets of every shape: many coins just under an amount, one large coin, many equal ones.
        fc.array(fc.oneof(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 900, max: 1_100 }), fc.integer({ min: 1, max: 100_000 })), {
          minLength: 1,
          maxLength: 400,
        }),
        fc.integer({ min: 1, max: 60_000 }),
        (values, amount) => {
          const wallet = walletWith(values);
          const outputs = [{ script: SCRIPT, satoshis: amount }];
          const every = selectCoins(walletUtxos.available(wallet.id), outputs, POLICY);
          let chosen;
          try {
            chosen = chooseCoins(services, wallet, outputs, POLICY);
          } catch (err) {
            assert.equal(every.ok, false, `refused (${(err as Error).message}) where every coin pays`);
            return;
          }
          assert.ok(every.ok, 'paid where every coin does not');
          assert.deepEqual(sorted(chosen.coins.map((c) => c.satoshis)), sorted(every.selection.coins.map((c) => c.satoshis)));
          assert.equal(chosen.change, every.selection.change);
          assert.equal(chosen.fee, every.selection.fee);
        },
      ),
      { numRuns: 300, seed: 20261129 },
    );
  });

  it('takes the smallest coin that pays alone even when a hundred smaller ones come first', () => {
    // 100 coins between the amount and the amount plus the fee cannot pay alone; the one that can is beyond them.
    const wallet = walletWith([...Array.from({ length: 100 }, () => 5_000), 7_000, 9_000, 50_000]);
    const chosen = chooseCoins(services, wallet, [{ script: SCRIPT, satoshis: 5_000 }], POLICY);
    assert.deepEqual(
      chosen.coins.map((c) => c.satoshis),
      [7_000],
    );
  });
});
