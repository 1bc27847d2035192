import type { z } from 'zod';
import type { AnyContract, InputOf, OutputOf, ParsedInputOf } from './operation.js';
import type { Role } from './roles.js';
import { ACCOUNT_OPERATIONS } from './contracts/account.js';
import { NOT_OFFERED_OPERATIONS } from './contracts/not-offered.js';
import { WALLET_PAYMAIL_OPERATIONS } from './contracts/wallet-paymail.js';
import { API_KEY_OPERATIONS, apiKeyInfo, newApiKey } from './contracts/auth.js';
import { SECOND_FACTOR_OPERATIONS } from './contracts/second-factor.js';
import { AUDIT_OPERATIONS, auditEntry } from './contracts/audit.js';
import { CHAIN_OPERATIONS } from './contracts/chain.js';
import { EVENT_OPERATIONS } from './contracts/events.js';
import { compileDiagnostic, CONTRACT_OPERATIONS, transpileLog } from './contracts/contracts.js';
import { FEE_OPERATIONS, feeUtxo } from './contracts/fees.js';
import { INVOICE_OPERATIONS, invoiceOutput, publicInvoice } from './contracts/invoices.js';
import { ORG_OPERATIONS, appStatusOutput } from './contracts/org.js';
import { PAYMAIL_OPERATIONS } from './contracts/paymail.js';
import { PAYEE_OPERATIONS, payeeOutput } from './contracts/payees.js';
import { APP_OPERATIONS, appOutput } from './contracts/apps.js';
import { APP_PERMISSION_OPERATIONS, appSpendingOutput, permissionOutput } from './contracts/app-permissions.js';
import { APP_ACTIVITY_OPERATIONS } from './contracts/app-activity.js';
import { APP_CERTIFICATE_OPERATIONS } from './contracts/app-certificates.js';
import { historyEntry, lookupCoin, PAYMENT_OPERATIONS, paymentState, payOutput, quoteOutput } from './contracts/payments.js';
import { RATE_OPERATIONS, rateOutput } from './contracts/rates.js';
import { TOKEN_OPERATIONS } from './contracts/tokens.js';
import { SWAP_OPERATIONS } from './contracts/swaps.js';
import { ORDINALS_OPERATIONS } from './contracts/ordinals.js';
import { meOutput, sessionOutput, USER_OPERATIONS, userOutput } from './contracts/users.js';
import { addressesOutput, WALLET_OPERATIONS, walletSummary } from './contracts/wallets.js';
import { UTILITY_OPERATIONS } from './contracts/utilities.js';
import { SWEEP_OPERATIONS } from './contracts/sweep.js';
import { POLICY_OPERATIONS } from './contracts/policies.js';
import { APPROVAL_OPERATIONS } from './contracts/approvals.js';

export type { PaymentRequest } from './payment-schemas.js';
export type { Access, AnyContract, OperationContract, RestBinding } from './operation.js';

/**
 * Every operation of Keystead, gathered from the capability contracts in shared/contracts/. REST routes,
 * the UI's RPC over HTTP, the Electron IPC channels and the renderer's view of roles are all derived from
 * this one table; the engine adds one handler per entry (main/engine/<capability>/operations.ts).
 */
export const OPERATIONS = {
  ...ORG_OPERATIONS,
  ...USER_OPERATIONS,
  ...ACCOUNT_OPERATIONS,
  ...API_KEY_OPERATIONS,
  ...SECOND_FACTOR_OPERATIONS,
  ...AUDIT_OPERATIONS,
  ...WALLET_OPERATIONS,
  ...WALLET_PAYMAIL_OPERATIONS,
  ...CHAIN_OPERATIONS,
  ...RATE_OPERATIONS,
  ...PAYMENT_OPERATIONS,
  ...FEE_OPERATIONS,
  ...PAYMAIL_OPERATIONS,
  ...CONTRACT_OPERATIONS,
  ...TOKEN_OPERATIONS,
  ...SWAP_OPERATIONS,
  ...ORDINALS_OPERATIONS,
  ...EVENT_OPERATIONS,
  ...NOT_OFFERED_OPERATIONS,
  ...INVOICE_OPERATIONS,
  ...UTILITY_OPERATIONS,
  ...SWEEP_OPERATIONS,
  ...PAYEE_OPERATIONS,
  ...POLICY_OPERATIONS,
  ...APPROVAL_OPERATIONS,
  ...APP_OPERATIONS,
  ...APP_PERMISSION_OPERATIONS,
  ...APP_ACTIVITY_OPERATIONS,
  ...APP_CERTIFICATE_OPERATIONS,
};

