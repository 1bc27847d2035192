import type { ComponentType } from 'react';
import { canCall, OPERATIONS as OPS, type AnyContract } from '../../shared/operations.js';
import type { Role } from '../../shared/roles.js';
import { ApiView } from './ApiView.js';
import { ApprovalsView } from './ApprovalsView.js';
import { AppsBadge } from './apps/AppsBadge.js';
import { AppsView } from './AppsView.js';
import { AuditView } from './AuditView.js';
import { ContractsView } from './ContractsView.js';
import { DataView } from './DataView.js';
import { FeeManagerView } from './FeeManagerView.js';
import { HistoryView } from './HistoryView.js';
import { InvoicesView } from './InvoicesView.js';
import { LookupView } from './LookupView.js';
import { PayeesView } from './PayeesView.js';
import { PoliciesView } from './PoliciesView.js';
import { ApprovalsBadge } from './policies/ApprovalsBadge.js';
import { SendView } from './SendView.js';
import { TokensView } from './TokensView.js';
import { NetworkView } from './NetworkView.js';
import { OverviewView } from './OverviewView.js';
import { ProfileView } from './ProfileView.js';
import { ReceiveView } from './ReceiveView.js';
import { UsersView } from './UsersView.js';
import { WalletsView } from './WalletsView.js';

/**
 * The app's views. Each names the operation it needs, so navigation shows only what the signed-in role
 * may use (the engine enforces the same table; hiding is for clarity, not security).
 */
export interface ViewDef {
  id: string;
  label: string;
  requires: AnyContract;
  Component: ComponentType;
  /** A count beside the view's name in the navigation (e.g. payments awaiting the user's vote). */
  Badge?: ComponentType;
}

export const VIEWS: readonly ViewDef[] = [
  { id: 'overview', label: 'Overview', requires: OPS.me, Component: OverviewView },
  { id: 'wallets', label: 'Wallets', requires: OPS.listWallets, Component: WalletsView },
  { id: 'send', label: 'Send', requires: OPS.pay, Component: SendView },
  { id: 'receive', label: 'Receive', requires: OPS.walletAddresses, Component: ReceiveView },
  { id: 'history', label: 'History', requires: OPS.history, Component: HistoryView },
  { id: 'invoices', label: 'Invoices', requires: OPS.listInvoices, Component: InvoicesView },
  { id: 'payees', label: 'Payee book', requires: OPS.listPayees, Component: PayeesView },
  { id: 'approvals', label: 'Approvals', requires: OPS.listApprovals, Component: ApprovalsView, Badge: ApprovalsBadge },
  { id: 'apps', label: 'Apps', requires: OPS.listApps, Component: AppsView, Badge: AppsBadge },
  { id: 'policies', label: 'Payment policy', requires: OPS.getPolicy, Component: PoliciesView },
  { id: 'tokens', label: 'Tokens', requires: OPS.balance, Component: TokensView },
  { id: 'lookup', label: 'Lookup', requires: OPS.lookup, Component: LookupView },
  { id: 'data', label: 'Write data', requires: OPS.post, Component: DataView },
  { id: 'fees', label: 'Fee manager', requires: OPS.feeManagerMetrics, Component: FeeManagerView },
  { id: 'contracts', label: 'Contracts', requires: OPS.compile, Component: ContractsView },
  { id: 'network', label: 'Network', requires: OPS.networkStatus, Component: NetworkView },
  { id: 'users', label: 'Users', requires: OPS.listUsers, Component: UsersView },
  { id: 'audit', label: 'Audit log', requires: OPS.auditLog, Component: AuditView },
  { id: 'api', label: 'API', requires: OPS.me, Component: ApiView },
  { id: 'profile', label: 'Profile', requires: OPS.me, Component: ProfileView },
];

export function viewsFor(role: Role | null): ViewDef[] {
  return VIEWS.filter((v) => canCall(role, v.requires));
}
