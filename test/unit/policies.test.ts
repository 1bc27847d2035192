import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { P2PKH, PrivateKey } from '@bsv/sdk';
import type { Credentials } from '../../main/engine/context.js';
import { createRepos } from '../../main/store/repos/index.js';
import type { PolicyDocumentInput } from '../../shared/contracts/policies.js';
import { DomainError } from '../../shared/errors.js';
import { rejectsWith } from '../helpers/assert-domain-error.js';
import { meta, testEngine, type TestEngine } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';
import { startReceiver } from '../helpers/paymail-receiver.js';

const TO = PrivateKey.fromRandom().toAddress();
const TO_SCRIPT = new P2PKH().lock(TO).toHex();

type Exec = (op: string, input: object, as?: Credentials) => Promise<any>;

/** An organisation: an admin, two managers and an operator, each with credentials; `exec` calls as one of them. */
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
  /** A wallet of `as`, funded by the faucet with these coins. */
  const wallet = async (as: Credentials, title: string, coins: number[]) => {
    const w = await exec('createWallet', { walletTitle: title }, as);
    for (const c of coins) {
      const { address } = await exec('walletAddress', { walletId: w.walletID }, as);
      await exec('faucet', { address, satoshis: c });
    }
    return w.walletID as string;
  };
  const setPolicy = (document: PolicyDocumentInput) => exec('proposePolicy', { document });
  return { admin, exec, operator, manager1, manager2, wallet, setPolicy };
}

