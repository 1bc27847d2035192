import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LockingScript, P2PKH, PrivateKey, Transaction } from '@bsv/sdk';
import { ordP2pkhScript } from '../../main/chain/ordinal-envelope.js';
import { startHeadless } from '../helpers/headless.js';
import { request } from '../helpers/http.js';
import { createOrgWallet, orgCall, setUpOrg, type Org } from '../helpers/org.js';
import { tempDir } from '../helpers/tmp.js';
import { until } from '../helpers/until.js';

/**
 * The policy counts every asset in its own unit. A BSV-21 send moves units written in its inscriptions (its
 * outputs carry 1 satoshi each), and an inscription is one NFT: counted by satoshis, 500,000 units passed a
 * limit of 100 tokens as "1", and an inscription was never an NFT to a rule about NFTs.
 */

const pkhOf = (address: string) => Buffer.from(new P2PKH().lock(address).toBinary().slice(3, 23)).toString('hex');

describe('policy limits on BSV-21 units and inscriptions', () => {
  let o: Org;
  let w: string;
  let tokenId: string;
  let inscription: string;
  const outside = PrivateKey.fromRandom();
  const to = () => PrivateKey.fromRandom().toAddress();

  before(async () => {
    o = await setUpOrg(await startHeadless({ dataDir: tempDir(), password: 'pw', args: ['--mine-interval', '0'] }));
    w = await createOrgWallet(o, { walletTitle: 'Treasury' });
    const address = (await orgCall(o, 'GET', '/v1/address', { headers: { walletID: w } })).body.data.address as string;
    assert.equal((await orgCall(o, 'POST', '/chain/faucet', { body: { address, satoshis: 200_000 } })).status, 200);
    const deployed = await orgCall(o, 'POST', '/v1/bsv21/deploy', { headers: { walletID: w }, body: { sym: 'GEM', amt: '1000000' } });
    assert.equal(deployed.status, 200, JSON.stringify(deployed.body));
    tokenId = deployed.body.data.tokenId;
    // An inscription sent to the wallet from outside.
    const f = await orgCall(o, 'POST', '/chain/faucet', { body: { address: outside.toAddress(), satoshis: 20_000 } });
    const parent = Transaction.fromHex(
      (await request(o.host.url, 'GET', `/chain/woc/v1/bsv/local/tx/${f.body.data.txid}/hex`)).body as string,
    );
    const tx = new Transaction();
    tx.addInput({
      sourceTransaction: parent,
      sourceOutputIndex: parent.outputs.findIndex((x) => x.satoshis === 20_000),
      unlockingScriptTemplate: new P2PKH().unlock(outside),
    });
    tx.addOutput({
      lockingScript: LockingScript.fromHex(ordP2pkhScript(pkhOf(address), 'text/plain', Buffer.from('a deed'))),
      satoshis: 1,
    });
    tx.addOutput({ lockingScript: new P2PKH().lock(outside.toAddress()), change: true });
    await tx.fee(300);
    await tx.sign();
    assert.equal((await request(o.host.url, 'POST', '/chain/woc/v1/bsv/local/tx/raw', { body: { txhex: tx.toHex() } })).status, 200);
    inscription = `${tx.id('hex')}_0`;
    await until('the wallet lists the inscription', async () => {
      const l = await orgCall(o, 'GET', '/v1/ordinals', { headers: { walletID: w } });
      return l.body.data.inscriptions.some((i: { outpoint: string }) => i.outpoint === inscription) ? true : undefined;
    });
    const policy = await orgCall(o, 'POST', '/api/v1/policies', {
      body: {
        document: {
          rules: [
            { when: { assets: ['tokens'], amountOver: { tokens: 100 } }, action: 'deny', reason: 'at most 100 tokens at once' },
            {
              when: { assets: ['tokens'], window: { per: 'wallet', period: '24h', over: { tokens: 250 } } },
              action: 'deny',
              reason: '250 a day',
            },
            { when: { assets: ['nfts'] }, action: 'deny', reason: 'no NFT leaves' },
          ],
          default: { action: 'allow' },
        },
      },
    });
    assert.equal(policy.status, 200, JSON.stringify(policy.body));
  });
  after(() => o?.host.stop());

  const sendUnits = (amount: string) =>
    orgCall(o, 'POST', '/v1/bsv21/send', { headers: { walletID: w }, body: { tokenId, to: to(), amount } });
  const refused = (r: { status: number; body: { data: { code?: string; msg?: string } } }, reason: RegExp) => {
    assert.equal(r.status, 403, JSON.stringify(r.body));
    assert.equal(r.body.data.code, 'POLICY_DENIED');
    assert.match(r.body.data.msg ?? '', reason);
  };

  it('a BSV-21 send over the token limit is refused, however few satoshis it moves', async () => {
    refused(await sendUnits('500000'), /at most 100 tokens/);
    refused(await sendUnits('101'), /at most 100 tokens/);
  });

  it('sends within the limit pass, and the window adds up their units', async () => {
    for (const amount of ['100', '100']) {
      const r = await sendUnits(amount);
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
    refused(await sendUnits('60'), /250 a day/);
    const ok = await sendUnits('50');
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
  });

  it('an inscription is an NFT: a rule that no NFT leaves refuses it', async () => {
    const r = await orgCall(o, 'POST', '/v1/ordinals/send', { headers: { walletID: w }, body: { outpoint: inscription, to: to() } });
    refused(r, /no NFT leaves/);
  });
});
