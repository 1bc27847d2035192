import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openStore, type Store } from '../../main/store/database.js';
import { entryHash, type ChainedAuditEntry } from '../../main/store/repos/audit.js';
import { startHeadless, type Headless } from '../helpers/headless.js';
import { request } from '../helpers/http.js';
import { orgCall, setUpOrg, type Org } from '../helpers/org.js';
import { tempDir } from '../helpers/tmp.js';

const PASSWORD = 'audit-db-password-1';

interface Row {
  id: number;
  at: number;
  actor_uid: string | null;
  actor_email: string | null;
  action: string;
  target: string | null;
  outcome: 'success' | 'error';
  code: string | null;
  client: string | null;
  prev_hash: string;
  hash: string;
}

const asEntry = (r: Row): ChainedAuditEntry => ({
  id: r.id,
  at: r.at,
  actorUid: r.actor_uid,
  actorEmail: r.actor_email,
  action: r.action,
  target: r.target,
  outcome: r.outcome,
  code: r.code,
  client: r.client,
  prevHash: r.prev_hash,
  hash: r.hash,
});

/**
 * The audit trail over real HTTP, tampered with the way someone holding the database key would: the
 * SQLCipher file opened beside the running host, rows edited, deleted, re-hashed, a checkpoint forged.
 * Each time verify names the first entry that does not match; put back, it holds again.
 */
