import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PrivateKey } from '@bsv/sdk';
import { startHeadless } from '../helpers/headless.js';
import { createOrgWallet, orgCall, setUpOrg, type Org } from '../helpers/org.js';
import { tempDir } from '../helpers/tmp.js';
import { keystead } from '../helpers/cli.js';

/** `keystead balance | history | pay` against a running instance, with the token from the environment. */
describe('the CLI against a running Keystead', () => {
  let org: Org;
  let env: Record<string, string>;
  let walletID: string;

  before(async () => {
    org = await setUpOrg(await startHeadless({ dataDir: tempDir(), password: 'pw', args: ['--mine-interval', '0'] }));
    walletID = await createOrgWallet(org, { walletTitle: 'Ops' });
    await orgCall(org, 'POST', '/chain/faucet', { body: { walletId: walletID, satoshis: 100_000 } });
    env = { KEYSTEAD_URL: org.host.url, KEYSTEAD_TOKEN: org.auth.authToken };
  });
  after(() => org.host.stop());

  it('balance lists the wallets, as text and JSON', async () => {
    const text = await keystead(['balance'], env);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /Ops\s+0\.001 BSV/);
    const json = await keystead(['balance', '--wallet', walletID, '--json'], env);
    assert.deepEqual(JSON.parse(json.stdout).wallets, [{ walletID, walletTitle: 'Ops', confirmed: 0, unconfirmed: 100_000 }]);
  });

  it('pay shows the review and pays only with --yes, once per idempotency key; history shows it', async () => {
    const to = PrivateKey.fromRandom().toAddress();
    const dry = await keystead(['pay', to, '--amount', '0.0002', '--wallet', walletID], env);
    assert.equal(dry.code, 1);
    assert.match(dry.stderr, new RegExp(`To\\s+${to}\\s+0\\.0002 BSV \\(20,000 sat\\)`));
    assert.match(dry.stderr, /not paid: add --yes/);
    const paid = await keystead(['pay', to, '--sats', '20000', '--wallet', walletID, '--idempotency-key', 'invoice-77', '--yes'], env);
    assert.equal(paid.code, 0, paid.stderr);
    const txid = paid.stdout.trim();
    assert.match(txid, /^[0-9a-f]{64}$/);
    const again = await keystead(
      ['pay', to, '--sats', '20000', '--wallet', walletID, '--idempotency-key', 'invoice-77', '--yes', '--json'],
      env,
    );
    assert.equal(JSON.parse(again.stdout).txid, txid, 'the same key pays once');
    const h = await keystead(['history', '--wallet', walletID, '--json'], env);
    const rows = JSON.parse(h.stdout).history;
    assert.equal(rows.filter((r: { txid: string }) => r.txid === txid).length, 1);
    const text = await keystead(['history', '--wallet', walletID], env);
    assert.match(text.stdout, new RegExp(`out\\s+-0\\.0002\\d* BSV fee \\d+ sat\\s+${txid}`));
  });

  it('history shows the tokens a transfer moved, signed, beside its BSV fee', async () => {
    const issued = await orgCall(org, 'POST', '/api/v1/issue', {
      headers: { walletID },
      body: { name: 'Vouchers', protocolId: 'KST-20', symbol: 'VCH', tokenSupply: 50, satsPerToken: 1 },
    });
    assert.equal(issued.status, 200, JSON.stringify(issued.body));
    const to = PrivateKey.fromRandom().toAddress();
    const sent = await orgCall(org, 'POST', '/v1/send', {
      headers: { walletID },
      body: { dataArray: [{ to, amount: 7, tokenId: issued.body.data.tokenId }] },
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const txid = sent.body.data.txIds[0];
    const text = await keystead(['history', '--wallet', walletID], env);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, new RegExp(`out\\s+-0\\.\\d+ BSV fee \\d+ sat  -7 VCH  ${txid}  ${to}`));
  });

  it('says what is wrong: half a satoshi, no credentials, a refused token, nothing listening', async () => {
    const half = await keystead(['pay', 'x', '--amount', '0.000000005'], env);
    assert.deepEqual([half.code, /whole number of satoshis/.test(half.stderr)], [2, true]);
    const none = await keystead(['balance'], { KEYSTEAD_URL: org.host.url });
    assert.deepEqual([none.code, /KEYSTEAD_TOKEN/.test(none.stderr)], [2, true]);
    const bad = await keystead(['balance'], { ...env, KEYSTEAD_TOKEN: 'kst_forged' });
    assert.deepEqual([bad.code, /not valid.*INVALID_CREDENTIALS/.test(bad.stderr)], [1, true]);
    const gone = await keystead(['balance', '--url', 'http://127.0.0.1:9'], env);
    assert.deepEqual([gone.code, /cannot reach Keystead/.test(gone.stderr)], [3, true]);
    const help = await keystead(['help', 'pay'], {});
    assert.match(help.stdout, /--idempotency-key/);
  });
});
