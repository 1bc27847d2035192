import { canCall } from '../../../shared/operations.js';
import type { Caller, EventAudience, Repos } from '../context.js';
import { isFeeManagerWallet } from '../wallets/fee-manager-id.js';

/**
 * Whether `caller` may receive an event: the same rule as reading it through the API. A wallet's events
 * go to its owner and, for a shared wallet, its members; the fee manager's to the roles that may read its
 * metrics; role-addressed events to those roles; the rest (blocks, rates, sync errors) to everyone signed in.
 */
export function mayReceive(services: { repos: Pick<Repos, 'wallets'> }, caller: Caller, audience: EventAudience): boolean {
  switch (audience.kind) {
    case 'everyone':
      return true;
    case 'roles':
      return audience.roles.includes(caller.role);
    case 'wallet': {
      const { wallets } = services.repos;
      const w = wallets.byRow(audience.walletRow);
      if (!w) return false;
      if (isFeeManagerWallet(w)) return canCall(caller.role, 'feeManagerMetrics');
      return w.ownerUid === caller.uid || (w.type === 'shared' && wallets.members(w.id).includes(caller.uid));
    }
  }
}
