import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startHeadless, type Headless } from '../helpers/headless.js';
import { ADMIN, request } from '../helpers/http.js';
import { tempDir } from '../helpers/tmp.js';

const PHRASE = 'legal winner thank year wave sausage worth useful legal winner thank yellow';

describe('wallet API and address API over HTTP', () => {
  const dataDir = tempDir();
  let host: Headless;
  let auth: Record<string, string>;
  let manager: Record<string, string>;

  before(async () => {
    host = await startHeadless({ dataDir, password: 'pw', args: ['--paymail-domain', 'acme.test'] });
    const s = await request(host.url, 'POST', '/api/v1/setup', { body: ADMIN });
    auth = { authToken: s.body.data.authToken };
    const serviceid = s.body.data.serviceId;
    await request(host.url, 'POST', '/api/v1/createUser', {
      body: { email: 'max@acme.io', password: 'manager-pass-1', role: 'manager' },
      headers: { ...auth, serviceid },
    });
    const m = await request(host.url, 'POST', '/api/v1/login', { body: { email: 'max@acme.io', password: 'manager-pass-1' } });
    manager = { authorization: `Bearer ${m.body.data.authToken}` };
  });
  after(() => host.stop());

  it('GET /v1/createWallet takes its parameters as headers', async () => {
    const r = await request(host.url, 'GET', '/v1/createWallet', {
      headers: {
        ...auth,
        walletTitle: 'Treasury',
        paymail: 'treasury',
        paymailActivate: 'true',
        type: 'standard',
        walletLogo: 'https://acme.io/logo.png',
        mnemonicPhrase: PHRASE,
      },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.data.msg, 'Wallet created successfully.');
    assert.match(r.body.data.walletID, /^[0-9a-f-]{36}$/);
    assert.equal(r.body.data.paymail, 'treasury@acme.test');
  });

  it('POST /v1/createWallet takes the same as a JSON body; walletTitle "default" makes the default wallet', async () => {
    const r = await request(host.url, 'POST', '/v1/createWallet', { body: { walletTitle: 'default' }, headers: auth });
    assert.equal(r.body.data.walletID, '0000-00000000-00000');
    const again = await request(host.url, 'POST', '/v1/createWallet', { body: { walletTitle: 'default' }, headers: auth });
    assert.equal(again.status, 409);
    const bad = await request(host.url, 'POST', '/v1/createWallet', {
      body: { walletTitle: 'x', mnemonicPhrase: 'one two three' },
      headers: auth,
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.data.code, 'VALIDATION_FAILED');
    const dup = await request(host.url, 'GET', '/v1/createWallet', {
      headers: { ...auth, walletTitle: 'Other', paymail: 'TREASURY@acme.test' },
    });
    assert.equal(dup.status, 409);
    const type = await request(host.url, 'GET', '/v1/createWallet', { headers: { ...auth, walletTitle: 'Other', type: 'piggybank' } });
    assert.equal(type.status, 400);
    assert.match(type.body.data.msg, /type: must be one of/);
  });

  it('GET /v1/wallets lists walletID, walletTitle, walletLogo, type, paymail', async () => {
    const r = await request(host.url, 'GET', '/v1/wallets', { headers: auth });
    assert.equal(r.status, 200);
    assert.deepEqual(
      r.body.data.wallets.map((w: any) => [w.walletTitle, w.walletLogo, w.type, w.paymail?.replace(/^\d+@/, '<number>@')]),
      [
        ['Treasury', 'https://acme.io/logo.png', 'standard', 'treasury@acme.test'],
        // Created through createWallet with no alias named: a numeric one, as the public service gives every wallet.
        ['default', null, 'standard', '<number>@acme.test'],
      ],
    );
  });

  it('addresses: the wallet API for everyone, the address API for managers only, walletid in any case', async () => {
    const wallets = (await request(host.url, 'GET', '/v1/wallets', { headers: auth })).body.data.wallets;
    const treasury = wallets.find((w: any) => w.walletTitle === 'Treasury').walletID;
    const all = await request(host.url, 'GET', '/v1/allAddresses', { headers: { ...auth, walletID: treasury } });
    assert.equal(all.body.data.addresses.length, 20);
    assert.deepEqual(all.body.data.addressess, all.body.data.addresses);
    const one = await request(host.url, 'GET', '/v1/address', { headers: { ...auth, walletid: treasury } });
    assert.equal(one.body.data.address, all.body.data.addresses[0]);
    assert.equal(one.body.data.paymail, 'treasury@acme.test');
    assert.equal(one.body.data.msg, 'Wallet address and paymail fetched successfully.');

    const denied = await request(host.url, 'GET', '/api/v1/addresses', { headers: { ...auth, walletid: treasury } });
    assert.equal(denied.status, 403, 'the spec limits the address API to managers');
    const mine = await request(host.url, 'GET', '/api/v1/address', { headers: manager });
    assert.equal(mine.status, 200);
    assert.equal(mine.body.data.walletID, '0000-00000000-00000', "no walletid: the manager's own default wallet, created on first use");
    const foreign = await request(host.url, 'GET', '/api/v1/addresses', { headers: { ...manager, walletid: treasury } });
    assert.equal(foreign.status, 404, "another account's wallet is not visible");
  });

  it('GET /v1/mnemonic needs the account password again', async () => {
    const wallets = (await request(host.url, 'GET', '/v1/wallets', { headers: auth })).body.data.wallets;
    const treasury = wallets.find((w: any) => w.walletTitle === 'Treasury').walletID;
    const no = await request(host.url, 'GET', '/v1/mnemonic', { headers: { ...auth, walletID: treasury } });
    assert.equal(no.status, 403, 'the public service asks for no password: a script gets a refusal that says which header to send');
    assert.equal(no.body.data.code, 'PASSWORD_REQUIRED');
    assert.match(no.body.data.msg, /`password` header/);
    assert.equal(no.body.data.mnemonic, undefined);
    const wrong = await request(host.url, 'GET', '/v1/mnemonic', { headers: { ...auth, walletID: treasury, password: 'nope-nope-1' } });
    assert.equal(wrong.status, 403);
    assert.equal(wrong.body.data.code, 'WRONG_PASSWORD');
    const ok = await request(host.url, 'GET', '/v1/mnemonic', { headers: { ...auth, walletID: treasury, password: ADMIN.password } });
    assert.equal(ok.body.data.mnemonic, PHRASE);
  });

  it('the recovery phrase never reaches the disk in the clear', () => {
    for (const f of readdirSync(dataDir)) {
      const bytes = readFileSync(path.join(dataDir, f));
      for (const word of ['legal winner thank', 'treasury@acme.test'])
        assert.equal(bytes.includes(Buffer.from(word)), false, `${f} has ${word}`);
    }
  });

  it('DELETE /v1/wallet (header walletID) and DELETE /v1/wallets', async () => {
    const wallets = (await request(host.url, 'GET', '/v1/wallets', { headers: auth })).body.data.wallets;
    const treasury = wallets.find((w: any) => w.walletTitle === 'Treasury').walletID;
    const r = await request(host.url, 'DELETE', '/v1/wallet', { headers: { ...auth, walletID: treasury } });
    assert.deepEqual(r.body.data, { status: 'success', msg: 'Wallet deleted successfully.', walletId: treasury });
    const gone = await request(host.url, 'DELETE', '/v1/wallet', { headers: { ...auth, walletID: treasury } });
    assert.equal(gone.status, 404);
    const all = await request(host.url, 'DELETE', '/v1/wallets', { headers: auth });
    assert.equal(all.body.data.msg, 'All wallets deleted successfully.');
    assert.deepEqual(all.body.data.deleted, ['0000-00000000-00000']);
    assert.deepEqual((await request(host.url, 'GET', '/v1/wallets', { headers: auth })).body.data.wallets, []);
  });
});
