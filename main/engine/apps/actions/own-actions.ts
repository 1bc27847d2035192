import type { AppAction } from '../../../store/repos/app-actions.js';
import type { AppCall } from '../call.js';

/**
 * The calling app's own action of this wallet, or null. Apps allowed on one wallet see each other's actions
 * (listActions), but an app never acts on another's: sending a held-back (noSend) action, aborting it, signing
 * it or spending its change is its maker's decision alone. To any other app such an action does not exist.
 */
export function ownActionByTxid(call: AppCall, txid: string): AppAction | null {
  return mine(call, call.services.repos.appActions.byTxid(call.wallet.id, txid));
}

export function ownActionByReference(call: AppCall, reference: string): AppAction | null {
  return mine(call, call.services.repos.appActions.byReference(call.wallet.id, reference));
}

function mine(call: AppCall, action: AppAction | null): AppAction | null {
  return action && action.originator === call.app.originator ? action : null;
}
