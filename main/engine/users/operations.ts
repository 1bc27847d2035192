import { ACCOUNT_OPERATIONS } from '../../../shared/contracts/account.js';
import { USER_OPERATIONS } from '../../../shared/contracts/users.js';
import { implement } from '../operation.js';
import type { AuthServices } from '../auth/services.js';
import { deleteAccount, requestPasswordReset, resetPassword, signUp } from './account-ops.js';
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

export const ACCOUNT_IMPLEMENTATIONS = implement<AuthServices>()(ACCOUNT_OPERATIONS, {
  signUp: { run: signUp },
  requestPasswordReset: { run: requestPasswordReset },
  resetPassword: { run: resetPassword, target: (i) => i.userId },
  deleteAccount: { run: deleteAccount },
});
