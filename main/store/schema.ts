import type { Migration } from './migrations.js';

/** The schema, one migration per change; never edit a released migration, add the next one. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'organisation, users, sessions',
    sql: `
      CREATE TABLE organisation (
        id          INTEGER PRIMARY KEY CHECK (id = 1),
        service_id  TEXT NOT NULL UNIQUE,
        name        TEXT NOT NULL,
        created_at  INTEGER NOT NULL
      );
      CREATE TABLE users (
        uid            TEXT PRIMARY KEY,
        email          TEXT NOT NULL,
        password_hash  TEXT NOT NULL,
        role           TEXT NOT NULL CHECK (role IN ('admin','manager','operator','viewer','api_user')),
        first_name     TEXT NOT NULL DEFAULT '',
        last_name      TEXT NOT NULL DEFAULT '',
        title          TEXT NOT NULL DEFAULT '',
        created_at     INTEGER NOT NULL,
        updated_at     INTEGER NOT NULL,
        deleted_at     INTEGER
      );
      CREATE UNIQUE INDEX users_active_email ON users(email) WHERE deleted_at IS NULL;
      CREATE TABLE sessions (
        token_hash  TEXT PRIMARY KEY,
        uid         TEXT NOT NULL REFERENCES users(uid),
        created_at  INTEGER NOT NULL,
        expires_at  INTEGER NOT NULL,
        revoked_at  INTEGER
      );
      CREATE INDEX sessions_by_uid ON sessions(uid);
    `,
  },
  {
    version: 2,
    name: 'api keys, audit log',
    sql: `
      CREATE TABLE api_keys (
        key_id        TEXT PRIMARY KEY,
        uid           TEXT NOT NULL REFERENCES users(uid),
        key_hash      TEXT NOT NULL UNIQUE,
        label         TEXT NOT NULL DEFAULT '',
        created_at    INTEGER NOT NULL,
        last_used_at  INTEGER,
        revoked_at    INTEGER
      );
      CREATE INDEX api_keys_by_uid ON api_keys(uid);
      CREATE TABLE audit_log (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        at          INTEGER NOT NULL,
        actor_uid   TEXT,
        actor_email TEXT,
        action      TEXT NOT NULL,
        target      TEXT,
        outcome     TEXT NOT NULL CHECK (outcome IN ('success','error')),
        code        TEXT,
        client      TEXT
      );
    `,
  },
];
