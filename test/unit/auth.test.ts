import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decoyHash, hashPassword, verifyPassword } from '../../main/engine/auth/password.js';
import { LoginThrottle } from '../../main/engine/auth/throttle.js';
import { hashSecret, newSecret } from '../../main/engine/auth/tokens.js';
import { normalizeRole } from '../../shared/roles.js';

describe('passwords', () => {
  it('hashes with scrypt and a random salt, and verifies', async () => {
    const a = await hashPassword('correct-horse-1');
    const b = await hashPassword('correct-horse-1');
    assert.match(a, /^scrypt\$32768\$8\$1\$/);
    assert.notEqual(a, b);
    assert.equal(await verifyPassword('correct-horse-1', a), true);
    assert.equal(await verifyPassword('correct-horse-2', a), false);
    assert.equal(await verifyPassword('correct-horse-1', 'garbage'), false);
    assert.equal(await verifyPassword('x', await decoyHash()), false);
  });
});

describe('secrets', () => {
  it('are long, random, prefixed, and stored as SHA-256', () => {
    const s = newSecret('kst');
    assert.match(s, /^kst_[A-Za-z0-9_-]{43}$/);
    assert.notEqual(s, newSecret('kst'));
    assert.match(hashSecret(s), /^[0-9a-f]{64}$/);
    assert.equal(hashSecret(s), hashSecret(s));
  });
});

describe('login throttle', () => {
  it('lets a few failures through, then doubles the wait, and forgets on success', () => {
    let now = 0;
    const t = new LoginThrottle({ freeFailures: 3, baseDelayMs: 1000, maxDelayMs: 8000, windowMs: 60_000 }, () => now);
    const keys = ['email:a', 'client:1'];
    for (let i = 0; i < 3; i++) {
      assert.equal(t.waitMs(keys), 0);
      t.fail(keys);
    }
    assert.equal(t.waitMs(keys), 0);
    t.fail(keys);
    assert.equal(t.waitMs(keys), 1000);
    now += 1000;
    t.fail(keys);
    assert.equal(t.waitMs(keys), 2000);
    for (let i = 0; i < 10; i++) t.fail(keys);
    assert.equal(t.waitMs(keys), 8000, 'capped');
    assert.equal(t.waitMs(['email:other']), 0, 'other accounts are free');
    assert.equal(t.waitMs(['email:other', 'client:1']), 8000, 'but not from the same client');
    t.succeed(['email:a']);
    assert.equal(t.waitMs(['email:a']), 0);
    now += 120_000;
    assert.equal(t.waitMs(['client:1']), 0, 'old failures are forgotten');
  });
});

describe('roles', () => {
  it('normalises the spellings the spec and clients use', () => {
    assert.equal(normalizeRole('Api User'), 'api_user');
    assert.equal(normalizeRole(' MANAGER '), 'manager');
    assert.equal(normalizeRole('api-user'), 'api_user');
    assert.equal(normalizeRole('Admin'), 'admin');
    assert.equal(normalizeRole('root'), null);
    assert.equal(normalizeRole(3), null);
  });
});
