import type { OperationName, OperationOutput, ParsedInput } from '../../shared/operations.js';
import { createApiKey, listApiKeys, revokeApiKey, rotateApiKey } from './auth/api-key-ops.js';
import { auditLog } from './audit/audit-log.js';
import type { OpContext } from './context.js';
import { appStatus } from './org/status.js';
import { createUser, deleteUser, listUsers, updateUser } from './users/manage.js';
import { changePassword, login, logout, me, setup } from './users/session-ops.js';
import { faucet, mineBlock, networkStatus } from './chain/chain-ops.js';
import { convertAmount, listRates, setRate } from './rates/rates.js';
import { compile } from './contracts/compile-op.js';
import { createWallet } from './wallets/create.js';
import { feeManagerAddresses, feeManagerInit, feeManagerMetrics } from './fees/fee-manager.js';
import { listPaymailHosts, setPaymailHost } from './paymail/host-ops.js';
import { history } from './payments/history.js';
import { lookup } from './payments/lookup.js';
import { pay } from './payments/pay.js';
import { quotePayment } from './payments/quote.js';
import { resolveUri } from './payments/resolve-op.js';
import { deleteAllWallets, deleteWallet, exportMnemonic, listWallets, setWalletMembers, walletAddress, walletAddresses } from './wallets/wallet-ops.js';

interface Handler<N extends OperationName> {
  /** The success message in `data.msg`. */
  msg: string;
  run(ctx: OpContext, input: ParsedInput<N>): OperationOutput<N> | Promise<OperationOutput<N>>;
  /** What an audited call acted on, for the audit log (never a secret). */
  target?: (input: ParsedInput<N>, output?: OperationOutput<N>) => string | null;
}

/** One handler per entry of the operations table in shared/; the type makes a missing one a compile error. */
export const HANDLERS: { [N in OperationName]: Handler<N> } = {
  appStatus: { msg: 'Status fetched successfully.', run: appStatus },
  setup: { msg: 'Organisation set up successfully.', run: setup, target: (i) => i.email },
  login: { msg: 'Logged in successfully.', run: login, target: (i) => i.email },
  logout: { msg: 'Logged out successfully.', run: logout },
  me: { msg: 'User fetched successfully.', run: me },
  changePassword: { msg: 'Password changed successfully.', run: changePassword },
  createApiKey: { msg: 'API key created. Copy it now: it is not shown again.', run: createApiKey, target: (_i, o) => o?.keyId ?? null },
  listApiKeys: { msg: 'API keys fetched successfully.', run: listApiKeys },
  rotateApiKey: { msg: 'API key rotated. Copy the new key now: it is not shown again.', run: rotateApiKey, target: (i) => i.keyId },
  revokeApiKey: { msg: 'API key revoked.', run: revokeApiKey, target: (i) => i.keyId },
  createUser: { msg: 'User created successfully.', run: createUser, target: (i, o) => o?.uid ?? i.email },
  updateUser: { msg: 'User updated successfully.', run: updateUser, target: (i) => i.userId },
  deleteUser: { msg: 'User deleted successfully.', run: deleteUser, target: (i) => i.userId },
  listUsers: { msg: 'Users fetched successfully.', run: listUsers },
  auditLog: { msg: 'Audit log fetched successfully.', run: auditLog },
  createWallet: { msg: 'Wallet created successfully.', run: createWallet, target: (_i, o) => o?.walletID ?? null },
  listWallets: { msg: 'Wallets fetched successfully.', run: listWallets },
  deleteWallet: { msg: 'Wallet deleted successfully.', run: deleteWallet, target: (i) => i.walletId ?? null },
  deleteAllWallets: { msg: 'All wallets deleted successfully.', run: deleteAllWallets },
  walletAddresses: { msg: 'Wallet addresses fetched successfully.', run: walletAddresses },
  walletAddress: { msg: 'Wallet address and paymail fetched successfully.', run: walletAddress },
  addresses: { msg: 'Wallet addresses fetched successfully.', run: walletAddresses },
  address: { msg: 'Wallet address and paymail fetched successfully.', run: walletAddress },
  exportMnemonic: { msg: 'Recovery phrase fetched. Keep it offline and private.', run: exportMnemonic, target: (i) => i.walletId ?? null },
  setWalletMembers: { msg: 'Wallet members updated.', run: setWalletMembers, target: (i) => i.walletId ?? null },
  networkStatus: { msg: 'Network status fetched successfully.', run: networkStatus },
  faucet: { msg: 'Test coins sent.', run: faucet },
  mineBlock: { msg: 'Block mined.', run: mineBlock },
  listRates: { msg: 'Exchange rates fetched successfully.', run: listRates },
  setRate: { msg: 'Exchange rate saved.', run: setRate, target: (i) => i.currency },
  convertAmount: { msg: 'Amount converted.', run: convertAmount },
  resolveUri: { msg: 'Operation completed successfully', run: resolveUri },
  quotePayment: { msg: 'Payment priced.', run: quotePayment },
  pay: { msg: 'Transaction sent successfully', run: pay, target: (_i, o) => o?.txid ?? null },
  history: { msg: 'History fetched successfully.', run: history },
  lookup: { msg: 'operation completed successfully', run: lookup },
  feeManagerInit: { msg: 'Fee manager init successfully', run: feeManagerInit, target: (_i, o) => o?.address ?? null },
  feeManagerAddresses: { msg: 'Operation Completed successfully', run: feeManagerAddresses },
  feeManagerMetrics: { msg: 'Operation successful', run: feeManagerMetrics },
  listPaymailHosts: { msg: 'Paymail hosts fetched successfully.', run: listPaymailHosts },
  setPaymailHost: { msg: 'Paymail host saved.', run: setPaymailHost, target: (i) => i.domain },
  compile: { msg: 'Operation completed successfully', run: compile },
};