/** The DomainError a call fails with. */
async function failure(p: Promise<unknown>): Promise<DomainError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof DomainError, `expected a DomainError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the call to fail');
}

describe('payment policies: deny, approvals, limits, on every move of value', () => {
  let t: TestEngine;
  beforeEach(() => {
    t = testEngine({});
  });
  afterEach(() => t.engine.close());

  const attempts = () => (t.store.db.prepare('SELECT count(*) AS n FROM payment_attempts').get() as { n: number }).n;
  const reserved = () => (t.store.db.prepare("SELECT count(*) AS n FROM utxos WHERE status = 'reserved'").get() as { n: number }).n;

  it('a deny rule refuses with its reason and reserves nothing; other initiators still pay', async () => {
    const o = await organisation(t);
    const w = await o.wallet(o.operator, 'Ops', [100_000]);
    await o.setPolicy({
      rules: [
        {
          name: 'no operators over 0.0002',
          when: { initiator: { roles: ['operator'] }, amountOver: { satoshis: 20_000 } },
          action: 'deny',
          reason: 'Operators pay up to 20,000 sat',
        },
      ],
      default: { action: 'allow' },
    });
    const before = attempts();
    const err = await failure(o.exec('pay', { walletId: w, outputs: [{ script: TO_SCRIPT, satoshis: 30_000 }] }, o.operator));
    assert.equal(err.code, 'POLICY_DENIED');
    assert.match(err.message, /Operators pay up to 20,000 sat/);
    assert.match(err.message, /rule 1 \(no operators over 0\.0002\)/);
    assert.equal(attempts(), before, 'nothing recorded');
    assert.equal(reserved(), 0, 'nothing reserved');
    // At the limit (what leaves includes the network fee of a few satoshis) it is not "over": allowed.
    const ok = await o.exec('pay', { walletId: w, outputs: [{ script: TO_SCRIPT, satoshis: 19_990 }] }, o.operator);
    assert.match(ok.txid, /^[0-9a-f]{64}$/);
  });

  it('an approval rule: 202 with an id, nothing reserved; votes (initiator never counts, one vote each); the last one sends exactly what was reviewed', async () => {
    const o = await organisation(t);
    const w = await o.wallet(o.operator, 'Ops', [100_000]);
    await o.setPolicy({
      rules: [{ when: { amountOver: { satoshis: 10_000 } }, action: 'approve', approvals: { count: 2, roles: ['manager', 'operator'] } }],
      default: { action: 'allow' },
    });
    const before = attempts();
    const err = await failure(o.exec('pay', { walletId: w, outputs: [{ script: TO_SCRIPT, satoshis: 15_000 }], memo: 'rent' }, o.operator));
    assert.equal(err.code, 'APPROVAL_REQUIRED');
    assert.equal(err.kind, 'accepted');
    const id = err.details.approvalId as string;
    assert.match(id, /^apr_/);
    assert.equal(attempts(), before);
    assert.equal(reserved(), 0);

    const seen = await o.exec('getApproval', { approvalId: id }, o.manager1);
    assert.equal(seen.state, 'awaiting_approval');
    assert.equal(seen.review.amount, 15_000);
    assert.deepEqual(seen.review.outputs, [{ script: TO_SCRIPT, satoshis: 15_000, address: TO }]);
    assert.equal(seen.review.memo, 'rent');
    assert.equal(seen.canVote, true);
    assert.equal((await o.exec('listApprovals', {}, o.manager1)).awaitingMyVote, 1);

    await rejectsWith(o.exec('approvePayment', { approvalId: id }, o.operator), 'FORBIDDEN', /your own approval does not count/);
    const first = await o.exec('approvePayment', { approvalId: id }, o.manager1);
    assert.equal(first.state, 'awaiting_approval');
    await rejectsWith(o.exec('approvePayment', { approvalId: id }, o.manager1), 'FORBIDDEN', /voted on it already/);
    assert.equal(attempts(), before, 'one approval of two sends nothing');
    const last = await o.exec('approvePayment', { approvalId: id }, o.manager2);
    assert.equal(last.state, 'sent', JSON.stringify(last));
    assert.match(last.txid, /^[0-9a-f]{64}$/);
    const raw = t.node!.txHex(last.txid)!;
    assert.ok(raw.includes(TO_SCRIPT), 'the sent transaction pays the reviewed output');
    await rejectsWith(o.exec('approvePayment', { approvalId: id }, o.admin), 'CONFLICT', /sent/);
  });

  it('an approval request is announced once it is stored, not while its transaction may still roll back', async () => {
    const o = await organisation(t);
    const w = await o.wallet(o.operator, 'Ops', [100_000]);
    await o.setPolicy({
      rules: [{ when: { amountOver: { satoshis: 10_000 } }, action: 'approve', approvals: { count: 1, roles: ['manager'] } }],
      default: { action: 'allow' },
    });
    const heard: { type: string; data: unknown }[] = [];
    const stream = t.engine.openEventStream(
      { credentials: o.manager1 },
      (e) => heard.push(e),
      () => {},
    );
    try {
      // Whatever the manager hears about it, the request must already be committed when heard (the same
      // connection would see it inside its own open transaction too: that is what must not be the case).
      const existsWhenHeard: boolean[] = [];
      const stored = (id: string) =>
        (t.store.db.prepare('SELECT count(*) AS n FROM approval_requests WHERE id = ?').get(id) as { n: number }).n === 1;
      const original = heard.push.bind(heard);
      heard.push = (...events) => {
        for (const e of events)
          if (e.type === 'approval')
            existsWhenHeard.push(!t.store.db.inTransaction && stored((e.data as { approvalId: string }).approvalId));
        return original(...events);
      };
      const err = await failure(o.exec('pay', { walletId: w, outputs: [{ script: TO_SCRIPT, satoshis: 15_000 }] }, o.operator));
      assert.equal(err.code, 'APPROVAL_REQUIRED');
      const announced = heard.filter((e) => e.type === 'approval').map((e) => e.data);
      assert.deepEqual(announced, [{ approvalId: err.details.approvalId, state: 'awaiting_approval' }]);
      assert.deepEqual(existsWhenHeard, [true]);
    } finally {
      stream.close();
    }
  });

  it('a vote of an approver since removed or demoted no longer counts towards the quorum', async () => {
    const o = await organisation(t);
    const w = await o.wallet(o.operator, 'Ops', [200_000]);
    await o.setPolicy({ rules: [], default: { action: 'approve', approvals: { count: 2, roles: ['manager'] } } });
    const login = async (email: string) => {
      await o.exec('createUser', { email, password: 'pass-word-123', role: 'Manager', firstName: 'A', lastName: 'B', title: 'T' });
      const l = (await t.engine.execute('login', { email, password: 'pass-word-123' }, {}, meta)).output;
      return { authToken: l.token ?? l.authToken, serviceId: o.admin.serviceId };
    };
    const manager3 = await login('mo@acme.io');
    const ask = async () =>
      (await failure(o.exec('pay', { walletId: w, outputs: [{ script: TO_SCRIPT, satoshis: 15_000 }] }, o.operator))).details
        .approvalId as string;
    const uidOf = async (who: Credentials) => ((await o.exec('me', {}, who)) as { uid: string }).uid;

    // Removed: manager 1 approves and leaves the organisation before manager 2 votes.
    let id = await ask();
    await o.exec('approvePayment', { approvalId: id }, o.manager1);
    await o.exec('deleteUser', { userId: await uidOf(o.manager1) });
    assert.equal(
      (await o.exec('approvePayment', { approvalId: id }, o.manager2)).state,
      'awaiting_approval',
      'one standing approval of two',
    );
    assert.equal((await o.exec('approvePayment', { approvalId: id }, manager3)).state, 'sent', 'a second standing approval sends it');

    // Demoted: manager 2 approves and becomes a viewer before manager 3 votes.
    id = await ask();
    await o.exec('approvePayment', { approvalId: id }, o.manager2);
    await o.exec('updateUser', { userId: await uidOf(o.manager2), role: 'Viewer' });
    assert.equal(
      (await o.exec('approvePayment', { approvalId: id }, manager3)).state,
      'awaiting_approval',
      'a demoted approver’s vote lapsed',
    );
  });

  it('a rule names one wallet: a walletID every default wallet has is refused bare, and named with its owner', async () => {
    const o = await organisation(t);
    const defaultOf = async (as: Credentials, coins: number) => {
      const w = await o.exec('createWallet', { walletTitle: 'default' }, as);
      const { address } = await o.exec('walletAddress', { walletId: w.walletID }, as);
      await o.exec('faucet', { address, satoshis: coins });
      return w.walletID as string;
    };
    const adaDefault = await defaultOf(o.admin, 400_000);
    const olgaDefault = await defaultOf(o.operator, 400_000);
    assert.equal(adaDefault, olgaDefault, 'the public service’s one default walletID');
    const fast = (wallets: string[]) => ({
      rules: [{ name: 'Ada’s operating wallet', when: { wallets }, action: 'allow' as const }],
      default: { action: 'approve' as const, approvals: { count: 1, roles: ['admin' as const] } },
    });
    await rejectsWith(o.setPolicy(fast([adaDefault])), 'VALIDATION_FAILED', /every user's default wallet.*<owner e-mail>\//);
    await o.setPolicy(fast([`ADA@acme.io/${adaDefault}`]));
    const pay = (as: Credentials) => o.exec('pay', { walletId: adaDefault, outputs: [{ script: TO_SCRIPT, satoshis: 30_000 }] }, as);
    assert.match((await pay(o.admin)).txid, /^[0-9a-f]{64}$/, 'Ada’s default wallet is the one the rule names');
    const err = await failure(pay(o.operator));
    assert.equal(err.code, 'APPROVAL_REQUIRED', 'Olga’s default wallet is not: the default applies');
  });

  it('rejected, cancelled and expired payments move nothing and free their place in the window', async () => {
    t.engine.close();
    t = testEngine({ sessionTtlMs: 1_000 * 3_600_000 }); // the days pass with everyone signed in
    const o = await organisation(t);
    const w = await o.wallet(o.operator, 'Ops', [100_000]);
    await o.setPolicy({
      rules: [
        { when: { window: { per: 'initiator', period: '24h', over: { satoshis: 25_000 } } }, action: 'deny', reason: 'daily limit' },
        { when: {}, action: 'approve', approvals: { count: 1, roles: ['manager'] } },
      ],
      default: { action: 'allow' },
    });
    const ask = async () =>
      (await failure(o.exec('pay', { walletId: w, outputs: [{ script: TO_SCRIPT, satoshis: 10_000 }] }, o.operator))).details
        .approvalId as string;
    const a = await ask();
    const b = await ask();
    // Two awaiting (20,000) plus 10,000 is over the day's 25,000: awaiting payments count.
    const over = await failure(o.exec('pay', { walletId: w, outputs: [{ script: TO_SCRIPT, satoshis: 10_000 }] }, o.operator));
    assert.equal(over.code, 'POLICY_DENIED');
    assert.equal((await o.exec('rejectPayment', { approvalId: a, reason: 'not this week' }, o.manager1)).state, 'rejected');
    assert.equal((await o.exec('cancelApproval', { approvalId: b }, o.operator)).state, 'cancelled');
    const c = await ask(); // room again
    t.clock.now += 73 * 3_600_000; // past the default expiry of 72 hours
    assert.equal((await o.exec('getApproval', { approvalId: c }, o.manager1)).state, 'expired');
    await rejectsWith(o.exec('approvePayment', { approvalId: c }, o.manager1), 'CONFLICT', /expired/);
    assert.equal(attempts(), 0, 'no payment was ever recorded');
    assert.equal(reserved(), 0);
    const repos = createRepos(t.store.db);
    assert.equal(repos.policies.windowTotal({ asset: 'bsv', since: 0, initiator: o.operator.uid }), 0, 'nothing counts any more');
  });

  it('fifty concurrent payments, each under the per-payment limit, are held to the window total', async () => {
    const o = await organisation(t);
    const w = await o.wallet(
      o.operator,
      'Ops',
      Array.from({ length: 50 }, () => 5_000),
    );
    await o.setPolicy({
      rules: [
        { when: { amountOver: { satoshis: 3_000 } }, action: 'deny', reason: 'per payment' },
        { when: { window: { per: 'wallet', period: '24h', over: { satoshis: 20_000 } } }, action: 'deny', reason: 'daily total' },
      ],
      default: { action: 'allow' },
    });
    const results = await Promise.allSettled(
      // 1,990 and a fee of a few satoshis each: ten fit in 20,000, an eleventh does not.
      Array.from({ length: 50 }, () => o.exec('pay', { walletId: w, outputs: [{ script: TO_SCRIPT, satoshis: 1_990 }] }, o.operator)),
    );
    const paid = results.filter((r) => r.status === 'fulfilled').length;
    const refused = results.filter((r) => r.status === 'rejected' && (r.reason as DomainError).code === 'POLICY_DENIED').length;
    assert.equal(paid, 10, 'ten payments of 1,990 satoshis and their fees went through');
    assert.equal(refused, 40);
    assert.equal(reserved(), 0);
  });

  it('tokens count by their own amounts and NFTs by count, never by the satoshis they carry', async () => {
    const o = await organisation(t);
    const w = await o.wallet(o.admin, 'Treasury', [200_000, 100_000]);
    const gold = await o.exec('issueToken', {
      walletId: w,
      name: 'Gold',
      protocolId: 'KST-20',
      symbol: 'GOLD',
      tokenSupply: 1000,
      satsPerToken: 5,
    });
    await o.setPolicy({
      rules: [
        { when: { assets: ['tokens'], amountOver: { tokens: 100 } }, action: 'deny', reason: 'token limit' },
        { when: { amountOver: { satoshis: 400 } }, action: 'deny', reason: 'BSV limit' },
      ],
      default: { action: 'allow' },
    });
    // 90 tokens carry 450 satoshis: over the BSV limit's satoshis, but a BSV rule never matches a token move.
    await o.exec('send', { walletId: w, dataArray: [{ to: TO, amount: 90, tokenId: gold.tokenId }] });
    await rejectsWith(
      o.exec('send', { walletId: w, dataArray: [{ to: TO, amount: 101, tokenId: gold.tokenId }] }),
      'POLICY_DENIED',
      /token limit/,
    );
    await rejectsWith(o.exec('pay', { walletId: w, outputs: [{ script: TO_SCRIPT, satoshis: 500 }] }), 'POLICY_DENIED', /BSV limit/);
  });

  it('every operation that moves value passes the check: pay, send (BSV and tokens), issue, redeem, invoices, data, sweeps', async () => {
    const o = await organisation(t);
    const w = await o.wallet(o.admin, 'Treasury', [300_000, 200_000, 100_000]);
    const gold = await o.exec('issueToken', {
      walletId: w,
      name: 'Gold',
      protocolId: 'KST-20',
      symbol: 'GOLD',
      tokenSupply: 100,
      satsPerToken: 1,
    });
    const shop = await o.exec('createWallet', { walletTitle: 'Shop' });
    const invoice = await o.exec('createInvoice', { walletId: shop.walletID, satoshis: 1_000 });
    const swept = PrivateKey.fromRandom();
    await o.exec('faucet', { address: swept.toAddress(), satoshis: 5_000 });
    const calls: [string, () => Promise<unknown>][] = [
      ['pay', () => o.exec('pay', { walletId: w, outputs: [{ script: TO_SCRIPT, satoshis: 1_000 }] })],
      ['send BSV', () => o.exec('send', { walletId: w, dataArray: [{ to: TO, satoshis: 1_000 }] })],
      ['send tokens', () => o.exec('send', { walletId: w, dataArray: [{ to: TO, amount: 5, tokenId: gold.tokenId }] })],
      [
        'issue',
        () => o.exec('issueToken', { walletId: w, name: 'Silver', protocolId: 'KST-20', symbol: 'SLV', tokenSupply: 10, satsPerToken: 1 }),
      ],
      ['redeem', () => o.exec('redeemToken', { walletId: w, dataArray: [{ tokenId: gold.tokenId, amount: 5 }] })],
      ['pay invoice', () => o.exec('payInvoice', { walletId: w, invoiceId: invoice.invoiceId })],
      ['post data', () => o.exec('post', { walletId: w, payload: 'hello' })],
      ['sweep', () => o.exec('drop', { walletId: w, privateKey: swept.toWif() })],
    ];
    // A limit: what leaves over 100 satoshis, or over 1 token, is refused; what moves nothing out is not over it.
    await o.setPolicy({
      rules: [
        { when: { amountOver: { satoshis: 100 } }, action: 'deny', reason: 'over the limit' },
        { when: { amountOver: { tokens: 1 } }, action: 'deny', reason: 'over the token limit' },
      ],
      default: { action: 'allow' },
    });
    for (const [what, call] of calls.filter(([w]) => ['pay', 'send BSV', 'send tokens', 'pay invoice'].includes(w))) {
      const before = attempts();
      const limited = await failure(call());
      assert.equal(limited.code, 'POLICY_DENIED', `${what}: ${limited.message}`);
      assert.match(limited.message, /over the (token )?limit/);
      assert.equal(attempts(), before, `${what}: nothing recorded`);
      assert.equal(reserved(), 0, `${what}: nothing reserved`);
    }
    await o.setPolicy({ rules: [], default: { action: 'deny', reason: 'frozen' } });
    for (const [what, call] of calls) {
      const before = attempts();
      const denied = await failure(call());
      assert.equal(denied.code, 'POLICY_DENIED', `${what}: ${denied.message}`);
      assert.match(denied.message, /frozen/);
      assert.equal(attempts(), before, `${what}: nothing recorded`);
      assert.equal(reserved(), 0, `${what}: nothing reserved`);
    }
    // Under an approval rule each waits and nothing moves; but an issue, the issuer's redemption and a sweep move
    // nothing out of the wallet (approvers review what leaves): they go ahead.
    await o.setPolicy({ rules: [], default: { action: 'approve', approvals: { count: 1, roles: ['manager'] } } });
    const waiting = new Map<string, string>();
    for (const [what, call] of calls) {
      const before = attempts();
      if (what === 'issue' || what === 'redeem' || what === 'sweep') {
        await call();
        continue;
      }
      const err = await failure(call().then((r) => assert.fail(`${what} went ahead: ${JSON.stringify(r)}`)));
      assert.equal(err.code, 'APPROVAL_REQUIRED', `${what}: ${err.message}`);
      waiting.set(what, err.details.approvalId as string);
      assert.equal(attempts(), before, `${what}: nothing recorded`);
    }
    const awaiting = (await o.exec('listApprovals', {}, o.manager1)).approvals;
    assert.equal(awaiting.length, calls.length - 3, 'all but issue, redeem and sweep wait');
    assert.deepEqual([...waiting.keys()], ['pay', 'send BSV', 'send tokens', 'pay invoice', 'post data']);
    // Carried out on approval, each as reviewed: a token send that merges first included.
    for (const [what, id] of waiting) {
      const done = await o.exec('approvePayment', { approvalId: id }, o.manager1);
      assert.equal(done.state, 'sent', `${what}: ${done.error}`);
    }
  });

  it('policy changes need another admin when there are two (four-eyes); every version is kept', async () => {
    t.engine.close();
    t = testEngine({ sessionTtlMs: 7 * 24 * 3600_000 }); // sessions outlive the day a new admin waits
    const o = await organisation(t);
    const v1 = await o.setPolicy({ rules: [], default: { action: 'deny', reason: 'one' } });
    assert.equal(v1.active.version, 1, 'a single admin changes it at once');
    assert.equal(v1.fourEyes, false);
    await o.exec('createUser', {
      email: 'ann@acme.io',
      password: 'pass-word-123',
      role: 'Admin',
      firstName: 'A',
      lastName: 'B',
      title: 'T',
    });
    const login = (await t.engine.execute('login', { email: 'ann@acme.io', password: 'pass-word-123' }, {}, meta)).output;
    const ada: Credentials = { authToken: login.token ?? login.authToken, serviceId: o.admin.serviceId };
    const v2 = await o.setPolicy({ rules: [], default: { action: 'allow' } });
    assert.equal(v2.fourEyes, true);
    assert.equal(v2.active.version, 1, 'not in force yet');
    assert.equal(v2.proposed.version, 2);
    await rejectsWith(o.exec('decidePolicy', { version: 2, decision: 'approve' }), 'FORBIDDEN', /four-eyes/);
    // Ann became an admin just now: she may not be made to approve at once.
    await rejectsWith(
      o.exec('decidePolicy', { version: 2, decision: 'approve' }, ada),
      'FORBIDDEN',
      /became an admin less than 24 hours ago: you may decide on policy changes from 2026-01-02T00:00:\d\d/,
    );
    t.clock.now += 24 * 3600_000;
    const decided = await o.exec('decidePolicy', { version: 2, decision: 'approve' }, ada);
    assert.equal(decided.active.version, 2);
    assert.deepEqual(
      decided.versions.map((v: { version: number; state: string }) => [v.version, v.state]),
      [
        [2, 'active'],
        [1, 'superseded'],
      ],
    );
    await rejectsWith(
      o.exec('proposePolicy', { document: { rules: [], default: { action: 'allow' } } }, o.manager1),
      'ROLE_FORBIDDEN',
      /Manager/,
    );
  });

  it('four-eyes cannot be got round: not by demoting or removing the other admin first, nor by a new admin', async () => {
    t.engine.close();
    t = testEngine({ sessionTtlMs: 7 * 24 * 3600_000 });
    const o = await organisation(t);
    const admin2 = async (email: string) => {
      const { uid } = await o.exec('createUser', {
        email,
        password: 'pass-word-123',
        role: 'Admin',
        firstName: 'A',
        lastName: 'B',
        title: 'T',
      });
      const login = (await t.engine.execute('login', { email, password: 'pass-word-123' }, {}, meta)).output;
      return { authToken: login.token ?? login.authToken, serviceId: o.admin.serviceId, uid };
    };
    const day = 24 * 3600_000;
    const allow: PolicyDocumentInput = { rules: [], default: { action: 'allow' } };
    for (const remove of ['demote', 'delete', 'leaves'] as const) {
      const honest = await admin2(`honest-${remove}@acme.io`);
      t.clock.now += day; // a seasoned admin
      assert.equal((await o.setPolicy(allow)).fourEyes, true);
      // The other admin is taken out of the way …
      if (remove === 'demote') await o.exec('updateUser', { userId: honest.uid, role: 'Manager' });
      else if (remove === 'delete') await o.exec('deleteUser', { userId: honest.uid });
      else await o.exec('deleteAccount', {}, honest);
      // … yet a change still waits for another admin, for a day.
      const proposed = await o.setPolicy({ rules: [], default: { action: 'deny', reason: `after ${remove}` } });
      assert.equal(proposed.fourEyes, true, remove);
      assert.equal(proposed.proposed?.document.default.reason, `after ${remove}`, `${remove}: proposed, not in force`);
      // A new admin made to approve it cannot yet.
      const puppet = await admin2(`puppet-${remove}@acme.io`);
      await rejectsWith(
        o.exec('decidePolicy', { version: proposed.proposed!.version, decision: 'approve' }, puppet),
        'FORBIDDEN',
        /less than 24 hours/,
      );
      await o.exec('decidePolicy', { version: proposed.proposed!.version, decision: 'reject' }, o.admin).catch(() => undefined);
      await o.exec('deleteUser', { userId: puppet.uid });
      t.clock.now += day + 1;
    }
    // A day after the last admin left, the one admin changes the policy alone again.
    const alone = await o.setPolicy({ rules: [], default: { action: 'deny', reason: 'alone' } });
    assert.equal(alone.fourEyes, false);
    assert.equal(alone.active?.document.default.reason, 'alone');
  });

  it('the review names the rule before confirming (previewPolicy), and a value limit needs a rate', async () => {
    const o = await organisation(t);
    const w = await o.wallet(o.operator, 'Ops', [50_000]);
    await o.setPolicy({
      rules: [
        {
          when: { initiator: { roles: ['operator'] }, amountOver: { satoshis: 10_000_000 } },
          action: 'approve',
          approvals: { count: 2, roles: ['manager'] },
        },
      ],
      default: { action: 'allow' },
    });
    const preview = await o.exec('previewPolicy', { walletId: w, outputs: [{ script: TO_SCRIPT, satoshis: 20_000_000 }] }, o.operator);
    assert.equal(preview.decision, 'approve');
    assert.equal(preview.approvalsNeeded, 2);
    assert.match(preview.words, /Operators: payments over 0\.1 BSV need 2 approvals from managers/);
    await o.setPolicy({
      rules: [{ when: { amountOver: { value: { currency: 'XYZ', amount: '10' } } }, action: 'deny', reason: 'x' }],
      default: { action: 'allow' },
    });
    await rejectsWith(
      o.exec('pay', { walletId: w, outputs: [{ script: TO_SCRIPT, satoshis: 1_000 }] }, o.operator),
      'RATE_UNAVAILABLE',
      /XYZ/,
    );
  });

  it('a paymail is resolved again on the last approval: fresh scripts for the same amounts are sent, other amounts are not', async () => {
    const receiver = await startReceiver('shop.test');
    try {
      t.engine.close();
      t = testEngine({ paymailHosts: { [receiver.domain]: receiver.url } });
      const o = await organisation(t);
      const w = await o.wallet(o.operator, 'Ops', [100_000]);
      await o.setPolicy({ rules: [], default: { action: 'approve', approvals: { count: 1, roles: ['manager'] } } });
      const ask = async () =>
        (await failure(o.exec('send', { walletId: w, dataArray: [{ to: receiver.paymail, satoshis: 12_000 }] }, o.operator))).details
          .approvalId as string;
      const honest = await ask();
      const fresh = PrivateKey.fromRandom().toAddress();
      receiver.destinations((satoshis) => [{ script: new P2PKH().lock(fresh).toHex(), satoshis }]);
      const sent = await o.exec('approvePayment', { approvalId: honest }, o.manager1);
      assert.equal(sent.state, 'sent', JSON.stringify(sent));
      assert.equal(sent.review.counterparty, receiver.paymail);

      const changed = await ask();
      receiver.destinations((satoshis) => [
        { script: new P2PKH().lock(fresh).toHex(), satoshis: satoshis / 2 },
        { script: new P2PKH().lock(PrivateKey.fromRandom().toAddress()).toHex(), satoshis: satoshis / 2 },
      ]);
      const before = attempts();
      // The first payment went to the receiver, which never broadcasts: its coin stays held until it settles.
      const held = reserved();
      const failed = await o.exec('approvePayment', { approvalId: changed }, o.manager1);
      assert.equal(failed.state, 'failed');
      assert.match(failed.error, /now asks for other outputs than the ones approved; nothing was sent/);
      assert.equal(attempts(), before, 'nothing was recorded');
      assert.equal(reserved(), held, 'nothing more is held');
    } finally {
      await receiver.close();
    }
  });

  it("a secure wallet's approved payment waits for its initiator's password; a wrong one leaves it approved", async () => {
    const o = await organisation(t);
    const vault = await o.exec('createWallet', { walletTitle: 'Vault', type: 'secure', walletPassword: 'vault-pass-1' }, o.operator);
    const { address } = await o.exec('walletAddress', { walletId: vault.walletID }, o.operator);
    await o.exec('faucet', { address, satoshis: 50_000 });
    await o.setPolicy({ rules: [], default: { action: 'approve', approvals: { count: 1, roles: ['manager'] } } });
    const err = await failure(
      o.exec(
        'pay',
        { walletId: vault.walletID, walletPassword: 'vault-pass-1', outputs: [{ script: TO_SCRIPT, satoshis: 9_000 }] },
        o.operator,
      ),
    );
    const id = err.details.approvalId as string;
    const row = createRepos(t.store.db).approvals.byId(id)!;
    assert.doesNotMatch(row.input, /vault-pass-1/, 'the wallet password is never stored with the request');
    const approved = await o.exec('approvePayment', { approvalId: id }, o.manager1);
    assert.equal(approved.state, 'approved', 'waits for the password');
    await rejectsWith(
      o.exec('sendApproved', { approvalId: id, walletPassword: 'vault-pass-1' }, o.manager1),
      'FORBIDDEN',
      /Only who asked/,
    );
    await rejectsWith(
      o.exec('sendApproved', { approvalId: id, walletPassword: 'wrong-pass-1' }, o.operator),
      'WALLET_LOCKED',
      /not correct/,
    );
    assert.equal((await o.exec('getApproval', { approvalId: id }, o.operator)).state, 'approved');
    const sent = await o.exec('sendApproved', { approvalId: id, walletPassword: 'vault-pass-1' }, o.operator);
    assert.equal(sent.state, 'sent');
    assert.match(sent.txid, /^[0-9a-f]{64}$/);
  });
});
