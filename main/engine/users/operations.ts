import { USER_OPERATIONS } from '../../../shared/contracts/users.js';
import { implement } from '../operation.js';
import type { AuthServices } from '../auth/services.js';
import { createUser, deleteUser, listUsers, updateUser } from './manage.js';
import { changePassword, login, logout, me, setup } from './session-ops.js';

export const USER_IMPLEMENTATIONS = implement<AuthServices>()(USER_OPERATIONS, {
  setup: { run: setup, target: (i) => i.email },
  login: { run: login, target: (i) => i.email },
  logout: { run: logout },
  me: { run: me },
  changePassword: { run: changePassword },
  createUser: { run: createUser, target: (i, o) => o?.uid ?? i.email },
  updateUser: { run: updateUser, target: (i) => i.userId },
  deleteUser: { run: deleteUser, target: (i) => i.userId },
  listUsers: { run: listUsers },
});
