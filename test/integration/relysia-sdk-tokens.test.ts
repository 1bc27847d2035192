import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startHeadless, type Headless } from '../helpers/headless.js';
import { ADMIN, request } from '../helpers/http.js';
import { orgCall, setUpOrg, type Org } from '../helpers/org.js';
import { createRelysia, refusal, type Relysia } from '../helpers/relysia-sdk.js';
import { tempDir } from '../helpers/tmp.js';

/**
 * The public service's SDK, unchanged but for its base URL: feeManager.v1 and contracts.v1. These are
 * enterprise operations: on their /v1 paths (as the SDK calls them) the organisation comes from the
 * credential, so no serviceId is needed; the /api/v1 forms still require it.
 */

const DEFAULT_WALLET = '0000-00000000-00000';
const FEE_PHRASE = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

describe('the RelysiaSDK against Keystead: fee manager and tokens', () => {
  let host: Headless;
  let org: Org;
  let relysia: Relysia;
  let token: string;
  let tokenId: string;

  before(async () => {
    host = await startHeadless({ dataDir: tempDir(), password: 'pw', args: ['--mine-interval', '0'] });
    org = await setUpOrg(host);
    relysia = createRelysia(host.url, {});
    token = (await relysia.authentication.v1.auth({ email: ADMIN.email, password: ADMIN.password })).token;
    assert.equal((await relysia.wallet.v1.createWallet()).walletID, DEFAULT_WALLET);
    const f = await orgCall(org, 'POST', '/chain/faucet', { body: { walletId: DEFAULT_WALLET, satoshis: 300_000 } });
    assert.equal(f.status, 200, JSON.stringify(f.body));
  });
  after(() => host?.stop());

  it('feeManager.v1.initBeta (header mnemonic, no serviceId): creates the fee wallet', async () => {
    const d = await relysia.feeManager.v1.initBeta({ mnemonic: FEE_PHRASE });
    const wire = relysia.sent.at(-1)!;
    assert.deepEqual([wire.method, wire.url, 'serviceId' in wire.headers], ['GET', `${host.url}/v1/initBeta`, false]);
    assert.equal(typeof d.walletID, 'string', JSON.stringify(d));
    assert.match(d.address, /^1[1-9A-HJ-NP-Za-km-z]{25,34}$/);
  });

  it('feeManager.v1.feeAddressBeta, feeMetricesBeta (its spelling) and feeUtxoState', async () => {
    const a = await relysia.feeManager.v1.feeAddressBeta();
    assert.equal(a.addresses.length, 20);
    const f = await orgCall(org, 'POST', '/chain/faucet', { body: { address: a.addresses[0], satoshis: 50_000 } });
    assert.equal(f.status, 200, JSON.stringify(f.body));

    const m = await relysia.feeManager.v1.feeMetricesBeta();
    assert.equal(relysia.sent.at(-1)!.url, `${host.url}/v1/feeMetricesBeta`);
    assert.equal(m.totalBalance.balance, 50_000, JSON.stringify(m));
    assert.equal(m.availableUtxos.length, 1);
    assert.equal(m.availableUtxos[0].value, 50_000);

    const s = await relysia.feeManager.v1.feeUtxoState();
    assert.equal(relysia.sent.at(-1)!.url, `${host.url}/v1/feeUtxoState`);
    assert.equal(s.totalBalance.availableBalance, 50_000, JSON.stringify(s));
    assert.equal(s.allUtxos.availableUtxos.length, 1);
    assert.deepEqual(s.allUtxos.failedUtxos, []);
  });

  it('contracts.v1.issue (headers protocol, no serviceId): issues from the default wallet', async () => {
    const d = await relysia.contracts.v1.issue({
      protocol: 'STAS',
      data: {
        name: 'Acme Points',
        protocolId: 'KST-20',
        symbol: 'PTS',
        description: 'Loyalty points',
        image: 'https://acme.test/pts.png',
        tokenSupply: 10_000,
        decimals: 0,
        satsPerToken: 1,
        properties: { issuer: { organisation: 'Acme Ltd', email: ADMIN.email } },
      },
    });
    assert.equal(relysia.sent.at(-1)!.headers.protocol, 'STAS');
    assert.match(d.tokenId, /^[0-9a-f]{40}-PTS$/, JSON.stringify(d));
    assert.equal(d.tokenObj.symbol, 'PTS');
    tokenId = d.tokenId;
    for (const txid of [d.contractTxid ?? d.tokenObj.contractTxid, d.issueTxid ?? d.tokenObj.issueTxid])
      assert.equal((await request(host.url, 'GET', `/chain/woc/v1/bsv/local/tx/${txid}/hex`)).status, 200, txid);
  });

  it('contracts.v1.tokenDetails: GET /v1/token/{id} with authToken only', async () => {
    const d = await relysia.contracts.v1.tokenDetails({ id: tokenId });
    assert.deepEqual(Object.keys(relysia.sent.at(-1)!.headers).sort(), ['Accept', 'Content-Type', 'User-Agent', 'authToken'].sort());
    assert.deepEqual([d.tokenId, d.symbol, d.circulatingSupply], [tokenId, 'PTS', 10_000]);
    const missing = await refusal(relysia.contracts.v1.tokenDetails({ id: `${'0'.repeat(40)}-NOPE` }), 404);
    assert.equal(typeof missing.code, 'string');
  });

  it('wallet.v1.balance lists the token; contracts.v1.redeem (no walletId: the default wallet) lowers the circulating supply', async () => {
    const held = (await relysia.wallet.v1.balance()).coins.find((c: { tokenId?: string }) => c.tokenId === tokenId);
    assert.equal(held?.amount, 10_000);
    const d = await relysia.contracts.v1.redeem({ data: { dataArray: [{ tokenId, amount: 100 }] } });
    assert.equal(d.txIds.length, 1, JSON.stringify(d));
    assert.deepEqual(d.errors ?? [], []);
    assert.equal((await relysia.contracts.v1.tokenDetails({ id: tokenId })).circulatingSupply, 9_900);
  });

  it('the /api/v1 forms still require serviceid (403 SERVICE_MISMATCH without it)', async () => {
    for (const [method, path, body] of [
      ['GET', '/api/v1/feeAddressBeta', undefined],
      ['GET', '/api/v1/feeMetricsBeta', undefined],
      ['GET', `/api/v1/token/${tokenId}`, undefined],
      ['POST', '/api/v1/issue', { name: 'X', protocolId: 'KST-20', symbol: 'X', tokenSupply: 1, satsPerToken: 1 }],
      ['POST', '/api/v1/redeem', { dataArray: [{ tokenId, amount: 1 }] }],
    ] as const) {
      const r = await request(host.url, method, path, { headers: { authToken: token }, body });
      assert.equal(r.status, 403, `${method} ${path}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.data.code, 'SERVICE_MISMATCH', `${method} ${path}`);
      const ok = await request(host.url, 'GET', '/api/v1/feeAddressBeta', { headers: { authToken: token, serviceid: org.serviceid } });
      assert.equal(ok.status, 200);
    }
  });
});
