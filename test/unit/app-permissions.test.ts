import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { AppGate } from '../../main/engine/apps/gate.js';
import {
  decideAppPermission,
  listAppPermissions,
  revokeAppPermission,
  setAppPermission,
  setAppSpendingLimit,
} from '../../main/engine/apps/permissions/manage.js';
import { permitOf } from '../../main/engine/apps/permissions/permit.js';
import { monthStart } from '../../main/engine/apps/permissions/spend.js';
import type { AppPermissionServices } from '../../main/engine/apps/services.js';
import type { EngineConfig } from '../../main/engine/context.js';
import { WalletErr } from '../../main/engine/apps/werr.js';
import { silentLogger } from '../../main/log/logger.js';
import { openStore, type Store } from '../../main/store/database.js';
import type { AppRow } from '../../main/store/repos/apps.js';
import { createRepos } from '../../main/store/repos/index.js';
import { tempDir } from '../helpers/tmp.js';

const APP: AppRow = {
  originator: 'shop.example',
  state: 'allowed',
  walletId: null,
  firstSeenAt: 0,
  decidedBy: 'uid-admin',
  decidedAt: 0,
  lastCallAt: null,
  calls: 0,
};
const PEER = '02' + 'ab'.repeat(32);
const OTHER_PEER = '03' + 'cd'.repeat(32);

const refused = (pattern: RegExp) => (e: unknown) => {
  assert.ok(e instanceof WalletErr, String(e));
  assert.equal(e.name, 'WERR_UNAUTHORIZED');
  assert.match(e.message, pattern);
  return true;
};

/**
 * The organisation's grants to BRC-100 apps, on the repository and the permit directly (the listener's tests
 * drive them through WalletClient): waiting requests, decisions, the by-asset rule, and the month's
 * spending authorisation counted atomically.
 */
