import type { Role } from '../../../shared/roles.js';
import type { Db } from '../database.js';

export interface UserRow {
  uid: string;
  email: string;
  passwordHash: string;
  role: Role;
  firstName: string;
  lastName: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  deletedAt: number | null;
}

interface RawUser {
  uid: string;
  email: string;
  password_hash: string;
  role: Role;
  first_name: string;
  last_name: string;
  title: string;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

const COLUMNS = 'uid, email, password_hash, role, first_name, last_name, title, created_at, updated_at, deleted_at';

function toUser(r: RawUser): UserRow {
  return {
    uid: r.uid,
    email: r.email,
    passwordHash: r.password_hash,
    role: r.role,
    firstName: r.first_name,
    lastName: r.last_name,
    title: r.title,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    deletedAt: r.deleted_at,
  };
}

export function createUserRepo(db: Db) {
  const byUid = db.prepare<[string], RawUser>(`SELECT ${COLUMNS} FROM users WHERE uid = ?`);
  const activeByEmail = db.prepare<[string], RawUser>(`SELECT ${COLUMNS} FROM users WHERE email = ? AND deleted_at IS NULL`);
  const countActive = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM users WHERE deleted_at IS NULL');
  const countActiveAdmins = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM users WHERE deleted_at IS NULL AND role = 'admin'");
  const adminSince = db.prepare<[string], { admin_since: number | null }>(
    "SELECT admin_since FROM users WHERE uid = ? AND deleted_at IS NULL AND role = 'admin'",
  );
  const roleSince = db.prepare<[string], { role_since: number | null }>(
    'SELECT role_since FROM users WHERE uid = ? AND deleted_at IS NULL',
  );
  const listActive = db.prepare<[], RawUser>(`SELECT ${COLUMNS} FROM users WHERE deleted_at IS NULL ORDER BY created_at, rowid`);
  const update = db.prepare(
    'UPDATE users SET role = @role, first_name = @firstName, last_name = @lastName, title = @title, updated_at = @updatedAt WHERE uid = @uid AND deleted_at IS NULL',
  );
  const setPassword = db.prepare('UPDATE users SET password_hash = ?, updated_at = ? WHERE uid = ? AND deleted_at IS NULL');
  const softDelete = db.prepare('UPDATE users SET deleted_at = ?, updated_at = ? WHERE uid = ? AND deleted_at IS NULL');
  const insert = db.prepare(
    `INSERT INTO users (${COLUMNS}) VALUES (@uid, @email, @passwordHash, @role, @firstName, @lastName, @title, @createdAt, @updatedAt, NULL)`,
  );
  return {
    byUid(uid: string): UserRow | null {
      const r = byUid.get(uid);
      return r ? toUser(r) : null;
    },
    activeByEmail(email: string): UserRow | null {
      const r = activeByEmail.get(email);
      return r ? toUser(r) : null;
    },
    countActive(): number {
      return countActive.get()!.n;
    },
    countActiveAdmins(): number {
      return countActiveAdmins.get()!.n;
    },
    /** When an active admin last became one (kept by the schema's triggers); null for anyone else. */
    adminSince(uid: string): number | null {
      return adminSince.get(uid)?.admin_since ?? null;
    },
    /** When an active user got the role they have now (kept by the schema's triggers); null for no such user. */
    roleSince(uid: string): number | null {
      return roleSince.get(uid)?.role_since ?? null;
    },
    listActive(): UserRow[] {
      return listActive.all().map(toUser);
    },
    insert(user: Omit<UserRow, 'deletedAt'>): void {
      insert.run(user);
    },
    update(u: Pick<UserRow, 'uid' | 'role' | 'firstName' | 'lastName' | 'title' | 'updatedAt'>): boolean {
      return update.run(u).changes > 0;
    },
    setPassword(uid: string, passwordHash: string, at: number): boolean {
      return setPassword.run(passwordHash, at, uid).changes > 0;
    },
    /** Users are never removed: their wallets and history stay with the organisation. */
    softDelete(uid: string, at: number): boolean {
      return softDelete.run(at, at, uid).changes > 0;
    },
  };
}
export type UserRepo = ReturnType<typeof createUserRepo>;
