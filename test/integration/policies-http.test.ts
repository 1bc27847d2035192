import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { P2PKH, PrivateKey } from '@bsv/sdk';
import { startHeadless } from '../helpers/headless.js';
import { request } from '../helpers/http.js';
import { createOrgWallet, orgCall, setUpOrg, type Org } from '../helpers/org.js';
import { tempDir } from '../helpers/tmp.js';

const TO_SCRIPT = new P2PKH().lock(PrivateKey.fromRandom().toAddress()).toHex();

/**
 * The policy over real HTTP: what a script sees. A payment sent for approval is a 202 with `status:
 * pending`, `code: APPROVAL_REQUIRED` and its id (never a 200 a script could take for "paid"); a refusal is
 * a 403 with the rule's reason; an approval by another person sends it.
 */
describe('payment policies over HTTP', () => {
  let o: Org;
  let w: string;
  let manager: Record<string, string>;

  before(async () => {
    o = await setUpOrg(await startHeadless({ dataDir: tempDir(), password: 'pw', args: ['--mine-interval', '0'] }));
    w = await createOrgWallet(o, { walletTitle: 'Treasury' });
    const funded = await orgCall(o, 'POST', '/chain/faucet', { body: { satoshis: 200_000 }, headers: { walletID: w } });
    assert.equal(funded.status, 200, JSON.stringify(funded.body));
    const created = await orgCall(o, 'POST', '/api/v1/createUser', {
      body: { email: 'mia@acme.io', password: 'pass-word-123', role: 'Manager', firstName: 'Mia', lastName: 'M', title: 'T' },
    });
    assert.ok(created.status === 200 || created.status === 201, JSON.stringify(created.body));
    const login = await request(o.host.url, 'POST', '/v1/auth', { body: { email: 'mia@acme.io', password: 'pass-word-123' } });
    manager = { authToken: login.body.data.token ?? login.body.data.authToken, serviceid: o.serviceid };
  });
  after(async () => {
    await o?.host.stop();
  });

  it('answers 202 pending with the approval id, lists it for the approver, and sends it on approval', async () => {
    const set = await orgCall(o, 'POST', '/api/v1/policies', {
      body: {
        document: {
          rules: [
            { when: { amountOver: { satoshis: 50_000 } }, action: 'deny', reason: 'Too large for one payment' },
            { when: { amountOver: { satoshis: 10_000 } }, action: 'approve', approvals: { count: 1, roles: ['manager'] } },
          ],
          default: { action: 'allow' },
        },
      },
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal(set.body.data.active.version, 1);

    const denied = await orgCall(o, 'POST', '/v1/pay', {
      headers: { walletID: w },
      body: { outputs: [{ script: TO_SCRIPT, satoshis: 60_000 }] },
    });
    assert.equal(denied.status, 403);
    assert.equal(denied.body.data.code, 'POLICY_DENIED');
    assert.match(denied.body.data.msg, /Too large for one payment/);

    const waiting = await orgCall(o, 'POST', '/v1/pay', {
      headers: { walletID: w },
      body: { outputs: [{ script: TO_SCRIPT, satoshis: 20_000 }] },
    });
    assert.equal(waiting.status, 202, JSON.stringify(waiting.body));
    assert.equal(waiting.body.statusCode, 202);
    assert.equal(waiting.body.data.status, 'pending');
    assert.equal(waiting.body.data.code, 'APPROVAL_REQUIRED');
    assert.equal(waiting.body.data.state, 'awaiting_approval');
    assert.equal(waiting.body.data.txid, undefined, 'no txid: nothing was sent');
    const id = waiting.body.data.approvalId as string;

    const listed = await request(o.host.url, 'GET', '/api/v1/approvals', { headers: manager });
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    assert.equal(listed.body.data.awaitingMyVote, 1);
    assert.equal(listed.body.data.approvals[0].approvalId, id);

    const approved = await request(o.host.url, 'POST', `/api/v1/approvals/${id}/approve`, { headers: manager, body: {} });
    assert.equal(approved.status, 200, JSON.stringify(approved.body));
    assert.equal(approved.body.data.state, 'sent');
    assert.match(approved.body.data.txid, /^[0-9a-f]{64}$/);

    const audit = await orgCall(o, 'GET', '/api/v1/audit');
    const actions = audit.body.data.entries.map((e: { action: string }) => e.action);
    assert.ok(actions.includes('approvePayment') && actions.includes('pay') && actions.includes('proposePolicy'), actions.join(','));
  });

  it('refuses a vote from someone the rule does not name, and unknown ids with 404', async () => {
    const r = await orgCall(o, 'POST', '/api/v1/approvals/apr_doesnotexist00/approve', { body: {} });
    assert.equal(r.status, 404);
    assert.equal(r.body.data.code, 'NOT_FOUND');
    const bad = await orgCall(o, 'POST', '/api/v1/approvals/not-an-id/approve', { body: {} });
    assert.equal(bad.status, 400);
  });
});
