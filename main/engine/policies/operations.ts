import { APPROVAL_OPERATIONS } from '../../../shared/contracts/approvals.js';
import { POLICY_OPERATIONS } from '../../../shared/contracts/policies.js';
import { implement } from '../operation.js';
import { resolveWallet } from '../wallets/resolve.js';
import {
  approvalSettings,
  approvePayment,
  cancelApproval,
  getApproval,
  listApprovals,
  rejectPayment,
  sendApproved,
} from './approval-ops.js';
import { decidePolicy, getPolicy, previewPolicy, proposePolicy } from './policy-ops.js';
import type { PolicyServices } from './services.js';
import type { WalletServices } from '../wallets/services.js';

type Services = PolicyServices & WalletServices;

export const POLICY_IMPLEMENTATIONS = implement<Services>()(
  { ...POLICY_OPERATIONS, ...APPROVAL_OPERATIONS },
  {
    getPolicy: { run: getPolicy },
    proposePolicy: { run: proposePolicy, target: (_i, o) => (o ? `policy v${o.proposed?.version ?? o.active?.version ?? 0}` : null) },
    decidePolicy: { run: decidePolicy, target: (i) => `policy v${i.version}` },
    previewPolicy: { run: async (ctx, input) => previewPolicy(ctx, input, await resolveWallet(ctx, input.walletId)) },
    listApprovals: { run: listApprovals },
    getApproval: { run: getApproval },
    approvePayment: { run: approvePayment, target: (i) => i.approvalId },
    rejectPayment: { run: rejectPayment, target: (i) => i.approvalId },
    cancelApproval: { run: cancelApproval, target: (i) => i.approvalId },
    sendApproved: { run: sendApproved, target: (i) => i.approvalId },
    approvalSettings: { run: approvalSettings },
  },
);
