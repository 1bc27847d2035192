import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openStore, type Store } from '../../main/store/database.js';
import type { Migration } from '../../main/store/migrations.js';
import { MIGRATIONS } from '../../main/store/schema.js';
import { sqlStringList } from '../../main/store/sql-list.js';
import { ROLES } from '../../shared/roles.js';
import { tempDir } from '../helpers/tmp.js';

/**
 * The roles the users table's CHECK allowed when data directories were created by the releases so far
 * (migration 1). Such a database keeps that CHECK: a role added to shared/roles.ts needs a migration that
 * widens it, or those databases refuse the new role, which the second test below shows.
 */
const RELEASED_ROLES = ['admin', 'manager', 'operator', 'viewer', 'api_user'];

/** The migrations as a release with `roles` wrote them: the stored schema of its data directories. */
function migrationsWithRoles(roles: readonly string[]): Migration[] {
  const current = `CHECK (role IN (${sqlStringList(ROLES)}))`;
  assert.ok(MIGRATIONS[0].sql.includes(current), 'migration 1 writes the role CHECK from shared/roles.ts');
  return MIGRATIONS.map((m) => (m.version === 1 ? { ...m, sql: m.sql.replace(current, `CHECK (role IN (${sqlStringList(roles)}))`) } : m));
}

function storeUser(store: Store, uid: string, role: string): void {
  store.db
    .prepare('INSERT INTO users (uid, email, password_hash, role, created_at, updated_at) VALUES (?, ?, ?, ?, 0, 0)')
    .run(uid, `${uid}@example.com`, 'x', role);
}

function assertEveryRoleStored(store: Store, where: string): void {
  for (const role of ROLES)
    assert.doesNotThrow(
      () => storeUser(store, `u-${role}`, role),
      `${where} refuses the role ${role}: add a migration that widens users.role's CHECK`,
    );
  assert.throws(() => storeUser(store, 'u-nobody', 'superuser'), /CHECK constraint failed/, `${where} still refuses what is not a role`);
}

describe('the users table takes every role in shared/roles.ts', () => {
  it('writes the released CHECK text for the released roles, quoting as SQL does', () => {
    assert.equal(sqlStringList(RELEASED_ROLES), "'admin','manager','operator','viewer','api_user'");
    assert.equal(sqlStringList(["o'k"]), "'o''k'");
  });

  it('in a new data directory, and in one created by an earlier release and opened by this one', () => {
    const fresh = openStore({ dataDir: tempDir(), password: 'pw' });
    try {
      assertEveryRoleStored(fresh, 'a new database');
    } finally {
      fresh.close();
    }
    const released = migrationsWithRoles(RELEASED_ROLES);
    // Created at schema 1 and upgraded by this build, or created at this build's schema version by an earlier release.
    for (const createdAt of [1, MIGRATIONS.length]) {
      const dataDir = tempDir();
      openStore({ dataDir, password: 'pw', migrations: released.slice(0, createdAt) }).close();
      const store = openStore({ dataDir, password: 'pw' });
      try {
        assertEveryRoleStored(store, `a database created at schema ${createdAt} by an earlier release`);
      } finally {
        store.close();
      }
    }
  });
});
