import { canCall, OPERATIONS as OPS, type AnyContract } from './operations.js';
import type { Role } from './roles.js';

/** What a role may do, in words, each backed by the operation that decides it (so the words cannot drift). */
const ABILITIES: readonly [string, AnyContract][] = [
  ['manage users', OPS.createUser],
  ['read the audit log', OPS.auditLog],
  ['run the fee manager and exchange rates', OPS.feeManagerInit],
  ['issue and redeem tokens', OPS.issueToken],
  ['create wallets and pay', OPS.pay],
  ['show recovery phrases', OPS.exportMnemonic],
  ['see wallets, balances and history', OPS.history],
  ['compile contracts', OPS.compile],
];

/** "May manage users, read the audit log, …; may not …." for a role, from the operations table. */
export function roleHelp(role: Role): string {
  const may = ABILITIES.filter(([, op]) => canCall(role, op)).map(([what]) => what);
  const mayNot = ABILITIES.filter(([, op]) => !canCall(role, op)).map(([what]) => what);
  return `May ${may.join(', ')}.${mayNot.length ? ` May not ${mayNot.join(', ')}.` : ''}`;
}
