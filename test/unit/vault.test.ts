import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { Vault } from '../../main/host/vault.js';
import { ADMIN } from '../helpers/http.js';
import { tempDir } from '../helpers/tmp.js';

function vaultIn(dataDir: string) {
  return new Vault({ dataDir, port: 0, network: 'local', version: 'test', sessionTtlSeconds: 3600 });
}

describe('desktop vault (locked/unlocked lifecycle)', () => {
  it('first run creates the database with the admin password and signs in', async () => {
    const dir = tempDir();
    const vault = vaultIn(dir);
    assert.deepEqual(vault.status(), { exists: false, unlocked: false, apiUrl: null, dataDir: dir });
    const locked = await vault.execute('me', {}, {}, 'ipc:1');
    assert.equal(locked.ok, false);
    assert.equal(!locked.ok && locked.error.code, 'NOT_READY');

    const r = await vault.setup(ADMIN);
    assert.ok(r.ok, JSON.stringify(r));
    const status = vault.status();
    assert.equal(status.exists && status.unlocked, true);
    assert.match(status.apiUrl!, /^http:\/\/127\.0\.0\.1:\d+$/);
    const health = await fetch(`${status.apiUrl}/health`);
    assert.equal(health.status, 200, 'the local API runs once unlocked');
    const me = await vault.execute('me', {}, { authToken: r.output.authToken }, 'ipc:1');
    assert.ok(me.ok && me.output.email === ADMIN.email);
    const again = await vault.setup(ADMIN);
    assert.equal(!again.ok && again.error.code, 'ALREADY_SET_UP');
    await vault.close();
  });

  it('bad first-run input creates nothing', async () => {
    const dir = tempDir();
    const vault = vaultIn(dir);
    const r = await vault.setup({ ...ADMIN, email: 'nope' });
    assert.equal(!r.ok && r.error.code, 'VALIDATION_FAILED');
    assert.equal(!r.ok && r.error.kind, 'invalid');
    assert.equal(existsSync(path.join(dir, 'keystead.db')), false);
  });

  it('unlocks with the owner password only, then behaves as login', async () => {
    const dir = tempDir();
    const first = vaultIn(dir);
    assert.ok((await first.setup(ADMIN)).ok);
    await first.close();

    const vault = vaultIn(dir);
    assert.deepEqual({ ...vault.status(), dataDir: undefined }, { exists: true, unlocked: false, apiUrl: null, dataDir: undefined });
    const wrong = await vault.unlock({ email: ADMIN.email, password: 'wrong-pass-1' });
    assert.equal(!wrong.ok && wrong.error.code, 'INVALID_CREDENTIALS');
    assert.equal(vault.status().unlocked, false);
    const ok = await vault.unlock({ email: ADMIN.email, password: ADMIN.password });
    assert.ok(ok.ok && ok.output.role === 'admin');
    const twice = await Promise.all([
      vault.unlock({ email: ADMIN.email, password: ADMIN.password }),
      vault.unlock({ email: ADMIN.email, password: ADMIN.password }),
    ]);
    assert.ok(twice.every((r) => r.ok), 'concurrent unlocks open the database once');
    await vault.close();
    assert.equal(vault.status().unlocked, false);
  });
});
