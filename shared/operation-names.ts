/**
 * The names of all operations, with no schema attached: what the preload needs to build its named
 * functions without bundling zod. shared/operations.ts must define exactly these (checked by its type).
 */
export const OPERATION_NAMES = [
  'appStatus',
  'setup',
  'login',
  'logout',
  'me',
  'changePassword',
  'createApiKey',
  'listApiKeys',
  'rotateApiKey',
  'revokeApiKey',
  'createUser',
  'updateUser',
  'deleteUser',
  'listUsers',
  'auditLog',
  'createWallet',
  'listWallets',
  'deleteWallet',
  'deleteAllWallets',
  'walletAddresses',
  'walletAddress',
  'addresses',
  'address',
  'exportMnemonic',
  'setWalletMembers',
  'networkStatus',
  'faucet',
  'mineBlock',
  'listRates',
  'setRate',
  'convertAmount',
] as const;
export type OperationName = (typeof OPERATION_NAMES)[number];
