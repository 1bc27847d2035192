import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HTTPWalletJSON, P2PKH, PrivateKey, WalletClient, WERR_INVALID_PARAMETER } from '@bsv/sdk';
import { startHeadless } from '../helpers/headless.js';
import { ADMIN, request } from '../helpers/http.js';
import { createOrgWallet, orgCall, setUpOrg, type Org } from '../helpers/org.js';
import { tempDir } from '../helpers/tmp.js';
import { messageOf } from '../helpers/brc100.js';

/**
 * Money safety of BRC-100 actions, driven by @bsv/sdk's WalletClient against a headless Keystead on its local
 * chain: a noSend action is never sent unasked (not even by the settlement after a restart), the same noSend
 * change is never spent by two actions, and an action the organisation's approvers approved is an allowance
 * the app uses once by asking for the same action again.
 */
const payee = () => new P2PKH().lock(PrivateKey.fromRandom().toAddress()).toHex();

describe('BRC-100 actions: noSend across restarts, noSendChange, approvals', () => {
  let org: Org;
  let base: string;
  let walletId: string;
  let manager: Record<string, string>;

  const client = () => new WalletClient(new HTTPWalletJSON('safe.example', base), 'safe.example');
  const seenByChain = async (txid: string) =>
    /SEEN_ON_NETWORK|MINED/.test(
      ((await request(org.host.url, 'GET', `/chain/arc/v1/tx/${txid}`)).body as { txStatus?: string }).txStatus ?? '',
    );

  const dataDir = tempDir();
  const ARGS = ['--brc100-listen', '127.0.0.1:0', '--mine-interval', '0', '--brc100-wait', '2'];

  const restart = async () => {
    await org.host.stop();
    // The host answers only once its start is done: the books scanned and open payments settled (engine.ready).
    const host = await startHeadless({ dataDir, password: 'pw', args: ARGS });
    const login = await request(host.url, 'POST', '/v1/auth', { body: { email: ADMIN.email, password: ADMIN.password } });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    org = { host, auth: { authToken: login.body.data.token ?? login.body.data.authToken }, serviceid: org.serviceid };
    base = `http://${(await orgCall(org, 'GET', '/api/v1/apps')).body.data.listening}`;
    const again = await request(host.url, 'POST', '/v1/auth', { body: { email: 'max@acme.io', password: 'pass-word-123' } });
    manager = { authToken: again.body.data.token ?? again.body.data.authToken, serviceid: org.serviceid };
  };

  before(async () => {
    const host = await startHeadless({ dataDir, password: 'pw', args: ARGS });
    org = await setUpOrg(host);
    walletId = await createOrgWallet(org, { walletTitle: 'Apps' });
    for (const satoshis of [200_000, 100_000]) {
      const r = await orgCall(org, 'POST', '/chain/faucet', { body: { satoshis }, headers: { walletID: walletId } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
    base = `http://${(await orgCall(org, 'GET', '/api/v1/apps')).body.data.listening}`;
    const allowed = await orgCall(org, 'POST', '/api/v1/apps/decide', { body: { originator: 'safe.example', allow: true, walletId } });
    assert.equal(allowed.status, 200, JSON.stringify(allowed.body));
    const limit = await orgCall(org, 'PUT', '/api/v1/apps/spending-limit', {
      body: { originator: 'safe.example', limit: { satoshis: 1_000_000 } },
    });
    assert.equal(limit.status, 200, JSON.stringify(limit.body));
    const created = await orgCall(org, 'POST', '/api/v1/createUser', {
      body: { email: 'max@acme.io', password: 'pass-word-123', role: 'Manager', firstName: 'Max', lastName: 'M', title: 'T' },
    });
    assert.ok(created.status === 200 || created.status === 201, JSON.stringify(created.body));
    const login = await request(org.host.url, 'POST', '/v1/auth', { body: { email: 'max@acme.io', password: 'pass-word-123' } });
    manager = { authToken: login.body.data.token ?? login.body.data.authToken, serviceid: org.serviceid };
  });
  after(() => org?.host.stop());

  it('never sends a noSend action after a restart: it waits for sendWith, or abortAction gives its coins back', async () => {
    let app = client();
    const kept = await app.createAction({
      description: 'send it later',
      outputs: [{ lockingScript: payee(), satoshis: 900, outputDescription: 'a payee' }],
      options: { noSend: true },
    });
    const dropped = await app.createAction({
      description: 'maybe never',
      outputs: [{ lockingScript: payee(), satoshis: 1_100, outputDescription: 'another payee' }],
      options: { noSend: true },
    });
    assert.equal(await seenByChain(kept.txid!), false);

    // The start settles every open payment (and checks the books against the chain) before it answers.
    await restart();
    app = client();
    assert.equal(await seenByChain(kept.txid!), false, 'the settlement after the restart must not send a noSend action');
    assert.equal(await seenByChain(dropped.txid!), false, 'the settlement after the restart must not send a noSend action');

    // Its coins stayed reserved for it: sent now, the chain takes it.
    const sent = await app.createAction({ description: 'send the kept one', options: { sendWith: [kept.txid!] } });
    assert.deepEqual(sent.sendWithResults, [{ txid: kept.txid, status: 'unproven' }]);
    assert.equal(await seenByChain(kept.txid!), true);

    // Aborted after the restart: never sent, and it cannot be sent any more.
    assert.deepEqual(await app.abortAction({ reference: dropped.txid! }), { aborted: true });
    await assert.rejects(
      app.createAction({ description: 'send the aborted one', options: { sendWith: [dropped.txid!] } }),
      (e) => e instanceof WERR_INVALID_PARAMETER && e.parameter === 'sendWith',
    );
    assert.equal(await seenByChain(dropped.txid!), false);
  });

  it('reserves noSendChange: a second action naming the same change is refused until the first is aborted', async () => {
    const app = client();
    const first = await app.createAction({
      description: 'makes change',
      outputs: [{ lockingScript: payee(), satoshis: 700, outputDescription: 'first payee' }],
      options: { noSend: true },
    });
    assert.equal(first.noSendChange?.length, 1);
    const spend = (description: string) =>
      app.createAction({
        description,
        outputs: [{ lockingScript: payee(), satoshis: 800, outputDescription: 'a payee' }],
        options: { noSend: true, noSendChange: first.noSendChange },
      });
    const second = await spend('spends the change');
    await assert.rejects(
      spend('spends the same change again'),
      (e) => e instanceof WERR_INVALID_PARAMETER && e.parameter === 'noSendChange' && /spent by the action/.test(messageOf(e)),
    );
    // Naming it twice in one action is refused too.
    await assert.rejects(
      app.createAction({
        description: 'names it twice',
        outputs: [{ lockingScript: payee(), satoshis: 800, outputDescription: 'a payee' }],
        options: { noSend: true, noSendChange: [first.noSendChange![0], first.noSendChange![0]] },
      }),
      (e) => e instanceof WERR_INVALID_PARAMETER && e.parameter === 'noSendChange',
    );
    // The action that took it is aborted: the change is free for another.
    assert.deepEqual(await app.abortAction({ reference: second.txid! }), { aborted: true });
    const third = await spend('spends the change after all');
    const sent = await app.createAction({ description: 'send both', options: { sendWith: [first.txid!, third.txid!] } });
    assert.deepEqual(sent.sendWithResults, [
      { txid: first.txid, status: 'unproven' },
      { txid: third.txid, status: 'unproven' },
    ]);
    assert.equal(await seenByChain(third.txid!), true);
  });

  it('reserves noSendChange for an action left for signAction, which the wallet then signs with it', async () => {
    const app = client();
    const first = await app.createAction({
      description: 'makes change to sign with',
      outputs: [{ lockingScript: payee(), satoshis: 600, outputDescription: 'first payee' }],
      options: { noSend: true },
    });
    const later = {
      description: 'signed later',
      outputs: [{ lockingScript: payee(), satoshis: 650, outputDescription: 'a payee' }],
      options: { noSend: true, signAndProcess: false, noSendChange: first.noSendChange },
    };
    const started = await app.createAction(later);
    assert.ok(started.signableTransaction, 'signAndProcess false leaves it for signAction');
    await assert.rejects(app.createAction(later), (e) => e instanceof WERR_INVALID_PARAMETER && e.parameter === 'noSendChange');
    const signed = await app.signAction({ reference: started.signableTransaction.reference, spends: {}, options: { noSend: true } });
    assert.match(signed.txid ?? '', /^[0-9a-f]{64}$/);
    const sent = await app.createAction({ description: 'send both', options: { sendWith: [first.txid!, signed.txid!] } });
    assert.deepEqual(sent.sendWithResults, [
      { txid: first.txid, status: 'unproven' },
      { txid: signed.txid, status: 'unproven' },
    ]);
  });

  it('an approved action is an allowance: the same action passes once, another output or a third time needs approval', async () => {
    const set = await orgCall(org, 'POST', '/api/v1/policies', {
      body: {
        document: {
          rules: [{ when: { amountOver: { satoshis: 10_000 } }, action: 'approve', approvals: { count: 1, roles: ['manager'] } }],
          default: { action: 'allow' },
        },
      },
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    const app = client();
    const script = payee();
    const big = (lockingScript = script) =>
      app.createAction({
        description: 'a large purchase',
        outputs: [{ lockingScript, satoshis: 20_000, outputDescription: 'the supplier' }],
      });
    const awaiting = async (p: Promise<unknown>): Promise<string> => {
      let id = '';
      await assert.rejects(p, (e) => {
        const m = /awaits approval by the organisation \((apr_[A-Za-z0-9_-]+)\)/.exec(messageOf(e));
        id = m?.[1] ?? '';
        return /WERR_UNAUTHORIZED/.test((e as Error).message + String((e as { name?: string }).name)) || id !== '';
      });
      assert.match(id, /^apr_/, 'the answer names the approval');
      return id;
    };

    const id = await awaiting(big());
    const listed = await request(org.host.url, 'GET', `/api/v1/approvals/${id}`, { headers: manager });
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    assert.equal(listed.body.data.review.operation, 'brc100.createAction');
    assert.match(listed.body.data.review.memo, /^safe\.example: a large purchase/);

    const approved = await request(org.host.url, 'POST', `/api/v1/approvals/${id}/approve`, { headers: manager, body: {} });
    assert.equal(approved.status, 200, JSON.stringify(approved.body));
    assert.equal(approved.body.data.state, 'approved', 'approved and waiting for the app: nothing ran, nothing failed');
    assert.equal(approved.body.data.error, null);

    // Another output is not what the approvers reviewed.
    const other = await awaiting(big(payee()));
    assert.notEqual(other, id);

    const done = await big();
    assert.match(done.txid ?? '', /^[0-9a-f]{64}$/);
    assert.equal(await seenByChain(done.txid!), true);
    const after = await request(org.host.url, 'GET', `/api/v1/approvals/${id}`, { headers: manager });
    assert.equal(after.body.data.state, 'sent');
    assert.equal(after.body.data.txid, done.txid);

    // Used once: the same action again needs a new approval.
    const third = await awaiting(big());
    assert.notEqual(third, id);

    // Approved, then its approver is demoted before the app asks again: the vote lapses, the allowance waits
    // again for an approval, and the app's call is judged anew.
    const again = await request(org.host.url, 'POST', `/api/v1/approvals/${third}/approve`, { headers: manager, body: {} });
    assert.equal(again.body.data.state, 'approved');
    const me = await request(org.host.url, 'GET', '/api/v1/me', { headers: manager });
    const demoted = await orgCall(org, 'POST', '/api/v1/updateUser', { body: { userId: me.body.data.uid, role: 'Viewer' } });
    assert.equal(demoted.status, 200, JSON.stringify(demoted.body));
    const fourth = await awaiting(big());
    assert.notEqual(fourth, third);
    assert.equal((await orgCall(org, 'GET', `/api/v1/approvals/${third}`)).body.data.state, 'awaiting_approval');

    const open = await orgCall(org, 'POST', '/api/v1/policies', { body: { document: { rules: [], default: { action: 'allow' } } } });
    assert.equal(open.status, 200, JSON.stringify(open.body));
  });
});
