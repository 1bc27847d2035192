import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PrivateKey } from '@bsv/sdk';
import { startRuntime, type Runtime } from '../../main/host/runtime.js';
import { ADMIN, request } from '../helpers/http.js';
import { tempDir } from '../helpers/tmp.js';
import { until } from '../helpers/until.js';

/**
 * A kept token-for-token offer may ask its taker for further payments in BSV. The taker's move is then one of
 * tokens and of BSV: it is judged in each asset, so a BSV rule sees the BSV (before: the whole move was judged
 * as the asked token, its BSV counted as tokens at the token's satoshis per token, and a BSV cap never applied).
 */
describe('a move of tokens and BSV together is judged in each', () => {
  let rt: Runtime;
  let auth: Record<string, string>;
  const wallets: Record<string, string> = {};
  const tokens: Record<string, string> = {};
  const call = (method: string, path: string, opts: { body?: unknown; headers?: Record<string, string> } = {}) =>
    request(rt.url, method, path, { ...opts, headers: { ...auth, ...opts.headers } });
  const coins = async (walletID: string) =>
    (await call('GET', '/v1/balance', { headers: { walletID } })).body.data.coins as {
      tokenId?: string;
      amount: number;
      protocol: string;
      balance?: number;
    }[];
  const bsv = async (walletID: string) => (await coins(walletID)).find((c) => c.protocol === 'BSV')?.balance ?? 0;
  const policy = async (document: unknown) => assert.equal((await call('POST', '/api/v1/policies', { body: { document } })).status, 200);
  /** Alice's kept offer of 1 GOLD for 1 SILVER, asking the taker for `extra` BSV to an outsider too. */
  const offer = async (extra: number | null) => {
    const payment = extra === null ? {} : { payment: [{ amount: extra, to: PrivateKey.fromRandom().toAddress() }] };
    const made = await call('POST', '/v1/exchangeOffer', {
      headers: { walletID: wallets.alice },
      body: { dataArray: [{ tokenId: tokens.gold, tokenAmount: 1, wantedTokenId: tokens.silver, wantedAmount: 1, ...payment }] },
    });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    return made.body.data.offers[0].offerId as string;
  };
  const take = (swapId: string) =>
    call('POST', '/v1/exchangeSwap', { headers: { walletID: wallets.carol }, body: { dataArray: [{ swapId }] } });

  before(async () => {
    rt = await startRuntime({ dataDir: tempDir(), password: 'pw', port: 0, network: 'local', version: 'test', sessionTtlSeconds: 3600 });
    const s = await request(rt.url, 'POST', '/api/v1/setup', { body: ADMIN });
    auth = { authToken: s.body.data.authToken, serviceid: s.body.data.serviceId };
    for (const [name, satoshis] of [
      ['alice', 300_000],
      ['carol', 3_000_000],
    ] as const) {
      wallets[name] = (await call('POST', '/v1/createWallet', { body: { walletTitle: name } })).body.data.walletID;
      const { address } = (await call('GET', '/v1/address', { headers: { walletID: wallets[name] } })).body.data;
      assert.equal((await call('POST', '/chain/faucet', { body: { address, satoshis } })).status, 200);
    }
    for (const [key, walletID, symbol] of [
      ['gold', wallets.alice, 'GOLD'],
      ['silver', wallets.carol, 'SILVER'],
    ] as const) {
      const body = { name: symbol, protocolId: 'KST-20', symbol, tokenSupply: 1000, satsPerToken: 1 };
      const issued = await call('POST', '/api/v1/issue', { headers: { walletID }, body });
      assert.equal(issued.status, 200, JSON.stringify(issued.body));
      tokens[key] = issued.body.data.tokenId;
      await until(`${symbol} booked`, async () => ((await coins(walletID)).some((c) => c.tokenId === tokens[key]) ? true : undefined));
    }
  });
  after(() => rt?.close());

  it('a BSV cap refuses a token swap’s further BSV payment over it; tokens alone still swap', async () => {
    await policy({
      rules: [
        { name: 'bsv cap', when: { assets: ['bsv'], amountOver: { satoshis: 10_000 } }, action: 'deny', reason: 'BSV up to 10,000 sat' },
      ],
      default: { action: 'allow' },
    });
    const send = await call('POST', '/v1/send', {
      headers: { walletID: wallets.carol },
      body: { dataArray: [{ to: PrivateKey.fromRandom().toAddress(), amount: 0.02 }] },
    });
    assert.equal(send.status, 403, 'a control: the plain BSV send is refused');
    const before = await bsv(wallets.carol);
    const refused = await take(await offer(0.02));
    assert.equal(refused.status, 403, JSON.stringify(refused.body));
    assert.match(refused.body.data.msg, /BSV up to 10,000 sat/);
    assert.equal(await bsv(wallets.carol), before, 'nothing left Carol’s wallet');
    // Under the cap the same swap goes; and one of tokens alone.
    assert.equal((await take(await offer(0.00005))).status, 200);
    assert.equal((await take(await offer(null))).status, 200);
  });

  it('a BSV rule needing approvals refuses the swap in words (one request cannot review two assets); none is left waiting', async () => {
    await policy({
      rules: [{ name: 'bsv needs a manager', when: { assets: ['bsv'] }, action: 'approve', approvals: { count: 1, roles: ['manager'] } }],
      default: { action: 'allow' },
    });
    const refused = await take(await offer(0.001));
    assert.equal(refused.status, 403, JSON.stringify(refused.body));
    assert.match(refused.body.data.msg, /cannot wait for them/);
    const waiting = await call('GET', '/api/v1/approvals');
    assert.equal(waiting.body.data.approvals.length, 0, 'no approval request was kept');
    assert.equal((await take(await offer(null))).status, 200, 'tokens alone are not BSV: no approval');
  });
});
