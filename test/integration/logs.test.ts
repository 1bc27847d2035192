import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { P2PKH, PrivateKey } from '@bsv/sdk';
import { startHeadless, type Headless } from '../helpers/headless.js';
import { ADMIN, request } from '../helpers/http.js';
import { tempDir } from '../helpers/tmp.js';

/**
 * The engine logs through one injected logger as JSON lines on stderr, and no secret ever reaches it:
 * passwords, tokens, API keys, recovery phrases and private keys go through every operation that takes
 * them, at the most talkative level, and none of them shows up in the log.
 */
describe('logs: JSON lines on stderr, never a secret', () => {
  let host: Headless;
  const secrets: string[] = [ADMIN.password, 'db-pass-logs-1'];
  before(async () => {
    host = await startHeadless({ dataDir: tempDir(), password: 'db-pass-logs-1', args: ['--log-level', 'debug'] });
  });
  after(() => host.stop());

  it('logs what happened without any secret', async () => {
    const s = await request(host.url, 'POST', '/api/v1/setup', { body: ADMIN });
    const auth = { authToken: s.body.data.authToken, serviceid: s.body.data.serviceId };
    secrets.push(s.body.data.authToken);
    await request(host.url, 'POST', '/api/v1/login', { body: { email: ADMIN.email, password: 'wrong-password-9' } });
    secrets.push('wrong-password-9');
    const key = await request(host.url, 'POST', '/api/v1/apiKeys', { headers: auth, body: { label: 'ci' } });
    secrets.push(key.body.data.apiKey);
    const w = await request(host.url, 'POST', '/v1/createWallet', {
      headers: auth,
      body: { walletTitle: 'Vault', type: 'secure', walletPassword: 'wallet-pass-77' },
    });
    secrets.push('wallet-pass-77');
    const phrase = await request(host.url, 'GET', `/v1/mnemonic?password=${encodeURIComponent(ADMIN.password)}`, {
      headers: { ...auth, walletID: w.body.data.walletID, walletPassword: 'wallet-pass-77' },
    });
    assert.equal(phrase.status, 200, JSON.stringify(phrase.body));
    secrets.push(phrase.body.data.mnemonic);
    const address = (await request(host.url, 'GET', '/v1/address', { headers: { ...auth, walletID: w.body.data.walletID } })).body.data
      .address;
    await request(host.url, 'POST', '/chain/faucet', { headers: auth, body: { address, satoshis: 10_000 } });
    const to = new P2PKH().lock(PrivateKey.fromRandom().toAddress()).toHex();
    await request(host.url, 'POST', '/v1/pay', {
      headers: { ...auth, walletID: w.body.data.walletID, walletPassword: 'wallet-pass-77' },
      body: { outputs: [{ script: to, satoshis: 1_000 }] },
    });
    const pk = PrivateKey.fromRandom();
    secrets.push(pk.toWif(), pk.toHex());
    await request(host.url, 'POST', '/v1/lookup', { headers: auth, body: { privateKey: pk.toWif() } });
    await request(host.url, 'POST', '/api/v1/changePassword', {
      headers: auth,
      body: { currentPassword: ADMIN.password, newPassword: 'brand-new-pass-3' },
    });
    secrets.push('brand-new-pass-3');

    const lines = host
      .stderr()
      .split('\n')
      .filter((l) => l.startsWith('{'));
    assert.ok(lines.length > 10, 'the engine logged');
    for (const line of lines) JSON.parse(line);
    assert.ok(
      lines.some((l) => /"op":"pay"/.test(l)),
      'operations are logged',
    );
    assert.ok(lines.some((l) => /a login failed/.test(l)));
    for (const secret of secrets) assert.equal(host.stderr().includes(secret), false, `the log contains a secret: ${secret.slice(0, 6)}…`);
  });
});
