import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PrivateKey } from '@bsv/sdk';
import { toCurrencyExact } from '../../main/engine/rates/rates.js';
import { startHeadless, type Headless } from '../helpers/headless.js';
import { ADMIN, request } from '../helpers/http.js';
import { tempDir } from '../helpers/tmp.js';

/**
 * Scripts written for the public service the spec describes: its sign-in route and answer, the resolver's spellings, lookup's precision.
 */
describe("the public service's clients", () => {
  let host: Headless;
  before(async () => {
    host = await startHeadless({ dataDir: tempDir(), password: 'pw' });
    await request(host.url, 'POST', '/api/v1/setup', { body: ADMIN });
  });
  after(() => host.stop());

  it('POST /v1/auth {email, password} answers token as well as authToken, and the token works', async () => {
    const r = await request(host.url, 'POST', '/v1/auth', { body: { email: ADMIN.email, password: ADMIN.password } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(typeof r.body.data.token, 'string');
    assert.equal(r.body.data.token, r.body.data.authToken);
    const me = await request(host.url, 'GET', '/v1/wallets', { headers: { authToken: r.body.data.token } });
    assert.equal(me.status, 200);
    const wrong = await request(host.url, 'POST', '/v1/auth', { body: { email: ADMIN.email, password: 'not it' } });
    assert.equal(wrong.status, 401);
  });

  it('the resolver answers on /v1/URI and /v1/uri', async () => {
    const { authToken } = (await request(host.url, 'POST', '/v1/auth', { body: { email: ADMIN.email, password: ADMIN.password } })).body
      .data;
    const to = PrivateKey.fromRandom().toAddress();
    for (const path of ['/v1/URI', '/v1/uri']) {
      const r = await request(host.url, 'GET', path, { headers: { authToken, uri: `bitcoin:${to}?amount=0.0001` } });
      assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.data.data.outputs[0].satoshis, 10_000);
    }
  });

  it("lookup's totalBalance is not rounded: 1,000 satoshis at 40 USD/BSV is 0.0004", () => {
    assert.equal(toCurrencyExact(1000, 40), 0.0004);
    assert.equal(toCurrencyExact(123_456_789, 51.37), (123_456_789 * 51.37) / 1e8);
  });
});
