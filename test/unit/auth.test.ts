import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decoyHash, hashPassword, verifyPassword } from '../../main/engine/auth/password.js';
import { accountKey, Throttle } from '../../main/engine/auth/throttle.js';
import { clientKey } from '../../main/engine/client-key.js';
import type { DomainError } from '../../shared/errors.js';
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

describe('password throttle', () => {
  const opts = { freeFailures: 3, baseDelayMs: 1000, maxDelayMs: 8000, windowMs: 60_000 };
  const guess = (t: Throttle, keys: string[], right = false) => {
    const ticket = t.admit(keys);
    if (right) ticket.succeed(keys.filter((k) => k.startsWith('account:')));
    else ticket.fail();
  };

  it('lets a few failures through, then doubles the wait, and forgets on success', () => {
    let now = 0;
    const t = new Throttle(opts, () => now);
    const keys = ['account:a', 'client:1'];
    for (let i = 0; i < 3; i++) guess(t, keys);
    assert.equal(t.waitMs(keys), 0);
    guess(t, keys);
    assert.equal(t.waitMs(keys), 1000);
    assert.throws(
      () => t.admit(keys),
      (e: DomainError) => e.code === 'RATE_LIMITED' && e.details.retryAfter === 1,
    );
    now += 1000;
    guess(t, keys);
    assert.equal(t.waitMs(keys), 2000);
    for (let i = 0; i < 10; i++) {
      now += 8000;
      guess(t, keys);
    }
    assert.equal(t.waitMs(keys), 8000, 'capped');
    assert.equal(t.waitMs(['account:other']), 0, 'other accounts are free');
    assert.equal(t.waitMs(['account:other', 'client:1']), 8000, 'but not from the same client');
    now += 8000;
    guess(t, keys, true);
    assert.equal(t.waitMs(['account:a']), 0, 'a right password clears the account');
    now += 120_000;
    assert.equal(t.waitMs(['client:1']), 0, 'old failures are forgotten');
  });

  it('admits guesses sent in parallel no faster than the same guesses one after another', () => {
    const sequential = new Throttle(opts, () => 0);
    let admittedOneByOne = 0;
    for (let i = 0; i < 100; i++) {
      try {
        guess(sequential, ['account:a']);
        admittedOneByOne += 1;
      } catch {
        /* throttled */
      }
    }
    const parallel = new Throttle(opts, () => 0);
    const tickets = [];
    for (let i = 0; i < 100; i++) {
      try {
        tickets.push(parallel.admit(['account:a'])); // all reserved before any hash finishes
      } catch {
        /* throttled */
      }
    }
    for (const ticket of tickets) ticket.fail();
    assert.equal(admittedOneByOne, opts.freeFailures + 1);
    assert.ok(tickets.length <= admittedOneByOne, `${tickets.length} parallel guesses were evaluated`);
    assert.ok(parallel.waitMs(['account:a']) > 0);
  });

  it('counts a guess that ended in an exception as a failure, and a right one only once', () => {
    const t = new Throttle(opts, () => 0);
    for (let i = 0; i < 4; i++) {
      const ticket = t.admit(['account:a']);
      ticket.release(); // e.g. the hash threw
      ticket.fail(); // settling twice counts once
    }
    assert.ok(t.waitMs(['account:a']) > 0);
  });

  it('treats every loopback address as one client', () => {
    assert.equal(clientKey('127.0.0.1'), clientKey('127.45.6.7'));
    assert.equal(clientKey('::1'), clientKey('::ffff:127.0.0.9'));
    assert.notEqual(clientKey('10.0.0.1'), clientKey('127.0.0.1'));
    assert.equal(accountKey(' Ada@Acme.io '), accountKey('ada@acme.io'));
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
