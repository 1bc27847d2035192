import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { Vault } from '../../main/host/vault.js';
import { ADMIN } from '../helpers/http.js';
import { tempDir } from '../helpers/tmp.js';

function vaultIn(dataDir: string, extra: Partial<ConstructorParameters<typeof Vault>[0]> = {}) {
  return new Vault({ dataDir, port: 0, network: 'local', version: 'test', sessionTtlSeconds: 3600, ...extra });
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
    assert.ok(
      twice.every((r) => r.ok),
      'concurrent unlocks open the database once',
    );
    await vault.close();
    assert.equal(vault.status().unlocked, false);
  });

  it('throttles wrong passwords on the unlock screen before deriving the key, and never changes a file', async () => {
    const dir = tempDir();
    const first = vaultIn(dir);
    assert.ok((await first.setup(ADMIN)).ok);
    await first.close();
    const now = { t: 0 };
    const vault = vaultIn(dir, {
      throttle: { freeFailures: 3, baseDelayMs: 60_000, maxDelayMs: 600_000, windowMs: 3_600_000 },
      now: () => now.t,
    });
    const files = () =>
      readdirSync(dir)
        .sort()
        .map((f) => [f, readFileSync(path.join(dir, f)).toString('base64')]);
    const before = files();
    const codes: string[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await vault.unlock({ email: ADMIN.email, password: `wrong-${i}-pass` });
      codes.push(r.ok ? 'ok' : r.error.code);
    }
    assert.deepEqual(codes, [
      'INVALID_CREDENTIALS',
      'INVALID_CREDENTIALS',
      'INVALID_CREDENTIALS',
      'INVALID_CREDENTIALS',
      'RATE_LIMITED',
      'RATE_LIMITED',
    ]);
    const limited = await vault.unlock({ email: ADMIN.email, password: ADMIN.password });
    assert.equal(!limited.ok && limited.error.code, 'RATE_LIMITED', 'even the right password waits its turn');
    assert.equal(!limited.ok && typeof limited.error.retryAfter, 'number');
    assert.deepEqual(files(), before, 'wrong passwords changed nothing in the data directory');
    now.t += 60_000;
    const ok = await vault.unlock({ email: ADMIN.email, password: ADMIN.password });
    assert.ok(ok.ok, JSON.stringify(ok));
    await vault.close();
  });
});
