import { ROLES, type Role } from '../roles.js';

/** Who may call what, in the groups the contracts use. The spec's rules where it has them. */
export const ALL_ROLES = ROLES;
export const ADMIN: readonly Role[] = ['admin'];
/** Roles that hold and move money; viewers only look. */
export const WALLET_USERS: readonly Role[] = ['admin', 'manager', 'operator', 'api_user'];
/** Exporting a recovery phrase is for people, not scripts. */
export const SEED_EXPORTERS: readonly Role[] = ['admin', 'manager', 'operator'];
/** Running the organisation's money: the fee manager, rates, the local chain's faucet. */
export const TREASURY: readonly Role[] = ['admin', 'manager'];
