import type { CoreServices, Repos, TransactionServices } from '../context.js';
import type { Throttle } from '../auth/throttle.js';
import type { ApprovalRow } from '../../store/repos/approvals.js';
import type { TemplateRegistry } from '../token-templates/registry.js';

/** Carries out an approved request: the operation it recorded runs again as its initiator (the engine root provides it). */
export type RunApproved = (request: ApprovalRow, secrets: { walletPassword?: string }) => Promise<{ txid: string | null }>;

/**
 * What the payment policy needs: its versions and the moves it counted, the requests awaiting approval, the
 * payee book (destinations), the rate table (currency limits), the tokens (their units), the people who
 * vote (users, second factors), the settings (expiry), and a way to carry out an approved request.
 */
export interface PolicyServices extends CoreServices, TransactionServices {
  repos: Pick<
    Repos,
    | 'policies'
    | 'approvals'
    | 'payees'
    | 'rates'
    | 'tokens'
    | 'users'
    | 'secondFactors'
    | 'settings'
    | 'wallets'
    | 'sessions'
    | 'apiKeys'
    | 'organisation'
    | 'addresses'
  >;
  throttle: Throttle;
  runApproved: RunApproved;
  /** Approved requests this engine is carrying out now: one `sending` that is not here was cut off (a crash). */
  carryingApprovals: Set<string>;
  /** Whose key spends an output: a move's outputs leave the wallet unless its own key alone spends them. */
  tokenTemplates: Pick<TemplateRegistry, 'holder' | 'recognise'>;
}
