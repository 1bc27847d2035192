import type { UserOutput } from '../../../shared/operations.js';
import type { UserRow } from '../../store/repos/users.js';

/** A user as the API shows it: never the password hash. */
export function toUserOutput(u: UserRow): UserOutput {
  return {
    uid: u.uid,
    email: u.email,
    role: u.role,
    firstName: u.firstName,
    lastName: u.lastName,
    title: u.title,
    createdAt: new Date(u.createdAt).toISOString(),
    updatedAt: new Date(u.updatedAt).toISOString(),
  };
}
