import type { Db } from '../database.js';
import { createAddressRepo } from './addresses.js';
import { createApiKeyRepo } from './api-keys.js';
import { createAppActivityRepo } from './app-activity.js';
import { createAppPermissionRepo } from './app-permissions.js';
import { createAppCertificateRepo } from './app-certificates.js';
import { createAppActionRepo } from './app-actions.js';
import { createAppOutputRepo } from './app-outputs.js';
import { createAppRepo } from './apps.js';
import { createAppOutputQueryRepo } from './app-output-queries.js';
import { createApprovalRepo } from './approvals.js';
import { createInvoiceRepo } from './invoices.js';
import { createAuditRepo } from './audit.js';
import { createOrdinalRepo } from './ordinals.js';
import { createOrganisationRepo } from './organisation.js';
import { createPaymentRepo } from './payments.js';
import { createPayeeRepo } from './payees.js';
import { createPolicyRepo } from './policies.js';
import { createProvenBlockRepo } from './proven-blocks.js';
import { createRateRepo } from './rates.js';
import { createSecondFactorRepo } from './second-factors.js';
import { createSessionRepo } from './sessions.js';
import { createSettingsRepo } from './settings.js';
import { createTokenRepo, createTokenTemplateRepo } from './tokens.js';
import { createSwapOfferRepo } from './swap-offers.js';
import { createUserRepo } from './users.js';
import { createWalletTxRepo } from './wallet-txs.js';
import { createWalletUtxoRepo } from './wallet-utxos.js';
import { createWalletRepo } from './wallets.js';

/** All repositories over one connection; statements are prepared once here, not per call. */
export function createRepos(db: Db) {
  return {
    organisation: createOrganisationRepo(db),
    users: createUserRepo(db),
    sessions: createSessionRepo(db),
    apiKeys: createApiKeyRepo(db),
    secondFactors: createSecondFactorRepo(db),
    audit: createAuditRepo(db),
    settings: createSettingsRepo(db),
    wallets: createWalletRepo(db),
    addresses: createAddressRepo(db),
    walletUtxos: createWalletUtxoRepo(db),
    walletTxs: createWalletTxRepo(db),
    rates: createRateRepo(db),
    provenBlocks: createProvenBlockRepo(db),
    payments: createPaymentRepo(db),
    tokens: createTokenRepo(db),
    tokenTemplates: createTokenTemplateRepo(db),
    swapOffers: createSwapOfferRepo(db),
    ordinals: createOrdinalRepo(db),
    invoices: createInvoiceRepo(db),
    payees: createPayeeRepo(db),
    policies: createPolicyRepo(db),
    approvals: createApprovalRepo(db),
    apps: createAppRepo(db),
    appActions: createAppActionRepo(db),
    appOutputs: createAppOutputRepo(db),
    appActivity: createAppActivityRepo(db),
    appPermissions: createAppPermissionRepo(db),
    appCertificates: createAppCertificateRepo(db),
    appOutputQueries: createAppOutputQueryRepo(db),
  };
}
export type Repos = ReturnType<typeof createRepos>;