export type Operations = typeof OPERATIONS;
export type OperationName = keyof Operations;
export const OPERATION_NAMES = Object.keys(OPERATIONS) as OperationName[];

export type OperationInput<N extends OperationName> = InputOf<Operations[N]>;
export type ParsedInput<N extends OperationName> = ParsedInputOf<Operations[N]>;
export type OperationOutput<N extends OperationName> = OutputOf<Operations[N]>;

export function isOperationName(name: string): name is OperationName {
  return Object.hasOwn(OPERATIONS, name);
}

export function canCall(role: Role | null, op: OperationName | AnyContract): boolean {
  const access = (typeof op === 'string' ? OPERATIONS[op] : op).access;
  if (access === 'public') return true;
  return role !== null && access.includes(role);
}

// The shapes views and clients name, inferred from the contracts' schemas (one definition each).
export type AppStatusOutput = z.infer<typeof appStatusOutput>;
export type SessionOutput = z.infer<typeof sessionOutput>;
export type MeOutput = z.infer<typeof meOutput>;
export type UserOutput = z.infer<typeof userOutput>;
export type ApiKeyInfo = z.infer<typeof apiKeyInfo>;
export type NewApiKey = z.infer<typeof newApiKey>;
export type AuditEntryOutput = z.infer<typeof auditEntry>;
export type WalletSummary = z.infer<typeof walletSummary>;
export type AddressesOutput = z.infer<typeof addressesOutput>;
export type RateOutput = z.infer<typeof rateOutput>;
export type NetworkStatusOutput = OutputOf<typeof CHAIN_OPERATIONS.networkStatus>;
export type PaymentState = z.infer<typeof paymentState>;
export type PayOutput = z.infer<typeof payOutput>;
export type QuoteOutput = z.infer<typeof quoteOutput>;
export type HistoryEntry = z.infer<typeof historyEntry>;
export type LookupCoin = z.infer<typeof lookupCoin>;
export type LookupOutput = OutputOf<typeof TOKEN_OPERATIONS.lookup>;
export type TokenDetailsOutput = OutputOf<typeof TOKEN_OPERATIONS.tokenDetails>;
export type BalanceOutput = OutputOf<typeof TOKEN_OPERATIONS.balance>;
export type BatchOutput = OutputOf<typeof TOKEN_OPERATIONS.send>;
export type FeeUtxo = z.infer<typeof feeUtxo>;
export type FeeMetricsOutput = OutputOf<typeof FEE_OPERATIONS.feeManagerMetrics>;
export type CompileDiagnostic = z.infer<typeof compileDiagnostic>;
export type CompileOutput = OutputOf<typeof CONTRACT_OPERATIONS.compile>;
export type TranspileLog = z.infer<typeof transpileLog>;
export type TranspileOutput = OutputOf<typeof CONTRACT_OPERATIONS.transpile>;
export type InvoiceOutput = z.infer<typeof invoiceOutput>;
export type PublicInvoice = z.infer<typeof publicInvoice>;
export type PayeeOutput = z.infer<typeof payeeOutput>;
export type AppOutput = z.infer<typeof appOutput>;
export type AppPermissionOutput = z.infer<typeof permissionOutput>;
export type AppSpendingOutput = z.infer<typeof appSpendingOutput>;
