import type Database from 'better-sqlite3-multiple-ciphers';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * Applies the migrations newer than the database's `user_version`, each in its own transaction together
 * with the version bump, so a crash leaves the schema at a whole version. A database newer than this
 * build is refused rather than written to.
 */
export function migrate(db: Database.Database, migrations: readonly Migration[]): number {
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  sorted.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`Migrations must be numbered 1..n without gaps; found ${m.version} at ${i + 1}.`);
  });
  const current = db.pragma('user_version', { simple: true }) as number;
  const latest = sorted.length;
  if (current > latest) {
    throw new Error(`This database was written by a newer Keystead (schema ${current}; this build knows ${latest}). Upgrade Keystead.`);
  }
  for (const m of sorted.slice(current)) {
    db.transaction(() => {
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
  return latest;
}
