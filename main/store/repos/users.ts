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
    insert(user: Omit<UserRow, 'deletedAt'>): void {
      insert.run(user);
    },
  };
}
export type UserRepo = ReturnType<typeof createUserRepo>;
