import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createWalletTxRepo } from '../../main/store/repos/wallet-txs.js';
import { ADMIN } from '../helpers/http.js';
import { meta, testEngine } from '../helpers/engine.js';

/** A payer's note waiting for its payment to be booked (a paymail payment ARC only stored) is a stranger's: bounded. */
describe('notes kept until their payment is booked', () => {
  it('keeps at most the newest notes, none past their age, and applies one to the booked row once', async () => {
    const t = testEngine();
    try {
      const s = (await t.engine.execute('setup', ADMIN, {}, meta)).output;
      await t.engine.execute('createWallet', { walletTitle: 'Till' }, { authToken: s.authToken, serviceId: s.serviceId }, meta);
      const db = t.store.db;
      const row = (db.prepare('SELECT id FROM wallets LIMIT 1').get() as { id: number }).id;
      const repo = createWalletTxRepo(db);
      const count = () => (db.prepare('SELECT count(*) AS n FROM pending_notes').get() as { n: number }).n;
      const txid = (i: number) => i.toString(16).padStart(64, '0');
      for (let i = 1; i <= 12; i++) repo.keepNote(row, txid(i), `note ${i}`, null, i * 1_000, 10, 1_000_000);
      assert.equal(count(), 10, 'at most ten');
      assert.deepEqual(
        (db.prepare('SELECT txid FROM pending_notes ORDER BY created_at').all() as { txid: string }[]).map((r) => r.txid),
        Array.from({ length: 10 }, (_, i) => txid(i + 3)),
        'the oldest went first',
      );
      repo.keepNote(row, txid(99), 'late', null, 2_000_000, 10, 1_000_000);
      assert.equal(count(), 1, 'none older than their age');
      // Booked: the note lands on the wallet's row, once, and is forgotten.
      repo.upsert({
        walletRow: row,
        txid: txid(99),
        direction: 'in',
        amount: 500,
        fee: null,
        feePaidBy: null,
        counterparty: null,
        memo: null,
        height: null,
        time: 1,
      });
      repo.notePending(txid(99));
      assert.equal(count(), 0);
      assert.equal((db.prepare('SELECT memo FROM wallet_txs WHERE txid = ?').get(txid(99)) as { memo: string }).memo, 'late');
    } finally {
      t.engine.close();
    }
  });
});