describe('audit trail: verify, export and tampering (headless, real database file)', () => {
  const dataDir = tempDir();
  let host: Headless;
  let org: Org;
  let db: Store;

  const verify = async () => {
    const r = await orgCall(org, 'GET', '/api/v1/audit/verify');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.data as { ok: boolean; entries: number; firstMismatch: { id: number; reason: string } | null; publicKey: string };
  };
  const row = (id: number) => db.db.prepare('SELECT * FROM audit_log WHERE id = ?').get(id) as Row;

  before(async () => {
    host = await startHeadless({ dataDir, password: PASSWORD });
    org = await setUpOrg(host);
    // A few audited calls: users made, changed, signed in.
    for (const [email, role] of [
      ['vera@acme.io', 'viewer'],
      ['otto@acme.io', 'operator'],
    ]) {
      const r = await orgCall(org, 'POST', '/api/v1/createUser', { body: { email, password: 'long-password-1', role } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
    await orgCall(org, 'POST', '/api/v1/updateUser', { body: { userId: 'nobody', role: 'manager' } });
    db = openStore({ dataDir, password: PASSWORD });
  });

  after(async () => {
    db?.close();
    await host?.stop();
  });

  it('holds from the first entry, and every entry carries its hashes', async () => {
    const v = await verify();
    assert.equal(v.ok, true, JSON.stringify(v.firstMismatch));
    assert.ok(v.entries >= 4, `entries: ${v.entries}`);
    assert.match(v.publicKey, /^0[23][0-9a-f]{64}$/);
    const log = await orgCall(org, 'GET', '/api/v1/audit?limit=5');
    assert.equal(log.status, 200);
    for (const e of log.body.data.entries) assert.match(e.hash, /^[0-9a-f]{64}$/);
  });

  it('(a) names an entry whose action was edited in the database', async () => {
    const before = row(2);
    db.db.prepare("UPDATE audit_log SET action = 'listUsers' WHERE id = 2").run();
    try {
      const v = await verify();
      assert.equal(v.ok, false);
      assert.equal(v.firstMismatch?.id, 2);
      assert.match(v.firstMismatch!.reason, /does not match its content/);
    } finally {
      db.db.prepare('UPDATE audit_log SET action = ? WHERE id = 2').run(before.action);
    }
    assert.equal((await verify()).ok, true);
  });

  it('(b) names an entry deleted from the database', async () => {
    const gone = row(3);
    db.db.prepare('DELETE FROM audit_log WHERE id = 3').run();
    try {
      const v = await verify();
      assert.equal(v.ok, false);
      assert.equal(v.firstMismatch?.id, 3);
      assert.match(v.firstMismatch!.reason, /entry 3 is missing/);
    } finally {
      db.db
        .prepare(
          `INSERT INTO audit_log (id, at, actor_uid, actor_email, action, target, outcome, code, client, prev_hash, hash)
           VALUES (@id, @at, @actor_uid, @actor_email, @action, @target, @outcome, @code, @client, @prev_hash, @hash)`,
        )
        .run(gone);
    }
    assert.equal((await verify()).ok, true);
  });

  it('(c) names the entry after one that was edited and given a recomputed hash', async () => {
    const before = row(2);
    const forged = { ...asEntry(before), target: 'someone-else@acme.io' };
    db.db.prepare('UPDATE audit_log SET target = ?, hash = ? WHERE id = 2').run(forged.target, entryHash(before.prev_hash, forged));
    try {
      const v = await verify();
      assert.equal(v.ok, false);
      assert.equal(v.firstMismatch?.id, 3);
      assert.match(v.firstMismatch!.reason, /prev_hash of entry 3 does not match/);
    } finally {
      db.db.prepare('UPDATE audit_log SET target = ?, hash = ? WHERE id = 2').run(before.target, before.hash);
    }
    assert.equal((await verify()).ok, true);
  });

  it('(d) names a forged checkpoint: another key, or a signature that does not hold', async () => {
    const { publicKey } = await verify();
    const last = row(3);
    const insert = db.db.prepare(
      'INSERT INTO audit_checkpoints (day, last_id, last_hash, signature, public_key, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const day = new Date(last.at).toISOString().slice(0, 10);
    // A valid DER shape, not a signature of anything.
    const bogus = '3044' + '0220' + '11'.repeat(32) + '0220' + '22'.repeat(32);
    insert.run(day, 3, last.hash, bogus, '02' + 'ab'.repeat(32), Date.now());
    try {
      let v = await verify();
      assert.equal(v.ok, false);
      assert.equal(v.firstMismatch?.id, 3);
      assert.match(v.firstMismatch!.reason, /checkpoint signed by another key/);
      db.db.prepare('UPDATE audit_checkpoints SET public_key = ? WHERE day = ?').run(publicKey, day);
      v = await verify();
      assert.equal(v.firstMismatch?.id, 3);
      assert.match(v.firstMismatch!.reason, /checkpoint signature invalid/);
    } finally {
      db.db.prepare('DELETE FROM audit_checkpoints WHERE day = ?').run(day);
    }
    assert.equal((await verify()).ok, true);
  });

  it('exports a date range as JSON and CSV with prev_hash and hash, and the key to check checkpoints', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const json = await orgCall(org, 'GET', `/api/v1/audit/export?from=2020-01-01&to=${today}&format=json`);
    assert.equal(json.status, 200, JSON.stringify(json.body));
    const { entries, csv, publicKeyPem } = json.body.data;
    assert.equal(csv, null);
    assert.match(publicKeyPem, /BEGIN PUBLIC KEY/);
    assert.equal(entries[0].id, 1);
    assert.equal(entries[0].prevHash, '0'.repeat(64));
    for (let i = 1; i < entries.length; i++) assert.equal(entries[i].prevHash, entries[i - 1].hash);
    // An auditor's recomputation from the export alone.
    for (const e of entries) assert.equal(entryHash(e.prevHash, { ...e, at: Date.parse(e.at) }), e.hash);

    const asCsv = await orgCall(org, 'GET', `/api/v1/audit/export?from=2020-01-01&to=${today}&format=csv`);
    assert.equal(asCsv.status, 200);
    const lines: string[] = asCsv.body.data.csv.trimEnd().split('\r\n');
    assert.match(lines[0], /,prev_hash,hash,/);
    assert.ok(lines[1].includes(entries[0].hash));

    const empty = await orgCall(org, 'GET', '/api/v1/audit/export?from=2020-01-01&to=2020-01-02');
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.body.data.entries, []);
    const backwards = await orgCall(org, 'GET', '/api/v1/audit/export?from=2020-01-02&to=2020-01-01');
    assert.equal(backwards.status, 400);
  });

  it('the export is itself audited, and verify still holds after it', async () => {
    const log = await orgCall(org, 'GET', '/api/v1/audit?limit=1');
    assert.equal(log.body.data.entries[0].action, 'auditExport');
    assert.equal((await verify()).ok, true);
  });

  it('anchoring is an admin switch; checkpoints list with the public key', async () => {
    assert.equal((await orgCall(org, 'GET', '/api/v1/audit/settings')).body.data.anchor, false);
    const on = await orgCall(org, 'POST', '/api/v1/audit/settings', { body: { anchor: true } });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    assert.equal(on.body.data.anchor, true);
    assert.equal(on.body.data.feeManagerReady, false);
    assert.equal((await orgCall(org, 'GET', '/api/v1/audit/settings')).body.data.anchor, true);
    const cps = await orgCall(org, 'GET', '/api/v1/audit/checkpoints');
    assert.equal(cps.status, 200);
    assert.deepEqual(cps.body.data.checkpoints, []);
    assert.match(cps.body.data.publicKey, /^0[23]/);
    assert.match(cps.body.data.publicKeyPem, /BEGIN PUBLIC KEY/);
  });

  it('refuses viewers and operators (403) on every audit route', async () => {
    for (const email of ['vera@acme.io', 'otto@acme.io']) {
      const login = await request(host.url, 'POST', '/api/v1/login', { body: { email, password: 'long-password-1' } });
      assert.equal(login.status, 200, JSON.stringify(login.body));
      const headers = { authToken: login.body.data.authToken, serviceid: org.serviceid };
      for (const [method, path, body] of [
        ['GET', '/api/v1/audit/verify'],
        ['GET', '/api/v1/audit/export?from=2020-01-01&to=2030-01-01'],
        ['GET', '/api/v1/audit/checkpoints'],
        ['GET', '/api/v1/audit/settings'],
        ['POST', '/api/v1/audit/settings', { anchor: false }],
      ] as const) {
        const r = await request(host.url, method, path, { headers, body });
        assert.equal(r.status, 403, `${email} ${method} ${path}: ${JSON.stringify(r.body)}`);
        assert.equal(r.body.data.code, 'ROLE_FORBIDDEN');
      }
    }
  });
});
