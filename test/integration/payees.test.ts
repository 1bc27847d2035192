import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PrivateKey } from '@bsv/sdk';
import { startHeadless, type Headless } from '../helpers/headless.js';
import { request } from '../helpers/http.js';
import { orgCall, setUpOrg, type Org } from '../helpers/org.js';
import { tempDir } from '../helpers/tmp.js';

const HOUR = 3_600_000;

/** The payee book over real HTTP: the routes, who may call them, duplicates, the cooling-off setting, the audit. */
describe('payee book over HTTP', () => {
  let host: Headless;
  let org: Org;
  const as: Record<'manager' | 'operator' | 'viewer', Record<string, string>> = { manager: {}, operator: {}, viewer: {} };

  before(async () => {
    host = await startHeadless({ dataDir: tempDir(), password: 'pw' });
    org = await setUpOrg(host);
    for (const role of ['manager', 'operator', 'viewer'] as const) {
      const email = `${role}@acme.io`;
      const created = await orgCall(org, 'POST', '/api/v1/createUser', { body: { email, password: 'role-password-1', role } });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const s = await request(host.url, 'POST', '/api/v1/login', { body: { email, password: 'role-password-1' } });
      as[role] = { authToken: s.body.data.authToken, serviceid: org.serviceid };
    }
  });
  after(() => host.stop());

  it('adds, lists, updates and removes payees; a changed destination starts a new cooling-off', async () => {
    const before = Date.now();
    const added = await request(host.url, 'POST', '/api/v1/payees', {
      headers: as.manager,
      body: { name: 'Alice Ltd', destination: 'Alice@Example.com', note: 'monthly invoice' },
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    const alice = added.body.data;
    assert.equal(alice.status, 'success');
    assert.equal(alice.msg, 'Payee added.');
    assert.deepEqual(
      [alice.name, alice.kind, alice.destination, alice.note, alice.state, alice.usable],
      ['Alice Ltd', 'paymail', 'alice@example.com', 'monthly invoice', 'active', false],
    );
    const usableFrom = Date.parse(alice.usableFrom);
    assert.ok(usableFrom >= before + 24 * HOUR && usableFrom <= Date.now() + 24 * HOUR, alice.usableFrom);

    const key = PrivateKey.fromRandom().toPublicKey().toString();
    const partner = await orgCall(org, 'POST', '/api/v1/payees', { body: { name: 'Partner', destination: key, kind: 'identity_key' } });
    assert.equal(partner.status, 200, JSON.stringify(partner.body));

    for (const who of [as.operator, as.viewer, as.manager]) {
      const listed = await request(host.url, 'GET', '/api/v1/payees', { headers: who });
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      assert.deepEqual(
        listed.body.data.payees.map((p: { name: string }) => p.name),
        ['Alice Ltd', 'Partner'],
      );
      assert.equal(listed.body.data.coolingOffHours, 24);
    }

    const renamed = await request(host.url, 'PUT', `/api/v1/payees/${alice.payeeId}`, { headers: as.manager, body: { name: 'Alice' } });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.deepEqual([renamed.body.data.name, renamed.body.data.usableFrom], ['Alice', alice.usableFrom]);
    const address = PrivateKey.fromRandom().toAddress();
    const moved = await orgCall(org, 'PUT', `/api/v1/payees/${alice.payeeId}`, { body: { destination: address } });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.deepEqual([moved.body.data.kind, moved.body.data.destination], ['address', address]);
    assert.ok(Date.parse(moved.body.data.usableFrom) >= Date.parse(renamed.body.data.updatedAt), 'the cooling-off starts again');

    const removed = await request(host.url, 'DELETE', `/api/v1/payees/${partner.body.data.payeeId}`, { headers: as.manager });
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.equal(removed.body.data.state, 'removed');
    const active = await orgCall(org, 'GET', '/api/v1/payees');
    assert.deepEqual(
      active.body.data.payees.map((p: { name: string }) => p.name),
      ['Alice'],
    );
    const all = await orgCall(org, 'GET', '/api/v1/payees?includeRemoved=true');
    assert.deepEqual(
      all.body.data.payees.map((p: { name: string; state: string }) => [p.name, p.state]),
      [
        ['Alice', 'active'],
        ['Partner', 'removed'],
      ],
    );
    const gone = await orgCall(org, 'DELETE', `/api/v1/payees/${partner.body.data.payeeId}`);
    assert.deepEqual([gone.status, gone.body.data.code], [409, 'CONFLICT']);
    const unknown = await orgCall(org, 'PUT', '/api/v1/payees/payee_nosuchpayee', { body: { name: 'x' } });
    assert.deepEqual([unknown.status, unknown.body.data.code], [404, 'NOT_FOUND']);
  });

  it('refuses a duplicate destination with 409 CONFLICT and a bad one with 400, saying why', async () => {
    const first = await orgCall(org, 'POST', '/api/v1/payees', { body: { name: 'Bob', destination: 'bob@example.com' } });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const twin = await orgCall(org, 'POST', '/api/v1/payees', { body: { name: 'Robert', destination: ' BOB@example.com' } });
    assert.equal(twin.status, 409);
    assert.equal(twin.body.data.status, 'error');
    assert.equal(twin.body.data.code, 'CONFLICT');
    assert.match(twin.body.data.msg, /bob@example\.com is already in the payee book as "Bob"/);

    const bad = await orgCall(org, 'POST', '/api/v1/payees', { body: { name: 'Nobody', destination: 'not a destination' } });
    assert.deepEqual([bad.status, bad.body.data.code], [400, 'VALIDATION_FAILED']);
    assert.match(bad.body.data.msg, /^destination: /);
    const noName = await orgCall(org, 'POST', '/api/v1/payees', { body: { destination: 'carol@example.com' } });
    assert.deepEqual([noName.status, noName.body.data.msg], [400, 'name: is required']);
    const badKind = await orgCall(org, 'POST', '/api/v1/payees', { body: { name: 'C', destination: 'carol@example.com', kind: 'iban' } });
    assert.equal(badKind.status, 400);
    assert.match(badKind.body.data.msg, /^kind: must be one of: paymail, address, identity_key/);
  });

  it('operators and viewers may not change the book; only an admin sets the cooling-off period', async () => {
    const target = (await orgCall(org, 'GET', '/api/v1/payees')).body.data.payees[0].payeeId as string;
    for (const role of ['operator', 'viewer'] as const) {
      const changes = [
        await request(host.url, 'POST', '/api/v1/payees', { headers: as[role], body: { name: 'Eve', destination: 'eve@example.com' } }),
        await request(host.url, 'PUT', `/api/v1/payees/${target}`, { headers: as[role], body: { destination: 'eve@example.com' } }),
        await request(host.url, 'DELETE', `/api/v1/payees/${target}`, { headers: as[role] }),
        await request(host.url, 'PUT', '/api/v1/payees/settings', { headers: as[role], body: { coolingOffHours: 0 } }),
      ];
      for (const r of changes)
        assert.deepEqual([r.status, r.body.data.code], [403, 'ROLE_FORBIDDEN'], `${role}: ${JSON.stringify(r.body)}`);
    }
    const managerSets = await request(host.url, 'PUT', '/api/v1/payees/settings', { headers: as.manager, body: { coolingOffHours: 0 } });
    assert.deepEqual([managerSets.status, managerSets.body.data.code], [403, 'ROLE_FORBIDDEN']);
    const noServiceId = await request(host.url, 'GET', '/api/v1/payees', { headers: { authToken: org.auth.authToken } });
    assert.deepEqual([noServiceId.status, noServiceId.body.data.code], [403, 'SERVICE_MISMATCH']);

    assert.deepEqual((await orgCall(org, 'GET', '/api/v1/payees/settings')).body.data.coolingOffHours, 24);
    const tooLong = await orgCall(org, 'PUT', '/api/v1/payees/settings', { body: { coolingOffHours: 721 } });
    assert.equal(tooLong.status, 400);
    assert.match(tooLong.body.data.msg, /^coolingOffHours: must be 720 hours/);
    const set = await orgCall(org, 'PUT', '/api/v1/payees/settings', { body: { coolingOffHours: 0 } });
    assert.deepEqual([set.status, set.body.data.coolingOffHours], [200, 0]);
    const now = await orgCall(org, 'POST', '/api/v1/payees', { body: { name: 'Dave', destination: 'dave@example.com' } });
    assert.equal(now.body.data.usable, true, 'with no cooling-off a new payee is usable at once');
    const older = (await orgCall(org, 'GET', '/api/v1/payees')).body.data.payees.find((p: { name: string }) => p.name === 'Bob');
    assert.equal(older.usable, false, 'payees added before keep their usable-from time');
    await orgCall(org, 'PUT', '/api/v1/payees/settings', { body: { coolingOffHours: 24 } });
  });

  it('audits every change, naming the payee', async () => {
    const r = await orgCall(org, 'GET', '/api/v1/audit?limit=200');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const entries = (
      r.body.data.entries as { action: string; target: string | null; outcome: string; code: string | null; actorEmail: string }[]
    )
      .filter((e) => /Payee/.test(e.action))
      .reverse();
    const added = entries.find((e) => e.action === 'addPayee' && e.outcome === 'success');
    assert.match(added!.target!, /^payee_[A-Za-z0-9_-]{22} "Alice Ltd" \(paymail alice@example\.com\)$/);
    assert.equal(added!.actorEmail, 'manager@acme.io');
    assert.ok(entries.some((e) => e.action === 'updatePayee' && e.outcome === 'success' && /"Alice" \(address 1/.test(e.target ?? '')));
    assert.ok(
      entries.some((e) => e.action === 'removePayee' && e.outcome === 'success' && /"Partner" \(identity_key 0[23]/.test(e.target ?? '')),
    );
    assert.ok(entries.some((e) => e.action === 'addPayee' && e.code === 'CONFLICT' && e.target === '"Robert" (BOB@example.com)'));
    assert.ok(entries.some((e) => e.action === 'addPayee' && e.code === 'ROLE_FORBIDDEN'));
    assert.deepEqual(
      entries.filter((e) => e.action === 'setPayeeSettings' && e.outcome === 'success').map((e) => e.target),
      ['coolingOffHours 0', 'coolingOffHours 24'],
    );
  });
});