describe('app permissions: grants, waiting requests and the monthly spending authorisation', () => {
  let store: Store;
  let services: AppPermissionServices;
  let clock: { now: number };
  let events: { type: string; data: unknown }[];
  const ctx = () => ({
    services,
    caller: { uid: 'uid-manager', email: 'mo@acme.io', role: 'manager' as const },
    meta: { clientId: '127.0.0.1' },
  });
  const pending = () => listAppPermissions(ctx(), {}).permissions.filter((p) => p.state === 'pending');
  /** Resolves once a request of `kind` is recorded (the permit records it synchronously before it waits). */
  const requestOf = (kind: string) => {
    const found = pending().find((p) => p.kind === kind);
    assert.ok(found, `no pending ${kind} request: ${JSON.stringify(pending())}`);
    return found;
  };

  beforeEach(() => {
    store = openStore({ dataDir: tempDir(), password: 'pw' });
    clock = { now: Date.parse('2026-03-15T12:00:00Z') };
    events = [];
    services = {
      db: store.db,
      repos: createRepos(store.db),
      config: { network: 'local' } as EngineConfig,
      now: () => clock.now,
      logger: silentLogger(),
      events: { publish: (type: string, data: unknown) => void events.push({ type, data }) } as AppPermissionServices['events'],
      // Long enough that only a decision ends a wait in these tests.
      appGate: new AppGate(600_000),
    };
    services.repos.apps.decide(APP.originator, 'allowed', null, 'uid-admin', clock.now);
  });
  afterEach(() => {
    services.appGate.wakeAll();
    store.close();
  });

  it('opens security level 0 to every allowed app, and makes a level-1 use wait until it is granted', async () => {
    const permit = permitOf(services, APP);
    await permit.protocol([0, 'open protocol'], 'self', 'encrypt');
    assert.equal(pending().length, 0);

    const waiting = permit.protocol([1, 'Todo List'], PEER, 'encrypt');
    const request = requestOf('protocol');
    assert.equal(request.subject, 'todo list');
    assert.equal(request.securityLevel, 1);
    assert.equal(request.counterparty, null);
    assert.ok(
      events.some((e) => e.type === 'apps'),
      'the Apps view is told',
    );
    const granted = decideAppPermission(ctx(), { id: request.id, grant: true });
    assert.equal(granted.state, 'granted');
    assert.equal(granted.decidedBy, 'uid-manager');
    await waiting;
    // Level 1 is not per counterparty: another one needs nothing more.
    await permit.protocol([1, 'todo list'], OTHER_PEER, 'decrypt');
    assert.equal(pending().length, 0);
  });

  it('keeps a denial until it is changed, and refuses the use a revoked grant covered until it is granted again', async () => {
    const permit = permitOf(services, APP);
    const waiting = permit.basket('tickets', 'insert');
    decideAppPermission(ctx(), { id: requestOf('basket').id, grant: false });
    await assert.rejects(waiting, refused(/denied this app basket "tickets"/));
    // Denied stays denied: refused at once, nothing new recorded.
    await assert.rejects(permit.basket('tickets', 'list'), refused(/denied/));
    assert.equal(pending().length, 0);

    const grant = setAppPermission(ctx(), { originator: APP.originator, kind: 'basket', basket: 'tickets', grant: true });
    await permit.basket('tickets', 'list');
    revokeAppPermission(ctx(), { id: grant.id });
    const again = permit.basket('tickets', 'list');
    decideAppPermission(ctx(), { id: requestOf('basket').id, grant: false });
    await assert.rejects(again, refused(/basket "tickets"/));
    // Reserved baskets are never granted, and never asked for.
    await assert.rejects(permit.basket('default', 'list'), refused(/kept for the wallet/));
  });

  it('grants level-2 protocols per counterparty, or for every counterparty when an admin says so', async () => {
    const permit = permitOf(services, APP);
    setAppPermission(ctx(), {
      originator: APP.originator,
      kind: 'protocol',
      securityLevel: 2,
      protocol: 'chat keys',
      counterparty: PEER,
      grant: true,
    });
    await permit.protocol([2, 'chat keys'], PEER, 'encrypt');
    const other = permit.protocol([2, 'chat keys'], OTHER_PEER, 'encrypt');
    const request = requestOf('protocol');
    assert.equal(request.counterparty, OTHER_PEER);
    // A grant for every counterparty settles the waiting request too.
    setAppPermission(ctx(), {
      originator: APP.originator,
      kind: 'protocol',
      securityLevel: 2,
      protocol: 'chat keys',
      counterparty: '*',
      grant: true,
    });
    await other;
    assert.equal(pending().length, 0);
  });

  it('lets a grant with an expiry lapse, and scopes certificate grants by the fields they disclose', async () => {
    const permit = permitOf(services, APP);
    setAppPermission(ctx(), {
      originator: APP.originator,
      kind: 'certificate',
      certificateType: 'dHlwZQ==',
      fields: ['name', 'email'],
      grant: true,
      expiresAt: new Date(clock.now + 60_000).toISOString(),
    });
    await permit.certificate('dHlwZQ==', 'prove', ['email'], PEER);
    await permit.certificate('dHlwZQ==', 'list');
    const more = permit.certificate('dHlwZQ==', 'prove', ['email', 'address'], PEER);
    assert.deepEqual(requestOf('certificate').fields, ['address', 'email']);
    decideAppPermission(ctx(), { id: requestOf('certificate').id, grant: false });
    await assert.rejects(more, refused(/certificate type dHlwZQ== \(fields address, email\)/));
    clock.now += 120_000;
    const lapsed = permit.certificate('dHlwZQ==', 'prove', ['name'], PEER);
    assert.equal(requestOf('certificate').subject, 'dHlwZQ==');
    decideAppPermission(ctx(), { id: requestOf('certificate').id, grant: true });
    await lapsed;
  });

  it('needs a grant for an ordinal or a token even when the action moves no satoshis', async () => {
    const permit = permitOf(services, APP);
    setAppSpendingLimit(ctx(), { originator: APP.originator, limit: { satoshis: 1_000_000 } });
    const moving = permit.spend({ satoshis: 0, assets: [{ asset: 'ordinal', amount: 1 }], description: 'send my ordinal' });
    const request = requestOf('asset');
    assert.equal(request.subject, 'ordinal');
    assert.equal(request.purpose, 'send my ordinal');
    decideAppPermission(ctx(), { id: request.id, grant: false });
    await assert.rejects(moving, refused(/1-sat ordinals/));

    const token = `token:${'aa'.repeat(32)}_0`;
    setAppPermission(ctx(), { originator: APP.originator, kind: 'asset', asset: token, grant: true });
    const hold = await permit.spend({ satoshis: 0, assets: [{ asset: token, amount: 5 }], description: 'pay in tokens' });
    hold.release();
    // Granting one token is not granting another.
    const other = permit.spend({ satoshis: 0, assets: [{ asset: `token:${'bb'.repeat(32)}_0`, amount: 1 }], description: 'other token' });
    assert.match(requestOf('asset').subject, /^token:bb/);
    revokeAppPermission(ctx(), { id: requestOf('asset').id });
    await assert.rejects(other, refused(/token:bb/));
  });

  it("counts satoshis against the month's authorisation atomically: two holds never share one remainder", async () => {
    const permit = permitOf(services, APP);
    setAppSpendingLimit(ctx(), { originator: APP.originator, limit: { satoshis: 10_000 } });
    const spend = (satoshis: number) => permit.spend({ satoshis, assets: [], description: `pay ${satoshis}` });
    // Both start together: the first takes 7,000 of the 10,000; the second would need 7,000 of the 3,000 left.
    const [first, second] = [spend(7_000), spend(7_000)];
    await first;
    const request = requestOf('spend');
    assert.equal(request.satoshis, 7_000);
    assert.match(request.purpose ?? '', /3000 left/);
    let spending = listAppPermissions(ctx(), {}).spending.find((s) => s.originator === APP.originator)!;
    assert.equal(spending.usedSatoshis, 7_000);
    assert.equal(spending.remainingSatoshis, 3_000);
    decideAppPermission(ctx(), { id: request.id, grant: false });
    await assert.rejects(second, refused(/denied this app's spend of 7000/));

    // Released holds give their amount back.
    (await first).release();
    const third = await spend(9_000);
    spending = listAppPermissions(ctx(), {}).spending.find((s) => s.originator === APP.originator)!;
    assert.equal(spending.remainingSatoshis, 1_000);

    // Above the remainder: granted for that one action, which does not use the month's authorisation.
    const big = spend(50_000);
    const bigRequest = requestOf('spend');
    decideAppPermission(ctx(), { id: bigRequest.id, grant: true });
    await big;
    spending = listAppPermissions(ctx(), {}).spending.find((s) => s.originator === APP.originator)!;
    assert.equal(spending.usedSatoshis, 9_000);
    assert.equal(spending.spentSatoshis, 59_000);
    assert.equal(listAppPermissions(ctx(), {}).permissions.find((p) => p.id === bigRequest.id)?.state, 'used');
    // The next action above the remainder asks again: the grant was for one action, not the month.
    const next = spend(2_000);
    assert.equal(requestOf('spend').satoshis, 2_000);
    // Raising the authorisation lets the waiting action through on it.
    setAppSpendingLimit(ctx(), { originator: APP.originator, limit: { satoshis: 20_000 } });
    await next;
    assert.equal(pending().length, 0);
    third.release();

    // A new calendar month (UTC) starts again.
    clock.now = Date.parse('2026-04-01T00:00:00Z');
    assert.equal(monthStart(clock.now), clock.now);
    spending = listAppPermissions(ctx(), {}).spending.find((s) => s.originator === APP.originator)!;
    assert.equal(spending.usedSatoshis, 0);
  });

  it('converts a currency authorisation at the latest rate, and refuses when there is no rate', async () => {
    const permit = permitOf(services, APP);
    services.repos.rates.set({ currency: 'EUR', rate: 50, source: 'test', updatedAt: clock.now });
    setAppSpendingLimit(ctx(), { originator: APP.originator, limit: { currency: 'EUR', amount: '1.00' } });
    // 1 EUR at 50 EUR per BSV is 2,000,000 satoshis.
    const spending = listAppPermissions(ctx(), {}).spending.find((s) => s.originator === APP.originator)!;
    assert.equal(spending.limitSatoshis, 2_000_000);
    (await permit.spend({ satoshis: 2_000_000, assets: [], description: 'all of it' })).release();
    services.repos.rates.remove('EUR');
    await assert.rejects(permit.spend({ satoshis: 1, assets: [], description: 'one' }), refused(/no EUR rate/));
    assert.equal(pending().length, 0);
  });

  it('refuses a waiting use once the app itself is revoked, whatever is decided about the use', async () => {
    const waiting = permitOf(services, APP).protocol([2, 'chat keys'], PEER, 'encrypt');
    const request = requestOf('protocol');
    services.repos.apps.revoke(APP.originator, 'uid-admin', clock.now);
    decideAppPermission(ctx(), { id: request.id, grant: true });
    await assert.rejects(waiting, refused(/is revoked/));
  });

  it('asks for every satoshi of an app without an authorisation', async () => {
    const permit = permitOf(services, APP);
    const spending = permit.spend({ satoshis: 1, assets: [], description: 'tip' });
    assert.equal(requestOf('spend').satoshis, 1);
    decideAppPermission(ctx(), { id: requestOf('spend').id, grant: true });
    await spending;
    // Receiving (net satoshis in) needs nothing.
    await permit.spend({ satoshis: -500, assets: [], description: 'refund' });
  });
});
