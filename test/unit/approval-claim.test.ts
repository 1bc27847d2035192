import assert from 'node:assert/strict';
import { untilValue } from '../helpers/until.js';
import { afterEach, describe, it } from 'node:test';
import { P2PKH, PrivateKey } from '@bsv/sdk';
import type { ChainProvider } from '../../main/chain/types.js';
import type { Credentials } from '../../main/engine/context.js';
import { openStore } from '../../main/store/database.js';
import { MIGRATIONS } from '../../main/store/schema.js';
import { DomainError } from '../../shared/errors.js';
import { rejectsWith } from '../helpers/assert-domain-error.js';
import { meta, testEngine, withBroadcast, type TestEngine } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';
import { tempDir } from '../helpers/tmp.js';

/**
 * An approved request is carried out by exactly one call: the one that claims it (approved → sending).
 * Another at the same time (a second send, a send racing the last vote) is refused and changes nothing, so a
 * payment that went out is never marked failed nor given back its place in the policy's windows.
 */

const TO_SCRIPT = new P2PKH().lock(PrivateKey.fromRandom().toAddress()).toHex();
const LIMIT_POLICY = {
  rules: [
    { when: { window: { per: 'initiator', period: '24h', over: { satoshis: 15_000 } } }, action: 'deny', reason: 'daily limit 15,000' },
    { when: { amountOver: { satoshis: 5_000 } }, action: 'approve', approvals: { count: 1, roles: ['manager'] } },
  ],
  default: { action: 'allow' },
};

type Exec = (op: string, input: object, as?: Credentials) => Promise<any>;

