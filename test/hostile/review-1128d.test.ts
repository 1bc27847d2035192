import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { P2PKH, PrivateKey, Transaction } from '@bsv/sdk';
import type { Credentials } from '../../main/engine/context.js';
import type { PolicyDocumentInput } from '../../shared/contracts/policies.js';
import { DomainError } from '../../shared/errors.js';
import { entryHash, type ChainedAuditEntry } from '../../main/store/repos/audit.js';
import { meta, testEngine, type TestEngine } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';

/**
 * Hostile review of 28 Nov (d): the money and books invariants and the organisation's controls, attacked by an
 * insider with a limited role, by a holder of the database key, and through races. A test named "finding …"
 * asserts the safe behaviour a finding lacked (each failed before its fix); "refused: …" is an attack the code
 * already held against.
 */

const TO = PrivateKey.fromRandom().toAddress();
const TO_SCRIPT = new P2PKH().lock(TO).toHex();
const DAY = 24 * 3600_000;

type Exec = (op: string, input: object, as?: Credentials) => Promise<any>;

async function organisation(t: TestEngine) {
  const s = (await t.engine.execute('setup', ADMIN, {}, meta)).output;
  const admin: Credentials = { authToken: s.authToken, serviceId: s.serviceId };
  const exec: Exec = (op, input, as = admin) => t.engine.execute(op as never, input, as, meta).then((r) => r.output);
  const person = async (email: string, role: string): Promise<Credentials & { uid: string }> => {
    const { uid } = await exec('createUser', { email, password: 'pass-word-123', role, firstName: 'A', lastName: 'B', title: 'T' });
    const login = (await t.engine.execute('login', { email, password: 'pass-word-123' }, {}, meta)).output;
    return { authToken: login.token ?? login.authToken, serviceId: s.serviceId, uid };
  };
  const operator = await person('olga@acme.io', 'Operator');
  const manager1 = await person('mia@acme.io', 'Manager');
  const manager2 = await person('max@acme.io', 'Manager');
  const wallet = async (as: Credentials, title: string, coins: number[]) => {
    const w = await exec('createWallet', { walletTitle: title }, as);
    for (const c of coins) {
      const { address } = await exec('walletAddress', { walletId: w.walletID }, as);
      await exec('faucet', { address, satoshis: c });
    }
    return w.walletID as string;
  };
  const setPolicy = (document: PolicyDocumentInput) => exec('proposePolicy', { document });
  return { admin, exec, operator, manager1, manager2, wallet, setPolicy, person };
}

