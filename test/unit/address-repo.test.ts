import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openStore } from '../../main/store/database.js';
import { createRepos } from '../../main/store/repos/index.js';
import { tempDir } from '../helpers/tmp.js';

/**
 * The address queries a pay makes (the next unused change address, the highest used one, how many are
 * derived) answer from an index, and give the same answers as a walk over every address would, whatever the
 * pattern of used and unused addresses (a failed payment hands its change address back below used ones).
 */
describe('address repository', () => {
  function walletWithAddresses(count: number, used: (idx: number) => boolean) {
    const store = openStore({ dataDir: tempDir(), password: 'pw' });
    const repos = createRepos(store.db);
    store.db.prepare("INSERT INTO organisation VALUES (1, 'svc', 'Org', 0)").run();
    repos.users.insert({
      uid: 'u1',
      email: 'a@b.c',
      passwordHash: 'x',
      role: 'admin',
      firstName: 'A',
      lastName: 'B',
      title: '',
      createdAt: 0,
      updatedAt: 0,
    });
    const row = repos.wallets.insert({
      walletId: 'w1',
      ownerUid: 'u1',
      title: 'W',
      logo: '',
      type: 'standard',
      derivationPath: "m/44'/236'/0'",
      accountXpub: 'xpub',
      sealedSeed: 'sealed',
      paymailAlias: null,
      paymailDomain: null,
      paymailActive: false,
      createdAt: 0,
    });
    for (const chain of [0, 1] as const)
      repos.addresses.insertMany(
        row,
        Array.from({ length: count }, (_, idx) => ({ chain, idx, address: `a-${chain}-${idx}` })),
        0,
      );
    for (let idx = 0; idx < count; idx++) if (used(idx)) repos.addresses.markUsed(row, `a-1-${idx}`);
    return { store, repos, row };
  }

  /** What a walk over every address says. */
  function walked(store: ReturnType<typeof openStore>, row: number) {
    const all = store.db.prepare('SELECT idx, used FROM addresses WHERE wallet_row = ? AND chain = 1 ORDER BY idx').all(row) as {
      idx: number;
      used: number;
    }[];
    return {
      firstUnused: all
        .filter((a) => a.used === 0)
        .slice(0, 3)
        .map((a) => a.idx),
      highestUsed: Math.max(-1, ...all.filter((a) => a.used === 1).map((a) => a.idx)),
      count: all.length,
    };
  }

  for (const [name, count, used] of [
    ['none used', 25, () => false],
    ['every one used', 25, () => true],
    ['the first 2,000 used, a gap after', 2_020, (i: number) => i < 2_000],
    ['holes left by failed payments among used ones', 500, (i: number) => i % 7 !== 3 && i < 480],
  ] as const) {
    it(`answers as a walk does: ${name}`, () => {
      const { store, repos, row } = walletWithAddresses(count, used);
      try {
        const expected = walked(store, row);
        assert.deepEqual(
          repos.addresses.unused(row, 1, 3).map((a) => a.idx),
          expected.firstUnused,
        );
        assert.equal(repos.addresses.highestUsed(row, 1), expected.highestUsed);
        assert.equal(repos.addresses.count(row, 1), expected.count);
        // A change address handed back (its payment failed) is the next one claimed again.
        if (expected.highestUsed > 0) {
          repos.addresses.markUnused(row, `a-1-0`);
          assert.equal(repos.addresses.unused(row, 1, 1)[0].idx, 0);
        }
        assert.equal(repos.addresses.count(row, 0), count);
      } finally {
        store.close();
      }
    });
  }

  it('reads the unused addresses from their index, not by walking the used ones', () => {
    const { store, row } = walletWithAddresses(1, () => false);
    try {
      const plan = (sql: string) =>
        (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(row) as { detail: string }[]).map((r) => r.detail).join(' ');
      assert.match(
        plan('SELECT chain, idx, address, used FROM addresses WHERE wallet_row = ? AND chain = 1 AND used = 0 ORDER BY idx LIMIT 1'),
        /USING INDEX addresses_unused/,
      );
    } finally {
      store.close();
    }
  });
});
