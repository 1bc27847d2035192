import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startHeadless } from '../helpers/headless.js';
import { request } from '../helpers/http.js';
import { createOrgWallet, orgCall, setUpOrg, type Org } from '../helpers/org.js';
import { openSse, type SseStream } from '../helpers/sse.js';
import { tempDir } from '../helpers/tmp.js';

/** The live event stream over real HTTP: what arrives, for whom, and what a reconnecting client gets. */
describe('live events (GET /v1/events)', () => {
  let org: Org;
  let operatorAuth: Record<string, string>;
  let walletID: string;
  const streams: SseStream[] = [];
  const open = async (query = '', headers: Record<string, string> = {}) => {
    const s = await openSse(`${org.host.url}/v1/events${query}`, headers);
    streams.push(s);
    return s;
  };

  before(async () => {
    org = await setUpOrg(await startHeadless({ dataDir: tempDir(), password: 'pw', args: ['--mine-interval', '0'] }));
    walletID = await createOrgWallet(org, { walletTitle: 'Treasury' });
    const made = await orgCall(org, 'POST', '/api/v1/createUser', {
      body: { email: 'op@acme.io', password: 'operator-pass-1', role: 'operator', firstName: 'O', lastName: 'P', title: '' },
    });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const login = await request(org.host.url, 'POST', '/api/v1/login', { body: { email: 'op@acme.io', password: 'operator-pass-1' } });
    operatorAuth = { authToken: login.body.data.authToken };
  });
  after(async () => {
    // Stopped with streams still open: the server must end them, not wait for them.
    await org.host.stop();
    await Promise.all(streams.map((s) => s.ended));
  });

  it('refuses a stream without credentials, in the envelope', async () => {
    const s = await open();
    assert.equal(s.status, 401);
    assert.equal(s.body.data.code, 'UNAUTHORIZED');
  });

  it('a payment to a wallet: its owner hears payment.received, the balance and, once mined, confirmed; another user hears only the block', async () => {
    const admin = await open('', org.auth);
    const operator = await open('', operatorAuth);
    assert.equal(admin.status, 200);
    const address = (await orgCall(org, 'GET', '/v1/address', { headers: { walletID } })).body.data.address;
    const funded = await orgCall(org, 'POST', '/chain/faucet', { body: { address, satoshis: 25_000 } });
    assert.equal(funded.status, 200, JSON.stringify(funded.body));
    const { txid } = funded.body.data;

    const received = await admin.next((e) => e.event === 'payment.received' && e.data.txid === txid);
    assert.deepEqual(
      { ...received.data, counterparty: undefined },
      { walletID, walletTitle: 'Treasury', txid, satoshis: 25_000, counterparty: undefined },
    );
    const pending = await admin.next((e) => e.event === 'payment.state' && e.data.txid === txid);
    assert.equal(pending.data.state, 'pending');
    const balance = await admin.next((e) => e.event === 'balance' && e.data.walletID === walletID);
    assert.deepEqual([balance.data.satoshis, balance.data.unconfirmed, balance.data.walletTitle], [25_000, 25_000, 'Treasury']);

    const mined = await orgCall(org, 'POST', '/chain/mine', { body: {} });
    const block = await admin.next((e) => e.event === 'block' && e.data.height === mined.body.data.height);
    const confirmed = await admin.next((e) => e.event === 'payment.state' && e.data.txid === txid && e.data.state === 'confirmed');
    assert.equal(confirmed.data.height, mined.body.data.height);
    assert.ok(Number(confirmed.id) > Number(block.id) || Number(confirmed.id) < Number(block.id), 'each event has its own id');

    await operator.next((e) => e.event === 'block' && e.data.height === mined.body.data.height);
    assert.deepEqual(
      operator.events.filter((e) => e.event !== 'block').map((e) => e.event),
      [],
      "the operator may not see the admin's wallet, so hears nothing about it",
    );
    // Ids only grow.
    const ids = admin.events.map((e) => Number(e.id));
    assert.deepEqual(
      ids,
      [...ids].sort((x, y) => x - y),
    );
  });

  it('a client reconnecting with Last-Event-ID gets what it missed; an id no longer kept gets reset', async () => {
    const first = await open('', org.auth);
    await orgCall(org, 'POST', '/v1/rates', { body: { currency: 'EUR', rate: 31.5 } });
    const seen = await first.next((e) => e.event === 'rate' && e.data.currency === 'EUR');
    first.close();
    await orgCall(org, 'POST', '/v1/rates', { body: { currency: 'GBP', rate: 27.25 } });
    await orgCall(org, 'POST', '/v1/rates', { body: { currency: 'EUR', rate: 32 } });

    const again = await open('', { ...org.auth, 'last-event-id': String(seen.id) });
    const missed = await again.next((e) => e.event === 'rate' && e.data.currency === 'EUR' && e.data.rate === 32);
    const gbp = again.events.find((e) => e.event === 'rate' && e.data.currency === 'GBP');
    assert.ok(gbp && Number(gbp.id) < Number(missed.id), 'replayed in order');
    assert.ok(!again.events.some((e) => e.id === seen.id), 'nothing before Last-Event-ID again');

    const stale = await open('?lastEventId=12', org.auth);
    const reset = await stale.next((e) => e.event === 'reset');
    assert.match(reset.data.reason, /reload/);
  });

  it('a ticket opens one stream for an EventSource (no headers), once', async () => {
    const t = await orgCall(org, 'POST', '/v1/events/ticket', { body: {} });
    assert.equal(t.status, 200, JSON.stringify(t.body));
    const viaTicket = await open(`?ticket=${encodeURIComponent(t.body.data.ticket)}`);
    assert.equal(viaTicket.status, 200);
    await orgCall(org, 'POST', '/v1/rates', { body: { currency: 'CHF', rate: 29 } });
    await viaTicket.next((e) => e.event === 'rate' && e.data.currency === 'CHF');
    const reused = await open(`?ticket=${encodeURIComponent(t.body.data.ticket)}`);
    assert.equal(reused.status, 401);
    assert.match(reused.body.data.msg, /ticket/);
  });

  it('signing out does not leave a ticket usable', async () => {
    const login = await request(org.host.url, 'POST', '/api/v1/login', { body: { email: 'op@acme.io', password: 'operator-pass-1' } });
    const auth = { authToken: login.body.data.authToken };
    const t = await request(org.host.url, 'POST', '/v1/events/ticket', { headers: auth, body: {} });
    await request(org.host.url, 'POST', '/api/v1/logout', { headers: auth, body: {} });
    const s = await open(`?ticket=${encodeURIComponent(t.body.data.ticket)}`);
    assert.equal(s.status, 401);
  });
});