async function failure(p: Promise<unknown>): Promise<DomainError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof DomainError, `expected a DomainError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the call to fail');
}

interface Row {
  id: number;
  at: number;
  actor_uid: string | null;
  actor_email: string | null;
  action: string;
  target: string | null;
  outcome: 'success' | 'error';
  code: string | null;
  client: string | null;
  prev_hash: string;
  hash: string;
}
const asEntry = (r: Row): ChainedAuditEntry => ({
  id: r.id,
  at: r.at,
  actorUid: r.actor_uid,
  actorEmail: r.actor_email,
  action: r.action,
  target: r.target,
  outcome: r.outcome,
  code: r.code,
  client: r.client,
  prevHash: r.prev_hash,
  hash: r.hash,
});

/** Re-hashes the chain from `fromId` on, as anyone with the database key can (SHA-256 needs no key). */
function rehashFrom(t: TestEngine, fromId: number): void {
  const db = t.store.db;
  const rows = db.prepare('SELECT * FROM audit_log WHERE id >= ? ORDER BY id').all(fromId) as Row[];
  let prev =
    (db.prepare('SELECT hash FROM audit_log WHERE id < ? ORDER BY id DESC LIMIT 1').get(fromId) as { hash: string } | undefined)?.hash ??
    '0'.repeat(64);
  for (const r of rows) {
    const hash = entryHash(prev, asEntry(r));
    db.prepare('UPDATE audit_log SET prev_hash = ?, hash = ? WHERE id = ?').run(prev, hash, r.id);
    prev = hash;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Audit: a closed day rewritten, its checkpoint deleted: verify signs the forgery itself.
// ---------------------------------------------------------------------------------------------------------

describe('finding A: verify re-signs a closed day whose checkpoint was deleted (the forger needs no audit key)', () => {
  let t: TestEngine;
  beforeEach(() => {
    t = testEngine({ sessionTtlMs: 30 * DAY });
  });
  afterEach(() => t.engine.close());

  it('a day rewritten and re-hashed, its signed checkpoint deleted: verify names the missing checkpoint', async () => {
    const o = await organisation(t);
    // Day 1 (2026-01-01): the organisation is set up and users are created (audited). Day 2 closes day 1.
    t.clock.now += DAY;
    await o.exec('createUser', {
      email: 'vic@acme.io',
      password: 'pass-word-123',
      role: 'Viewer',
      firstName: 'V',
      lastName: 'W',
      title: 'T',
    });
    const first = await o.exec('auditVerify', {});
    assert.equal(first.ok, true);
    assert.ok(first.checkpoints >= 1, 'day 1 is closed by a signed checkpoint');
    const key = first.publicKey;
    const db = t.store.db;
    const day1 = db.prepare("SELECT * FROM audit_log WHERE action = 'createUser' ORDER BY id LIMIT 1").get() as Row;
    assert.ok(day1 && new Date(day1.at).toISOString().startsWith('2026-01-01'));
    // The insider with the database key: who created the operator is rewritten (the actor becomes someone else),
    // the chain re-hashed (no key needed), and day 1's checkpoint deleted: nothing of the audit key is touched.
    db.prepare("UPDATE audit_log SET actor_email = 'someone-else@acme.io', target = 'nobody' WHERE id = ?").run(day1.id);
    rehashFrom(t, day1.id);
    db.prepare("DELETE FROM audit_checkpoints WHERE day = '2026-01-01'").run();
    const after = await o.exec('auditVerify', {});
    assert.equal(after.publicKey, key, 'the same audit key (the written-down key does not tell)');
    assert.equal(
      after.ok,
      false,
      `verify must not hold: day 1 had a signed checkpoint, now gone, and its entries were rewritten (verdict: ${JSON.stringify(after)})`,
    );
  });

  it('refused: the same rewrite with the checkpoint left in place is named', async () => {
    const o = await organisation(t);
    t.clock.now += DAY;
    await o.exec('createUser', {
      email: 'vic@acme.io',
      password: 'pass-word-123',
      role: 'Viewer',
      firstName: 'V',
      lastName: 'W',
      title: 'T',
    });
    const db = t.store.db;
    const day1 = db.prepare("SELECT * FROM audit_log WHERE action = 'createUser' ORDER BY id LIMIT 1").get() as Row;
    db.prepare("UPDATE audit_log SET actor_email = 'someone-else@acme.io' WHERE id = ?").run(day1.id);
    rehashFrom(t, day1.id);
    const v = await o.exec('auditVerify', {});
    assert.equal(v.ok, false);
    assert.match(v.firstMismatch.reason, /checkpoint/);
  });

  it('refused: the newest entries deleted (the id counter not wound back) are named', async () => {
    const o = await organisation(t);
    await o.exec('createUser', {
      email: 'vic@acme.io',
      password: 'pass-word-123',
      role: 'Viewer',
      firstName: 'V',
      lastName: 'W',
      title: 'T',
    });
    const db = t.store.db;
    const max = (db.prepare('SELECT max(id) AS m FROM audit_log').get() as { m: number }).m;
    db.prepare('DELETE FROM audit_log WHERE id >= ?').run(max - 1);
    const v = await o.exec('auditVerify', {});
    assert.equal(v.ok, false);
    assert.match(v.firstMismatch.reason, /missing/);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Races: one wallet, many pays, batches and one idempotency key at once; the books against the chain.
// ---------------------------------------------------------------------------------------------------------

/** What the local node says the organisation's addresses hold, and what the books hold unspent. */
async function booksAndChain(t: TestEngine) {
  const db = t.store.db;
  const addresses = db.prepare('SELECT DISTINCT address FROM addresses').all() as { address: string }[];
  let chain = 0;
  const { LocalProvider } = await import('../../main/chain/local/local-provider.js');
  const p = new LocalProvider(t.node, () => null);
  for (const a of addresses) chain += await p.getBalance(a.address);
  const books = (db.prepare("SELECT coalesce(sum(satoshis), 0) AS s FROM utxos WHERE status <> 'spent'").get() as { s: number }).s;
  return { books, chain };
}

describe('races on one wallet: the window, the coins and the books', () => {
  let t: TestEngine;
  beforeEach(() => {
    t = testEngine({ sessionTtlMs: 30 * DAY });
  });
  afterEach(() => t.engine.close());

  it('refused: 20 pays and a 10-item batch at once, an operator held to 50,000 a day: the window holds, no coin twice, books = chain', async () => {
    const o = await organisation(t);
    const w = await o.wallet(o.operator, 'Ops', [30_000, 30_000, 30_000, 30_000, 30_000, 30_000]);
    await o.setPolicy({
      rules: [
        {
          name: 'operator day',
          when: { initiator: { roles: ['operator'] }, window: { per: 'initiator', period: '24h', over: { satoshis: 50_000 } } },
          action: 'deny',
          reason: 'operators move at most 50,000 a day',
        },
      ],
      default: { action: 'allow' },
    });
    const pays = Array.from({ length: 20 }, () =>
      o.exec('pay', { walletId: w, outputs: [{ script: TO_SCRIPT, satoshis: 4_000 }] }, o.operator).then(
        (r) => ({ ok: true as const, r }),
        (e) => ({ ok: false as const, e }),
      ),
    );
    const batch = o
      .exec('send', { walletId: w, dataArray: Array.from({ length: 10 }, () => ({ to: TO, satoshis: 4_000 })) }, o.operator)
      .then(
        (r) => ({ ok: true as const, r }),
        (e) => ({ ok: false as const, e }),
      );
    const results = await Promise.all([...pays, batch]);
    const paidTx = new Set<string>();
    for (const r of results.slice(0, 20)) if (r.ok) paidTx.add(r.r.txid);
    const b = results[20];
    if (b.ok) for (const x of b.r.txIds) paidTx.add(x);
    else for (const x of ((b.e as DomainError).details?.txIds as string[] | undefined) ?? []) paidTx.add(x);
    // What left: 4,000 each plus fees; the window is 50,000 with fees: at most 12 payments.
    assert.ok(paidTx.size <= 12, `${paidTx.size} payments of 4,000 passed a 50,000 window`);
    const sent = t.store.db
      .prepare("SELECT coalesce(sum(amount), 0) AS s FROM value_moves WHERE state != 'released' AND asset = 'bsv'")
      .get() as { s: number };
    assert.ok(sent.s <= 50_000, `the window counts ${sent.s}`);
    const { books, chain } = await booksAndChain(t);
    assert.equal(books, chain, 'the books hold what the chain holds');
  });

  it('refused: one idempotency key raced 8 times (and once with another amount) pays once', async () => {
    const o = await organisation(t);
    const w = await o.wallet(o.operator, 'Ops', [50_000, 50_000]);
    const same = Array.from({ length: 8 }, () =>
      o.exec('pay', { walletId: w, outputs: [{ script: TO_SCRIPT, satoshis: 5_000 }], idempotencyKey: 'k-1' }, o.operator).then(
        (r) => r.txid as string,
        (e: DomainError) => e.code,
      ),
    );
    const other = o.exec('pay', { walletId: w, outputs: [{ script: TO_SCRIPT, satoshis: 6_000 }], idempotencyKey: 'k-1' }, o.operator).then(
      (r) => r.txid as string,
      (e: DomainError) => e.code,
    );
    const all = await Promise.all([...same, other]);
    const txids = new Set(all.filter((x) => /^[0-9a-f]{64}$/.test(x)));
    assert.equal(txids.size, 1, JSON.stringify(all));
    const attempts = (t.store.db.prepare('SELECT count(*) AS n FROM payment_attempts').get() as { n: number }).n;
    assert.equal(attempts, 1);
    const { books, chain } = await booksAndChain(t);
    assert.equal(books, chain);
  });
});

// ---------------------------------------------------------------------------------------------------------
// An app's approved action (an allowance) pays whatever fee the rate of the moment gives.
// ---------------------------------------------------------------------------------------------------------

describe('finding B: an app’s approved action is not held to the fee its approvers reviewed', () => {
  it('the allowance used after the network’s rate rose does not pay a fee far above the reviewed one', async () => {
    const rate = { satoshis: 1, bytes: 1000 };
    const t = testEngine({
      sessionTtlMs: 30 * DAY,
      chain: (local) =>
        new Proxy(local, {
          get: (target, key) =>
            key === 'getFeePolicy'
              ? async () => ({ ...(await target.getFeePolicy()), ...rate })
              : typeof (target as any)[key] === 'function'
                ? (target as any)[key].bind(target)
                : (target as any)[key],
        }),
    });
    try {
      const o = await organisation(t);
      t.engine.brc100.setWait(50);
      const walletId = (await o.exec('createWallet', { walletTitle: 'Shop' })).walletID as string;
      await o.exec('faucet', { walletId, satoshis: 500_000 });
      await o.exec('decideApp', { originator: 'shop.example', allow: true, walletId });
      await o.exec('setAppSpendingLimit', { originator: 'shop.example', limit: { satoshis: 1_000_000 } });
      await o.setPolicy({
        rules: [{ when: { amountOver: { satoshis: 10_000 } }, action: 'approve', approvals: { count: 1, roles: ['manager'] } }],
        default: { action: 'allow' },
      });
      const shop = (method: string, args: object) => t.engine.brc100.call('shop.example', method, args, '127.0.0.1') as Promise<any>;
      const action = () =>
        shop('createAction', {
          description: 'a large purchase',
          outputs: [{ lockingScript: TO_SCRIPT, satoshis: 20_000, outputDescription: 'the supplier' }],
        });
      const msg = await action().then(
        () => assert.fail('expected approval'),
        (e: any) => String(e?.message ?? e),
      );
      const id = /(apr_[A-Za-z0-9_-]+)/.exec(msg)?.[1];
      assert.ok(id, msg);
      const reviewed = (await o.exec('getApproval', { approvalId: id }, o.manager1)).review.fee as number;
      assert.ok(reviewed < 10, `reviewed fee ${reviewed}`);
      const voted = await o.exec('approvePayment', { approvalId: id }, o.manager1);
      assert.equal(voted.state, 'approved');
      // The rate rises a thousandfold before the app asks again.
      rate.bytes = 1;
      const unspent = () =>
        (t.store.db.prepare("SELECT coalesce(sum(satoshis), 0) AS s FROM utxos WHERE status <> 'spent'").get() as { s: number }).s;
      const before = unspent();
      const done = await action().then(
        (r: any) => r.txid as string,
        (e: any) => `refused: ${String(e?.message ?? e)}`,
      );
      if (/^[0-9a-f]{64}$/.test(done)) {
        await new Promise((r) => setTimeout(r, 200));
        const fee = before - unspent() - 20_000;
        assert.ok(
          fee <= reviewed + Math.max(10, Math.ceil(reviewed / 10)),
          `the allowance paid a network fee of ${fee} satoshis; its approvers reviewed ${reviewed}`,
        );
      } else {
        assert.match(done, /fee|APPROVAL_MISMATCH/i);
      }
    } finally {
      t.engine.close();
      t.node.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------------------
// A wallet deleted while a payment of the organisation to it is still on its way: its keys go, the coins follow.
// ---------------------------------------------------------------------------------------------------------

describe('finding C: a wallet that a pending payment pays is deleted without force (its coins arrive at discarded keys)', () => {
  it('deleting the receiving wallet is refused while an organisation payment to it is pending; no satoshi leaves the books', async () => {
    let outage = true;
    const { withBroadcast } = await import('../helpers/engine.js');
    const t = testEngine({
      sessionTtlMs: 30 * DAY,
      chain: withBroadcast(function (this: any, hex: string) {
        return outage ? Promise.resolve({ status: 'unknown' as const, txid: null, message: 'ARC timed out' }) : this.broadcast(hex);
      }),
    });
    try {
      const o = await organisation(t);
      const from = await o.wallet(o.admin, 'Treasury', [100_000]);
      const to = (await o.exec('createWallet', { walletTitle: 'Payroll' })).walletID as string;
      const { address } = await o.exec('walletAddress', { walletId: to });
      const { books: before } = await booksAndChain(t);
      const paid = await failure(
        o.exec('pay', { walletId: from, outputs: [{ script: new P2PKH().lock(address).toHex(), satoshis: 30_000 }] }),
      );
      assert.match(paid.message, /not known yet/, 'pending: ARC did not answer');
      const deleted = await o.exec('deleteWallet', { walletId: to }).then(
        () => 'deleted',
        (e: DomainError) => e.code,
      );
      // The chain takes the payment later (Keystead sends it again).
      outage = false;
      t.clock.now += 60_000;
      await (t.engine as any).reconcile();
      const { LocalProvider } = await import('../../main/chain/local/local-provider.js');
      const atPayroll = await new LocalProvider(t.node, () => null).getBalance(address);
      assert.equal(atPayroll, 30_000, 'the chain holds the payment at the payroll address');
      const { books: after } = await booksAndChain(t);
      assert.equal(
        deleted,
        'CONFLICT',
        `deleting the payroll wallet was ${deleted}; the books went from ${before} to ${after} satoshis while the chain holds ${atPayroll} at its discarded keys`,
      );
    } finally {
      t.engine.close();
      t.node.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------------------
// Approvals: the initiator makes the approver.
// ---------------------------------------------------------------------------------------------------------

describe('finding D: an admin’s payment is approved by a manager account the admin created a minute later', () => {
  let t: TestEngine;
  beforeEach(() => {
    t = testEngine({ sessionTtlMs: 30 * DAY });
  });
  afterEach(() => t.engine.close());

  it('a voter made (or given the role) after the request, by its initiator, does not count: the payment is not sent', async () => {
    const o = await organisation(t);
    const treasury = await o.wallet(o.admin, 'Treasury', [200_000]);
    await o.setPolicy({
      rules: [{ name: 'big', when: { amountOver: { satoshis: 10_000 } }, action: 'approve', approvals: { count: 1, roles: ['manager'] } }],
      default: { action: 'allow' },
    });
    // A second admin: policy changes now need four-eyes and a seasoned decider; payments need a manager.
    await o.person('bea@acme.io', 'Admin');
    t.clock.now += 2 * DAY;
    const err = await failure(o.exec('pay', { walletId: treasury, outputs: [{ script: TO_SCRIPT, satoshis: 150_000 }] }));
    assert.equal(err.code, 'APPROVAL_REQUIRED');
    const id = err.details.approvalId as string;
    // A minute later the initiating admin makes a manager account, signs in as it and approves their own payment.
    t.clock.now += 60_000;
    const puppet = await o.person('sock@acme.io', 'Manager');
    const voted = await o.exec('approvePayment', { approvalId: id }, puppet).then(
      (r) => r.state as string,
      (e: DomainError) => e.code,
    );
    const sent = (t.store.db.prepare('SELECT count(*) AS n FROM payment_attempts').get() as { n: number }).n;
    assert.equal(sent, 0, `the initiator’s own new account approved it (${voted}) and 150,000 satoshis were sent`);
    assert.equal(voted, 'FORBIDDEN');
  });

  it('refused: the initiator’s own vote, and a second vote of the same approver', async () => {
    const o = await organisation(t);
    const w = await o.wallet(o.operator, 'Ops', [100_000]);
    await o.setPolicy({
      rules: [{ when: { amountOver: { satoshis: 10_000 } }, action: 'approve', approvals: { count: 2, roles: ['manager', 'operator'] } }],
      default: { action: 'allow' },
    });
    const err = await failure(o.exec('pay', { walletId: w, outputs: [{ script: TO_SCRIPT, satoshis: 15_000 }] }, o.operator));
    const id = err.details.approvalId as string;
    assert.equal((await failure(o.exec('approvePayment', { approvalId: id }, o.operator))).code, 'FORBIDDEN');
    // Concurrent double votes of one approver count once.
    const twice = await Promise.all(
      [1, 2, 3].map(() =>
        o.exec('approvePayment', { approvalId: id }, o.manager1).then(
          () => 'ok',
          (e) => e.code,
        ),
      ),
    );
    assert.equal(twice.filter((x) => x === 'ok').length, 1, JSON.stringify(twice));
    const row = await o.exec('getApproval', { approvalId: id }, o.manager1);
    assert.equal(row.state, 'awaiting_approval');
    // sendApproved before approval, and twice after: once only.
    assert.equal((await failure(o.exec('sendApproved', { approvalId: id }, o.operator))).code, 'CONFLICT');
    const last = await o.exec('approvePayment', { approvalId: id }, o.manager2);
    assert.equal(last.state, 'sent');
    assert.equal((await failure(o.exec('sendApproved', { approvalId: id }, o.operator))).code, 'CONFLICT');
    assert.equal((t.store.db.prepare('SELECT count(*) AS n FROM payment_attempts').get() as { n: number }).n, 1);
  });
});

// ---------------------------------------------------------------------------------------------------------
// A currency limit measured by a rate the limited person may type.
// ---------------------------------------------------------------------------------------------------------

describe('finding E: a manager loosens a currency limit on their own payments by typing the rate it is measured with', () => {
  let t: TestEngine;
  beforeEach(() => {
    t = testEngine({ sessionTtlMs: 30 * DAY });
  });
  afterEach(() => t.engine.close());

  it('a manager held to 5 EUR a payment cannot pay 100,000 satoshis (10 EUR) after setting EUR to 1 per BSV', async () => {
    const o = await organisation(t);
    await o.exec('setRate', { currency: 'EUR', rate: 10_000 }); // the admin's table: 1 EUR = 10,000 satoshis
    const w = await o.wallet(o.manager1, 'Desk', [300_000]);
    await o.setPolicy({
      rules: [
        {
          name: 'managers up to 5 EUR',
          when: { initiator: { roles: ['manager'] }, amountOver: { value: { currency: 'EUR', amount: '5' } } },
          action: 'deny',
          reason: 'managers pay at most 5 EUR at a time',
        },
      ],
      default: { action: 'allow' },
    });
    const pay = () => o.exec('pay', { walletId: w, outputs: [{ script: TO_SCRIPT, satoshis: 100_000 }] }, o.manager1);
    assert.equal((await failure(pay())).code, 'POLICY_DENIED', 'the control: 10 EUR is refused');
    // The manager, who may not change the policy, changes the rate it measures with.
    const typed = await o.exec('setRate', { currency: 'EUR', rate: 1 }, o.manager1).then(
      () => 'set',
      (e: DomainError) => e.code,
    );
    const r = await pay().then(
      (x) => `paid ${x.txid}`,
      (e: DomainError) => e.code,
    );
    assert.equal(r, 'POLICY_DENIED', `setRate by the limited manager: ${typed}; the 10 EUR payment: ${r}`);
  });
});

// ---------------------------------------------------------------------------------------------------------
// A rule about an API key, escaped by the key rotating itself.
// ---------------------------------------------------------------------------------------------------------

describe('finding F: a policy rule naming an API key no longer holds once the key rotates itself', () => {
  let t: TestEngine;
  beforeEach(() => {
    t = testEngine({ sessionTtlMs: 30 * DAY });
  });
  afterEach(() => t.engine.close());

  it('the integration key held to 10,000 a payment rotates itself and still cannot pay 50,000', async () => {
    const o = await organisation(t);
    const w = await o.wallet(o.operator, 'Integration', [200_000]);
    const made = await o.exec('createApiKey', { label: 'shop backend' }, o.operator);
    await o.setPolicy({
      rules: [
        {
          name: 'the shop backend key',
          when: { initiator: { apiKeys: [made.keyId] }, amountOver: { satoshis: 10_000 } },
          action: 'deny',
          reason: 'the shop backend pays at most 10,000 at a time',
        },
      ],
      default: { action: 'allow' },
    });
    const asKey = (k: { uid: string; apiKey: string }) =>
      ({ uid: k.uid, apiKey: k.apiKey, serviceId: o.operator.serviceId }) as Credentials;
    const pay = (k: { uid: string; apiKey: string }) =>
      o.exec('pay', { walletId: w, outputs: [{ script: TO_SCRIPT, satoshis: 50_000 }] }, asKey(k)).then(
        (x) => `paid ${x.txid}`,
        (e: DomainError) => e.code,
      );
    assert.equal(await pay(made), 'POLICY_DENIED', 'the control: the key is held to its rule');
    // Whoever holds the key (not the user's password) rotates it: the new key has a new id no rule names.
    const rotated = await o.exec('rotateApiKey', { keyId: made.keyId }, asKey(made));
    assert.notEqual(rotated.keyId, made.keyId);
    assert.equal(await pay(rotated), 'POLICY_DENIED', 'the rotated key is the same key for the policy');
  });
});

// ---------------------------------------------------------------------------------------------------------
// The whole balance leaves outside the policy: the operator owner is shown the wallet's recovery phrase.
// ---------------------------------------------------------------------------------------------------------

describe('finding G: an operator the policy holds to 10,000 a day is shown the recovery phrase of the wallet it holds', () => {
  let t: TestEngine;
  beforeEach(() => {
    t = testEngine({ sessionTtlMs: 30 * DAY });
  });
  afterEach(() => t.engine.close());

  it('exportMnemonic is refused (or waits for approvers) for a wallet whose moves the policy limits for its caller', async () => {
    const o = await organisation(t);
    const w = await o.wallet(o.operator, 'Petty cash', [500_000]);
    await o.setPolicy({
      rules: [
        {
          name: 'operators 10,000 a day',
          when: { initiator: { roles: ['operator'] }, window: { per: 'initiator', period: '24h', over: { satoshis: 10_000 } } },
          action: 'deny',
          reason: 'operators move at most 10,000 a day',
        },
      ],
      default: { action: 'allow' },
    });
    assert.equal(
      (await failure(o.exec('pay', { walletId: w, outputs: [{ script: TO_SCRIPT, satoshis: 20_000 }] }, o.operator))).code,
      'POLICY_DENIED',
    );
    const shown = await o.exec('exportMnemonic', { walletId: w, password: 'pass-word-123' }, o.operator).then(
      (r) =>
        r.mnemonic ? `shown (${String(r.mnemonic).split(' ').length} words: all 500,000 satoshis spendable outside Keystead)` : 'shown',
      (e: DomainError) => e.code,
    );
    assert.ok(['FORBIDDEN', 'POLICY_DENIED', 'APPROVAL_REQUIRED'].includes(shown), `the phrase was ${shown}`);
  });
});

describe('refused: attacks the controls hold against', () => {
  let t: TestEngine;
  beforeEach(() => {
    t = testEngine({ sessionTtlMs: 30 * DAY });
  });
  afterEach(() => t.engine.close());

  it('refused: an address paid under a payee’s paymail (a caller’s label) is not that payee', async () => {
    const o = await organisation(t);
    const w = await o.wallet(o.operator, 'Ops', [100_000]);
    const payee = await o.exec('addPayee', { name: 'Supplier', destination: 'supplier@good.example' });
    t.clock.now += 3 * DAY;
    await o.setPolicy({
      rules: [
        { name: 'book', when: { destination: { kind: 'payees', payees: [payee.payeeId] } }, action: 'allow' },
        { name: 'rest', when: { initiator: { roles: ['operator'] } }, action: 'deny', reason: 'operators pay payees only' },
      ],
      default: { action: 'allow' },
    });
    for (const input of [
      { walletId: w, outputs: [{ script: TO_SCRIPT, satoshis: 5_000 }], uri: 'payto:supplier@good.example' },
      { walletId: w, outputs: [{ script: TO_SCRIPT, satoshis: 5_000 }], uri: 'supplier@good.example' },
    ])
      assert.equal((await failure(o.exec('pay', input, o.operator))).code, 'POLICY_DENIED');
    const batch = await failure(
      o.exec('send', { walletId: w, dataArray: [{ to: TO, satoshis: 5_000, notes: 'supplier@good.example' }] }, o.operator),
    );
    assert.equal(batch.code, 'POLICY_DENIED');
  });

  it('refused: a viewer cannot approve, propose a policy, set a rate, add a payee or export the audit', async () => {
    const o = await organisation(t);
    const v = await o.person('vic@acme.io', 'Viewer');
    for (const [op, input] of [
      ['proposePolicy', { document: { rules: [], default: { action: 'allow' } } }],
      ['setRate', { currency: 'EUR', rate: 1 }],
      ['addPayee', { name: 'X', destination: TO }],
      ['auditExport', { from: '2026-01-01', to: '2026-01-01' }],
      ['auditVerify', {}],
      ['exportMnemonic', { password: 'pass-word-123' }],
    ] as const)
      assert.equal((await failure(o.exec(op, input, v))).code, 'ROLE_FORBIDDEN', op);
  });
});

describe('refused: the fee manager paying for many payments at once', () => {
  it('refused: 3 wallets, 24 pays at once with the fee manager paying: each fee coin spent once, books = chain', async () => {
    const t = testEngine({ sessionTtlMs: 30 * DAY });
    try {
      const o = await organisation(t);
      const fm = await o.exec('feeManagerInit', {});
      for (let i = 0; i < 6; i++) await o.exec('faucet', { address: fm.address, satoshis: 2_000 });
      const wallets = [
        await o.wallet(o.admin, 'A', [40_000, 40_000]),
        await o.wallet(o.operator, 'B', [40_000, 40_000]),
        await o.wallet(o.manager1, 'C', [40_000, 40_000]),
      ];
      const who = [o.admin, o.operator, o.manager1];
      const results = await Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          o.exec('pay', { walletId: wallets[i % 3], outputs: [{ script: TO_SCRIPT, satoshis: 3_000 }] }, who[i % 3]).then(
            (r) => r.feePaidBy as string,
            (e: DomainError) => e.code,
          ),
        ),
      );
      assert.ok(results.filter((r) => r === 'feeManager' || r === 'wallet').length >= 6, JSON.stringify(results));
      await (t.engine as any).reconcile();
      const { books, chain } = await booksAndChain(t);
      assert.equal(books, chain, JSON.stringify(results));
    } finally {
      t.engine.close();
      t.node.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------------------
// The approval's idempotency key is its id, and its initiator knows it.
// ---------------------------------------------------------------------------------------------------------

describe('finding H: the initiator pays something else under the approval’s id; the approval then reads "sent" with that txid', () => {
  let t: TestEngine;
  beforeEach(() => {
    t = testEngine({ sessionTtlMs: 30 * DAY });
  });
  afterEach(() => t.engine.close());

  it('an approved request is never marked sent with a transaction that does not pay its reviewed outputs', async () => {
    const o = await organisation(t);
    const w = await o.wallet(o.operator, 'Ops', [200_000]);
    await o.setPolicy({
      rules: [{ when: { amountOver: { satoshis: 10_000 } }, action: 'approve', approvals: { count: 1, roles: ['manager'] } }],
      default: { action: 'allow' },
    });
    const err = await failure(
      o.exec('pay', { walletId: w, outputs: [{ script: TO_SCRIPT, satoshis: 50_000 }], memo: 'supplier invoice 17' }, o.operator),
    );
    const id = err.details.approvalId as string;
    // The operator pays 5,000 to an address of their own choosing under the approval's id as idempotency key.
    const cronyAddress = PrivateKey.fromRandom().toAddress();
    const crony = new P2PKH().lock(cronyAddress).toHex();
    const small = await o.exec('pay', { walletId: w, outputs: [{ script: crony, satoshis: 5_000 }], idempotencyKey: id }, o.operator).then(
      (r: { txid: string }) => r.txid,
      (e: DomainError) => e.code,
    );
    assert.equal(small, 'VALIDATION_FAILED', 'a caller may not take an approval’s id as its idempotency key');
    const batch = await o
      .exec('send', { walletId: w, dataArray: [{ to: cronyAddress, amount: 0.00005 }], idempotencyKey: id }, o.operator)
      .then(
        () => 'sent',
        (e: DomainError) => e.code,
      );
    assert.equal(batch, 'VALIDATION_FAILED', 'nor as a batch’s key');
    const voted = await o.exec('approvePayment', { approvalId: id }, o.manager1);
    assert.equal(voted.state, 'sent');
    const paid = Transaction.fromHex(t.node.txHex(voted.txid)!);
    assert.ok(
      paid.outputs.some((x) => x.lockingScript.toHex() === TO_SCRIPT && x.satoshis === 50_000),
      `the approval of 50,000 to the supplier reads sent with txid ${voted.txid}, which does not pay the supplier`,
    );
  });
});

// ---------------------------------------------------------------------------------------------------------
// An app's data write: its fee is not counted by the organisation's policy (review-1128 finding 7, for apps).
// ---------------------------------------------------------------------------------------------------------

describe('finding I: an app’s action is judged by the policy without its network fee', () => {
  it('a wallet held to 1,000 satoshis a day cannot pay ~100,000 in fees for an app’s data outputs', async () => {
    const t = testEngine({
      sessionTtlMs: 30 * DAY,
      chain: (local) => Object.assign(Object.create(local), { getFeePolicy: async () => ({ satoshis: 1, bytes: 1, dustLimit: 1 }) }),
    });
    try {
      const o = await organisation(t);
      t.engine.brc100.setWait(50);
      const walletId = (await o.exec('createWallet', { walletTitle: 'Shop' })).walletID as string;
      await o.exec('faucet', { walletId, satoshis: 400_000 });
      await o.exec('decideApp', { originator: 'shop.example', allow: true, walletId });
      await o.exec('setAppSpendingLimit', { originator: 'shop.example', limit: { satoshis: 1_000_000 } });
      await o.setPolicy({
        rules: [
          {
            when: { wallets: [walletId], window: { per: 'wallet', period: '24h', over: { satoshis: 1_000 } } },
            action: 'deny',
            reason: 'this wallet moves 1,000 satoshis a day at most',
          },
        ],
        default: { action: 'allow' },
      });
      const shop = (method: string, args: object) => t.engine.brc100.call('shop.example', method, args, '127.0.0.1') as Promise<any>;
      const unspent = () =>
        (t.store.db.prepare("SELECT coalesce(sum(satoshis), 0) AS s FROM utxos WHERE status <> 'spent'").get() as { s: number }).s;
      const before = unspent();
      // Two data records (30 pushes of 3,000 bytes each, 0 satoshis): nothing is paid to anyone, only fees.
      const record = () =>
        shop('createAction', {
          description: 'a data record',
          outputs: [
            { lockingScript: '006a' + ('4d' + 'b80b' + 'cd'.repeat(3000)).repeat(30), satoshis: 0, outputDescription: 'a data record' },
          ],
        }).then(
          () => null,
          (e: any) => String(e?.message ?? e),
        );
      const refused = await record();
      const big = await record();
      await new Promise((r) => setTimeout(r, 200));
      const spent = before - unspent();
      assert.ok(
        spent <= 1_000 || (refused !== null && big !== null),
        `the app's data records cost the wallet ${spent} satoshis in fees past a 1,000-satoshi daily limit (refused: ${refused ?? 'none'}; ${big ?? 'the large one too went through'})`,
      );
    } finally {
      t.engine.close();
      t.node.close();
    }
  });
});
