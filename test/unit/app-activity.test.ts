import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { Credentials } from '../../main/engine/context.js';
import type { Engine } from '../../main/engine/engine.js';
import type { Store } from '../../main/store/database.js';
import { rejectsWith } from '../helpers/assert-domain-error.js';
import { meta, testEngine } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';

/** The Apps view's record of what apps did (listAppActivity), read from the tables BRC-100 methods write. */
describe('engine: app activity', () => {
  let engine: Engine;
  let store: Store;
  let admin: Credentials;
  let walletId: string;
  const run = <T>(p: Promise<{ output: T }>) => p.then((r) => r.output);
  type Activity = {
    totalActions: number;
    actions: { txid: string | null; originator: string; walletId: string; status: string; satoshis: number; labels: string[] }[];
    baskets: { originator: string; walletId: string; basket: string; outputs: number; satoshis: number }[];
  };
  const activity = (input: object = {}, who = admin) => run(engine.execute('listAppActivity', input, who, meta)) as Promise<Activity>;

  beforeEach(async () => {
    ({ engine, store } = testEngine());
    const s = (await engine.execute('setup', ADMIN, {}, meta)).output;
    admin = { authToken: s.authToken, serviceId: s.serviceId };
    walletId = ((await run(engine.execute('createWallet', { walletTitle: 'Apps' }, admin, meta))) as { walletID: string }).walletID;
  });
  afterEach(() => engine.close());

  const walletRow = () => (store.db.prepare('SELECT id FROM wallets WHERE wallet_id = ?').get(walletId) as { id: number }).id;

  function action(n: number, originator: string, status: string, satoshis: number, labels: string[] = []): number {
    const id = Number(
      store.db
        .prepare(
          `INSERT INTO app_actions (wallet_row, originator, reference, txid, status, is_outgoing, satoshis, description, version, lock_time, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, 0, ?, ?)`,
        )
        .run(
          walletRow(),
          originator,
          `ref${n}`,
          status === 'unsigned' ? null : n.toString(16).padStart(64, '0'),
          status,
          satoshis < 0 ? 1 : 0,
          satoshis,
          `action ${n}`,
          1000 + n,
          1000 + n,
        ).lastInsertRowid,
    );
    for (const l of labels) store.db.prepare('INSERT INTO app_action_labels (action_id, label) VALUES (?, ?)').run(id, l);
    return id;
  }

  function output(n: number, originator: string, basket: string, satoshis: number, status = 'available'): void {
    store.db
      .prepare(
        `INSERT INTO app_outputs (wallet_row, basket, txid, vout, satoshis, script, originator, status, created_at) VALUES (?, ?, ?, 0, ?, '51', ?, ?, 1)`,
      )
      .run(walletRow(), basket, n.toString(16).padStart(64, 'a'), satoshis, originator, status);
  }

  it('lists actions newest first, a page at a time, with labels, for one app or all', async () => {
    for (let n = 1; n <= 5; n++)
      action(n, n % 2 ? 'one.example' : 'two.example', n === 5 ? 'unsigned' : 'completed', -100 * n, n === 3 ? ['b', 'a'] : []);
    const all = await activity({ limit: 2 });
    assert.equal(all.totalActions, 5);
    assert.deepEqual(
      all.actions.map((a) => [a.originator, a.status, a.satoshis, a.txid]),
      [
        ['one.example', 'unsigned', -500, null],
        ['two.example', 'completed', -400, (4).toString(16).padStart(64, '0')],
      ],
    );
    const next = await activity({ limit: 2, offset: 2 });
    assert.deepEqual(
      next.actions.map((a) => [a.satoshis, a.labels]),
      [
        [-300, ['a', 'b']],
        [-200, []],
      ],
    );
    const one = await activity({ originator: 'ONE.example' });
    assert.equal(one.totalActions, 3);
    assert.ok(one.actions.every((a) => a.originator === 'one.example' && a.walletId === walletId));
  });

  it('sums the outputs apps keep in baskets, leaving out spent and relinquished ones', async () => {
    output(1, 'one.example', 'tokens', 1);
    output(2, 'one.example', 'tokens', 1);
    output(3, 'one.example', 'tokens', 1, 'spent');
    output(4, 'one.example', 'notes', 500, 'relinquished');
    output(5, 'two.example', 'tokens', 7, 'reserved');
    const { baskets } = await activity();
    assert.deepEqual(baskets, [
      { originator: 'one.example', walletId, basket: 'tokens', outputs: 2, satoshis: 2 },
      { originator: 'two.example', walletId, basket: 'tokens', outputs: 1, satoshis: 7 },
    ]);
    assert.deepEqual((await activity({ originator: 'two.example' })).baskets.length, 1);
  });

  it('is for admins and managers, and refuses bad paging', async () => {
    await run(engine.execute('createUser', { email: 'op@acme.test', password: 'user-password-1', role: 'operator' }, admin, meta));
    const s = (await run(engine.execute('login', { email: 'op@acme.test', password: 'user-password-1' }, {}, meta))) as {
      authToken: string;
    };
    await rejectsWith(activity({}, { authToken: s.authToken, serviceId: admin.serviceId }), 'ROLE_FORBIDDEN');
    await rejectsWith(activity({ limit: 0 }), 'VALIDATION_FAILED');
    await rejectsWith(activity({ limit: 201 }), 'VALIDATION_FAILED');
    await rejectsWith(activity({ originator: 'not a host' }), 'VALIDATION_FAILED');
  });
});
