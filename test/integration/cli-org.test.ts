import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PrivateKey } from '@bsv/sdk';
import { openStore, type Store } from '../../main/store/database.js';
import { keystead } from '../helpers/cli.js';
import { startHeadless } from '../helpers/headless.js';
import { request } from '../helpers/http.js';
import { orgCall, setUpOrg, type Org } from '../helpers/org.js';
import { tempDir } from '../helpers/tmp.js';

const PASSWORD = 'cli-org-db-password-1';

/**
 * `keystead audit verify | export` and `keystead payees [add | remove]` against a running Keystead: the CLI learns
 * the organisation's serviceid from `me`, so a token is all it needs. Verify holds on a fresh organisation and
 * exits 5 naming the entry once a row is edited in the database; the export carries the hashes; an admin keeps
 * the payee book, an operator reads it and is refused a change.
 */
describe('the CLI for the audit trail and the payee book', () => {
  const dataDir = tempDir();
  let org: Org;
  let db: Store;
  let admin: Record<string, string>;
  let operator: Record<string, string>;
  const today = new Date().toISOString().slice(0, 10);

  before(async () => {
    org = await setUpOrg(await startHeadless({ dataDir, password: PASSWORD }));
    admin = { KEYSTEAD_URL: org.host.url, KEYSTEAD_TOKEN: org.auth.authToken };
    const made = await orgCall(org, 'POST', '/api/v1/createUser', {
      body: { email: 'operator@acme.io', password: 'role-password-1', role: 'operator' },
    });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const s = await request(org.host.url, 'POST', '/api/v1/login', { body: { email: 'operator@acme.io', password: 'role-password-1' } });
    operator = { KEYSTEAD_URL: org.host.url, KEYSTEAD_TOKEN: s.body.data.authToken };
    db = openStore({ dataDir, password: PASSWORD });
  });
  after(async () => {
    db?.close();
    await org.host.stop();
  });

  it('audit verify: ok on a fresh organisation; an entry edited in the database is named, with exit code 5', async () => {
    const ok = await keystead(['audit', 'verify'], admin);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /^ok: \d+ entries and \d+ checkpoints verified; audit key 0[23][0-9a-f]{64}\n$/);
    const json = JSON.parse((await keystead(['audit', 'verify', '--json'], admin)).stdout);
    assert.deepEqual([json.ok, json.firstMismatch], [true, null]);

    const { action } = db.db.prepare('SELECT action FROM audit_log WHERE id = 2').get() as { action: string };
    db.db.prepare("UPDATE audit_log SET action = 'listUsers' WHERE id = 2").run();
    try {
      const bad = await keystead(['audit', 'verify'], admin);
      assert.equal(bad.code, 5, bad.stderr);
      assert.match(bad.stdout, new RegExp(`^mismatch at entry 2 \\(\\d{4}-\\d{2}-\\d{2}\\): hash of entry 2 does not match its content`));
    } finally {
      db.db.prepare('UPDATE audit_log SET action = ? WHERE id = 2').run(action);
    }
    assert.equal((await keystead(['audit', 'verify'], admin)).code, 0);

    const refused = await keystead(['audit', 'verify'], operator);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /ROLE_FORBIDDEN/);
  });

  it('audit export: CSV with the hashes on stdout, JSON to a file', async () => {
    const csv = await keystead(['audit', 'export', '--from', '2020-01-01', '--to', today, '--format', 'csv'], admin);
    assert.equal(csv.code, 0, csv.stderr);
    const [head, ...rows] = csv.stdout.trim().split(/\r?\n/);
    assert.match(head, /^id,at,actor_uid,actor_email,action,target,outcome,code,client,prev_hash,hash/);
    assert.ok(rows.length >= 2, csv.stdout);
    assert.match(rows[0], /^1,.*,0{64},[0-9a-f]{64}/, 'the first entry chains from the genesis hash');

    const file = path.join(tempDir(), 'audit.json');
    const written = await keystead(['audit', 'export', '--from', '2020-01-01', '--to', today, '--out', file], admin);
    assert.equal(written.code, 0, written.stderr);
    assert.equal(written.stdout, '');
    assert.match(written.stderr, new RegExp(`Wrote \\d+ entries and \\d+ checkpoints \\(2020-01-01 to ${today}, json\\) to `));
    const json = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(json.format, 'json');
    assert.ok(json.entries.length >= 2);
    for (const e of json.entries) assert.match(e.hash, /^[0-9a-f]{64}$/);

    const noRange = await keystead(['audit', 'export', '--from', '2020-01-01'], admin);
    assert.deepEqual([noRange.code, /needs --from and --to as YYYY-MM-DD/.test(noRange.stderr)], [2, true]);
    const badFormat = await keystead(['audit', 'export', '--from', '2020-01-01', '--to', today, '--format', 'xml'], admin);
    assert.deepEqual([badFormat.code, /--format must be csv or json/.test(badFormat.stderr)], [2, true]);
    const backwards = await keystead(['audit', 'export', '--from', '2020-01-02', '--to', '2020-01-01'], admin);
    assert.deepEqual([backwards.code, /from must be on or before to/.test(backwards.stderr)], [1, true]);
  });

  it('payees: an admin adds, lists and removes; an operator reads the book and is refused a change', async () => {
    assert.match((await keystead(['payees'], admin)).stdout, /No payees in the book\.\nCooling-off period: 24 hours\./);
    const added = await keystead(['payees', 'add', '--name', 'Alice Ltd', '--destination', 'Alice@Example.com', '--note', 'rent'], admin);
    assert.equal(added.code, 0, added.stderr);
    const id = added.stdout.trim();
    assert.match(id, /^payee_/);
    assert.match(added.stderr, /Added Alice Ltd \(paymail alice@example\.com\); it may be paid without approvers from /);

    const listed = await keystead(['payees'], operator);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, new RegExp(`${id}  Alice Ltd  paymail alice@example\\.com  cooling off until \\S+  "rent"`));
    const json = JSON.parse((await keystead(['payees', '--json'], operator)).stdout);
    assert.deepEqual(
      json.payees.map((p: { payeeId: string; name: string }) => [p.payeeId, p.name]),
      [[id, 'Alice Ltd']],
    );

    const address = PrivateKey.fromRandom().toAddress();
    const refused = await keystead(['payees', 'add', '--name', 'Mallory', '--destination', address], operator);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^keystead: .*\(ROLE_FORBIDDEN\)/);
    const notRemoved = await keystead(['payees', 'remove', id], operator);
    assert.deepEqual([notRemoved.code, /ROLE_FORBIDDEN/.test(notRemoved.stderr)], [1, true]);

    const removed = await keystead(['payees', 'remove', id], admin);
    assert.equal(removed.code, 0, removed.stderr);
    assert.match(removed.stdout, new RegExp(`Removed Alice Ltd \\(${id}\\)`));
    assert.match((await keystead(['payees'], admin)).stdout, /No payees in the book\./);
    assert.match((await keystead(['payees', '--all'], admin)).stdout, new RegExp(`${id}  Alice Ltd  paymail alice@example\\.com  removed`));
  });

  it('says what is wrong with the usage', async () => {
    const noName = await keystead(['payees', 'add', '--destination', 'bob@example.com'], admin);
    assert.deepEqual([noName.code, /payees add needs --name and --destination/.test(noName.stderr)], [2, true]);
    const unknown = await keystead(['payees', 'rename'], admin);
    assert.deepEqual([unknown.code, /payees takes list, add or remove/.test(unknown.stderr)], [2, true]);
    const noSub = await keystead(['audit'], admin);
    assert.deepEqual([noSub.code, /audit needs verify or export/.test(noSub.stderr)], [2, true]);
    const noCredentials = await keystead(['payees'], { KEYSTEAD_URL: org.host.url });
    assert.deepEqual([noCredentials.code, /no credentials/.test(noCredentials.stderr)], [2, true]);
    assert.match((await keystead(['help', 'audit'], {})).stdout, /--format csv\|json/);
    assert.match((await keystead(['--help'], {})).stdout, /payees add --name <name> --destination/);
  });
});
