import type { CoreServices, Repos } from '../../context.js';
import type { SideBooks } from '../../sync/wallet-sync.js';

/**
 * Apps' actions and basket outputs kept in step with the chain, beside the wallets' coins (sync's side books,
 * in the same database transactions): an action a block holds is completed; one the chain never took (found
 * by the settlement of payments, or a noSend action aborted) fails, the basket outputs it made are forgotten
 * (with the actions that spent them) and the ones it spent are available again.
 */
export class AppActionBooks implements SideBooks {
  constructor(private readonly services: Pick<CoreServices, 'now'> & { repos: Pick<Repos, 'appActions' | 'appOutputs'> }) {}

  apply(): number[] {
    // Nothing to book: an action's basket outputs are recorded with it, before it is sent.
    return [];
  }

  dependents(txid: string): string[] {
    return this.services.repos.appOutputs.spendersOf(txid);
  }

  revert(txid: string): void {
    const { repos, now } = this.services;
    repos.appOutputs.unspend(txid);
    repos.appOutputs.dropAllOutputsOf(txid);
    repos.appActions.failed(txid, now());
  }

  release(): void {}

  confirm(txid: string): void {
    this.services.repos.appActions.completed(txid, this.services.now());
  }
}