/** An operator who pays from a wallet (secure with a password, or not) under LIMIT_POLICY, and a manager who approves. */
async function organisation(t: TestEngine, secure: boolean) {
  const s = (await t.engine.execute('setup', ADMIN, {}, meta)).output;
  const admin: Credentials = { authToken: s.authToken, serviceId: s.serviceId };
  const exec: Exec = (op, input, as = admin) => t.engine.execute(op as never, input, as, meta).then((r) => r.output);
  const person = async (email: string, role: string): Promise<Credentials> => {
    await exec('createUser', { email, password: 'pass-word-123', role, firstName: 'A', lastName: 'B', title: 'T' });
    const login = (await t.engine.execute('login', { email, password: 'pass-word-123' }, {}, meta)).output;
    return { authToken: login.token ?? login.authToken, serviceId: s.serviceId };
  };
  const operator = await person('olga@acme.io', 'Operator');
  const manager = await person('mia@acme.io', 'Manager');
  const password = secure ? { walletPassword: 'vault-pass-1' } : {};
  const w = await exec('createWallet', { walletTitle: 'Vault', ...(secure ? { type: 'secure', ...password } : {}) }, operator);
  const { address } = await exec('walletAddress', { walletId: w.walletID }, operator);
  await exec('faucet', { address, satoshis: 100_000 });
  await exec('proposePolicy', { document: LIMIT_POLICY });
  const pay = (satoshis: number) =>
    exec('pay', { walletId: w.walletID, ...password, outputs: [{ script: TO_SCRIPT, satoshis }] }, operator);
  /** A 9,000 sat payment, sent for approval: its id. */
  const ask = async () => {
    const err = await pay(9_000).then(
      () => assert.fail('expected the payment to wait for approval'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof DomainError && err.code === 'APPROVAL_REQUIRED', String(err));
    return err.details.approvalId as string;
  };
  const send = (id: string) => exec('sendApproved', { approvalId: id, ...password }, operator);
  const approve = (id: string) => exec('approvePayment', { approvalId: id }, manager);
  return { exec, operator, manager, pay, ask, send, approve };
}

/** Each call's outcome: `sent <txid>` (or its state), or `CONFLICT: <message>`. */
const settled = (ps: Promise<any>[]) =>
  Promise.all(
    ps.map((p) =>
      p.then(
        (o: { state: string }) => o.state,
        (e: unknown) => (e instanceof DomainError ? `${e.code}: ${e.message}` : `error: ${String(e)}`),
      ),
    ),
  );

describe('an approved payment is carried out once, whoever asks at the same time', () => {
  let t: TestEngine;
  afterEach(() => t.engine.close());

  const attempts = () => t.store.db.prepare('SELECT txid, state FROM payment_attempts').all() as { txid: string; state: string }[];
  const moves = (id: string) => t.store.db.prepare('SELECT state FROM value_moves WHERE approval_id = ?').all(id) as { state: string }[];
  const row = (id: string) =>
    t.store.db.prepare('SELECT state, txid, error FROM approval_requests WHERE id = ?').get(id) as {
      state: string;
      txid: string | null;
      error: string | null;
    };

  /** The approved 9,000 counts: another 4,990 (and its fee) fits the 15,000 a day, the one after is refused. */
  async function limitStillCounts(o: Awaited<ReturnType<typeof organisation>>) {
    const next = await o.pay(4_990);
    assert.match(next.txid, /^[0-9a-f]{64}$/);
    await rejectsWith(o.pay(4_990), 'POLICY_DENIED', /daily limit 15,000/);
  }

  it('two sendApproved at once (a secure wallet): one payment, the other refused; sent, and it still counts in the window', async () => {
    t = testEngine({});
    const o = await organisation(t, true);
    const id = await o.ask();
    assert.equal((await o.approve(id)).state, 'approved', 'waits for the password');
    const before = attempts().length;
    const outcomes = await settled([o.send(id), o.send(id)]);
    assert.equal(outcomes.filter((x) => x === 'sent').length, 1, JSON.stringify(outcomes));
    const other = outcomes.find((x) => x !== 'sent')!;
    assert.match(other, /^CONFLICT: .*already being carried out/, other);
    assert.equal(attempts().length, before + 1, 'exactly one payment');
    const r = row(id);
    assert.equal(r.state, 'sent');
    assert.match(r.txid!, /^[0-9a-f]{64}$/);
    assert.equal(r.error, null);
    assert.deepEqual(moves(id), [{ state: 'held' }], 'its place in the window is kept');
    // A later send is refused as sent, and changes nothing.
    await rejectsWith(o.send(id), 'CONFLICT', /is sent/);
    assert.equal(row(id).state, 'sent');
    await limitStillCounts(o);
  });

  it('five sendApproved at once: exactly one runs the payment', async () => {
    t = testEngine({});
    const o = await organisation(t, true);
    const id = await o.ask();
    await o.approve(id);
    const before = attempts().length;
    const outcomes = await settled([1, 2, 3, 4, 5].map(() => o.send(id)));
    assert.equal(outcomes.filter((x) => x === 'sent').length, 1, JSON.stringify(outcomes));
    assert.equal(outcomes.filter((x) => /^CONFLICT: .*already being carried out/.test(x)).length, 4, JSON.stringify(outcomes));
    assert.equal(attempts().length, before + 1);
    assert.equal(row(id).state, 'sent');
    await limitStillCounts(o);
  });

  it('sendApproved racing the last vote while the broadcast is slow: the vote sends it, the sends are refused; sent and counted', async () => {
    let slow: Promise<void> | null = null;
    let atBroadcast = false;
    t = testEngine({
      chain: withBroadcast(async function (this: ChainProvider, hex) {
        if (slow) {
          atBroadcast = true;
          await slow;
        }
        return this.broadcast(hex);
      }),
    });
    const o = await organisation(t, false);
    const id = await o.ask();
    let open!: () => void;
    slow = new Promise<void>((resolve) => (open = resolve));
    const before = attempts().length;
    const vote = o.approve(id);
    // The vote has claimed it and its payment is on its way (held at the broadcast): the initiator sends too.
    await untilValue(
      "the vote's payment at the broadcast",
      async () => atBroadcast,
      (at) => at,
    );
    assert.equal(row(id).state, 'sending');
    const sends = settled([o.send(id), o.send(id)]);
    const early = await sends;
    for (const x of early) assert.match(x, /^CONFLICT: .*already being carried out/, x);
    assert.equal(row(id).state, 'sending', 'the refused sends changed nothing');
    assert.deepEqual(moves(id), [{ state: 'held' }]);
    slow = null;
    open();
    const voted = await vote;
    assert.equal(voted.state, 'sent', JSON.stringify(voted));
    assert.match(voted.txid, /^[0-9a-f]{64}$/);
    assert.equal(attempts().length, before + 1, 'exactly one payment');
    assert.equal(row(id).state, 'sent');
    assert.deepEqual(moves(id), [{ state: 'held' }]);
    await limitStillCounts(o);
  });

  it('the last vote and the initiator’s send fired together: one payment, sent, counted', async () => {
    t = testEngine({});
    const o = await organisation(t, false);
    const id = await o.ask();
    const before = attempts().length;
    const [voted, sent] = await settled([o.approve(id), o.send(id)]);
    // The send either came before the vote's commit (awaiting approval) or lost the claim: never a second payment.
    assert.equal(voted, 'sent');
    assert.match(sent, /^CONFLICT: .*(awaiting approval|already being carried out|is sent)/, sent);
    assert.equal(attempts().length, before + 1);
    assert.equal(row(id).state, 'sent');
    await limitStillCounts(o);
  });

  it('a request left sending by a crash: back to approved when nothing was recorded; sent when its payment was', async () => {
    t = testEngine({});
    const o = await organisation(t, true);
    const id = await o.ask();
    await o.approve(id);
    // Cut off before anything was signed: it may be sent again, and meanwhile a send is refused as in progress.
    t.store.db.prepare("UPDATE approval_requests SET state = 'sending' WHERE id = ?").run(id);
    await rejectsWith(o.send(id), 'CONFLICT', /already being carried out/);
    await t.engine.reconcile();
    assert.equal(row(id).state, 'approved');
    assert.deepEqual(moves(id), [{ state: 'awaiting' }], 'it keeps its place while it waits');
    const sent = await o.send(id);
    assert.equal(sent.state, 'sent');
    // Cut off after its payment was recorded (the attempt still open): it follows the payment and ends sent.
    t.store.db.prepare("UPDATE approval_requests SET state = 'sending', txid = NULL, decided_at = NULL WHERE id = ?").run(id);
    t.store.db.prepare("UPDATE payment_attempts SET state = 'unknown' WHERE txid = ?").run(sent.txid);
    await t.engine.reconcile();
    assert.equal(row(id).state, 'sent');
    assert.equal(row(id).txid, sent.txid);
    assert.deepEqual(moves(id), [{ state: 'held' }]);
    assert.equal(attempts().find((a) => a.txid === sent.txid)!.state, 'done');
    await limitStillCounts(o);
  });

  it("migration 26 keeps the requests and their votes, and the state column takes 'sending'", () => {
    t = testEngine({});
    const dataDir = tempDir();
    const old = openStore({ dataDir, password: 'pw', migrations: MIGRATIONS.filter((m) => m.version < 26) });
    old.db
      .prepare(
        `INSERT INTO approval_requests (id, operation, input, review, wallet_row, initiator_uid, policy_version, rule, needed,
           approver_roles, approver_uids, state, created_at, expires_at)
         VALUES ('apr_abcdefghijkl', 'pay', '{}', '{}', 1, 'u1', 1, 'rule 1', 1, '[]', '[]', 'approved', 1, 2)`,
      )
      .run();
    old.db.prepare("INSERT INTO approval_votes (request_id, voter_uid, vote, at) VALUES ('apr_abcdefghijkl', 'u2', 'approve', 1)").run();
    assert.throws(() => old.db.prepare("UPDATE approval_requests SET state = 'sending'").run(), /CHECK/);
    old.close();
    const store = openStore({ dataDir, password: 'pw' });
    try {
      assert.equal(store.db.pragma('user_version', { simple: true }), MIGRATIONS.length);
      assert.equal(store.db.prepare("UPDATE approval_requests SET state = 'sending' WHERE state = 'approved'").run().changes, 1);
      assert.deepEqual(store.db.prepare('SELECT request_id, voter_uid FROM approval_votes').all(), [
        { request_id: 'apr_abcdefghijkl', voter_uid: 'u2' },
      ]);
      assert.deepEqual(store.db.pragma('foreign_key_check'), []);
      assert.throws(
        () =>
          store.db.prepare("INSERT INTO approval_votes (request_id, voter_uid, vote, at) VALUES ('apr_missing', 'u3', 'approve', 1)").run(),
        /FOREIGN KEY/,
      );
    } finally {
      store.close();
    }
  });
});
