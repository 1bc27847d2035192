import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { P2PKH, PrivateKey } from '@bsv/sdk';
import { base32Decode, totp } from '../../main/engine/auth/totp.js';
import { keystead } from '../helpers/cli.js';
import { startHeadless } from '../helpers/headless.js';
import { request } from '../helpers/http.js';
import { orgCall, setUpOrg, type Org } from '../helpers/org.js';
import { tempDir } from '../helpers/tmp.js';

/**
 * `keystead approvals | approve | reject` against a running Keystead: a policy needing one manager's approval
 * for payments over 10,000 sat, an operator's payments waiting (202, over the API and the CLI), a manager's
 * votes from the CLI sending one and rejecting another.
 */
describe('the CLI for payments awaiting approval', () => {
  let org: Org;
  const as: Record<'manager' | 'operator', Record<string, string>> = { manager: {}, operator: {} };
  const env: Record<'manager' | 'operator', Record<string, string>> = { manager: {}, operator: {} };
  let walletId: string;

  before(async () => {
    org = await setUpOrg(await startHeadless({ dataDir: tempDir(), password: 'pw', args: ['--mine-interval', '0'] }));
    for (const role of ['manager', 'operator'] as const) {
      const email = `${role}@acme.io`;
      const made = await orgCall(org, 'POST', '/api/v1/createUser', { body: { email, password: 'role-password-1', role } });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      const s = await request(org.host.url, 'POST', '/api/v1/login', { body: { email, password: 'role-password-1' } });
      as[role] = { authToken: s.body.data.authToken, serviceid: org.serviceid };
      env[role] = { KEYSTEAD_URL: org.host.url, KEYSTEAD_TOKEN: s.body.data.authToken };
    }
    const w = await request(org.host.url, 'POST', '/v1/createWallet', { headers: as.operator, body: { walletTitle: 'Ops' } });
    assert.equal(w.status, 200, JSON.stringify(w.body));
    walletId = w.body.data.walletID;
    const a = await request(org.host.url, 'GET', '/v1/address', { headers: { ...as.operator, walletID: walletId } });
    const funded = await orgCall(org, 'POST', '/chain/faucet', { body: { address: a.body.data.address, satoshis: 200_000 } });
    assert.equal(funded.status, 200, JSON.stringify(funded.body));
    const policy = await orgCall(org, 'POST', '/api/v1/policies', {
      body: {
        document: {
          rules: [{ when: { amountOver: { satoshis: 10_000 } }, action: 'approve', approvals: { count: 1, roles: ['manager'] } }],
          default: { action: 'allow' },
        },
      },
    });
    assert.equal(policy.status, 200, JSON.stringify(policy.body));
    assert.equal(policy.body.data.active.state, 'active', 'one admin: in force at once');
  });
  after(() => org.host.stop());

  /** An operator's payment over the limit, over the API: 202 with its approval id. */
  async function payOverLimit(satoshis: number): Promise<string> {
    const script = new P2PKH().lock(PrivateKey.fromRandom().toAddress()).toHex();
    const r = await request(org.host.url, 'POST', '/v1/pay', {
      headers: { ...as.operator, walletID: walletId },
      body: { outputs: [{ script, satoshis }] },
    });
    assert.equal(r.status, 202, JSON.stringify(r.body));
    assert.deepEqual([r.body.data.status, r.body.data.code], ['pending', 'APPROVAL_REQUIRED']);
    assert.match(r.body.data.approvalId, /^apr_/);
    return r.body.data.approvalId;
  }

  it('lists a waiting payment and sends it on a manager’s approval; the initiator’s own vote is refused', async () => {
    const id = await payOverLimit(30_000);
    const listed = await keystead(['approvals'], env.manager);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, new RegExp(`${id}\\s+awaiting approval\\s+\\(awaiting your vote\\)`));
    assert.match(listed.stdout, /0\.0003 BSV \(30,000 sat\) from Ops/);
    assert.match(listed.stdout, /by operator@acme\.io/);
    assert.match(listed.stdout, /votes 0\/1/);
    assert.match(listed.stdout, /1 awaiting your vote\./);
    const json = JSON.parse((await keystead(['approvals', '--json'], env.manager)).stdout);
    assert.deepEqual(
      json.approvals.map((a: { approvalId: string; canVote: boolean }) => [a.approvalId, a.canVote]),
      [[id, true]],
    );

    const own = await keystead(['approve', id], env.operator);
    assert.equal(own.code, 1);
    assert.match(own.stderr, /your own approval does not count.*FORBIDDEN/);

    const approved = await keystead(['approve', id], env.manager);
    assert.equal(approved.code, 0, approved.stderr);
    const txid = approved.stdout.trim();
    assert.match(txid, /^[0-9a-f]{64}$/);
    const read = await request(org.host.url, 'GET', `/api/v1/approvals/${id}`, { headers: as.operator });
    assert.deepEqual([read.body.data.state, read.body.data.txid], ['sent', txid]);
    const again = await keystead(['approve', id], env.manager);
    assert.equal(again.code, 1, 'a decided payment takes no more votes');
  });

  it('pay from the CLI waits (exit 4, its id printed); reject ends it with nothing moved', async () => {
    const to = PrivateKey.fromRandom().toAddress();
    const paid = await keystead(['pay', to, '--sats', '25000', '--wallet', walletId, '--yes'], env.operator);
    assert.equal(paid.code, 4, paid.stderr);
    assert.match(paid.stderr, /Awaiting approval: This payment needs 1 approval/);
    const id = paid.stdout.trim();
    assert.match(id, /^apr_/);

    const rejected = await keystead(['reject', id, '--reason', 'not this month'], env.manager);
    assert.equal(rejected.code, 0, rejected.stderr);
    assert.match(rejected.stdout, new RegExp(`Rejected ${id}: nothing moves`));
    const all = JSON.parse((await keystead(['approvals', '--all', '--json'], env.operator)).stdout);
    const mine = all.approvals.find((a: { approvalId: string }) => a.approvalId === id);
    assert.deepEqual([mine.state, mine.txid, mine.error], ['rejected', null, 'Rejected: not this month']);
    const waiting = await keystead(['approvals'], env.manager);
    assert.match(waiting.stdout, /No payments are awaiting approval\.\n0 awaiting your vote\./);
  });

  it('a manager with two-step sign-in approves with --otp; without it the API asks for the code', async () => {
    const email = 'mona@acme.io';
    await orgCall(org, 'POST', '/api/v1/createUser', { body: { email, password: 'role-password-1', role: 'manager' } });
    const authToken = (await request(org.host.url, 'POST', '/api/v1/login', { body: { email, password: 'role-password-1' } })).body.data
      .authToken;
    const start = await request(org.host.url, 'POST', '/api/v1/twoStep/start', { headers: { authToken } });
    const secret = start.body.data.secret as string;
    const code = (steps: number) => totp(base32Decode(secret), Date.now() + steps * 30_000);
    const confirmed = await request(org.host.url, 'POST', '/api/v1/twoStep/confirm', { headers: { authToken }, body: { otp: code(0) } });
    assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
    const mona = { KEYSTEAD_URL: org.host.url, KEYSTEAD_TOKEN: authToken };

    const id = await payOverLimit(20_000);
    const bare = await keystead(['approve', id], mona);
    assert.equal(bare.code, 1);
    assert.match(bare.stderr, /OTP_REQUIRED/);
    // The current step's code was spent on enrolment; the next one is still accepted (and only once).
    const approved = await keystead(['approve', id, '--otp', code(1), '--json'], mona);
    assert.equal(approved.code, 0, approved.stderr);
    const out = JSON.parse(approved.stdout);
    assert.equal(out.state, 'sent');
    assert.match(out.txid, /^[0-9a-f]{64}$/);
    assert.deepEqual(
      out.votes.map((v: { email: string; vote: string }) => [v.email, v.vote]),
      [[email, 'approve']],
    );
  });

  it('says what is wrong with the usage', async () => {
    const noId = await keystead(['approve'], env.manager);
    assert.deepEqual([noId.code, /approve needs one approval id/.test(noId.stderr)], [2, true]);
    const badState = await keystead(['approvals', '--state', 'pending'], env.manager);
    assert.deepEqual([badState.code, /--state must be one of/.test(badState.stderr)], [2, true]);
    const unknown = await keystead(['reject', 'apr_nothing-here-at-all'], env.manager);
    assert.deepEqual([unknown.code, /NOT_FOUND/.test(unknown.stderr)], [1, true]);
    const help = await keystead(['help', 'reject'], {});
    assert.match(help.stdout, /--reason <text>/);
    assert.match((await keystead(['--help'], {})).stdout, /approve <approvalId> \[--otp <code>\]/);
  });
});
