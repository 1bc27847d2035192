import type { Transaction } from '@bsv/sdk';
import { p2pkhAddressOf } from '../../chain/script.js';
import type { CoreServices, Repos } from '../context.js';
import type { SideBooks } from '../sync/wallet-sync.js';

/**
 * Matches incoming payments to invoices, inside the database transaction that books them (one of the
 * books' side books, see sync/wallet-sync.ts): a transaction paying an open invoice's address at least its
 * amount marks it paid with the txid. Each open invoice has an address no other open invoice waits on, so
 * the match is unambiguous; a transaction the chain never took opens its invoice again.
 */
export class InvoiceBooks implements SideBooks {
  constructor(private readonly services: Pick<CoreServices, 'now'> & { repos: Pick<Repos, 'invoices'> }) {}

  apply(tx: Transaction, txid: string): number[] {
    const { repos, now } = this.services;
    const paid = new Map<string, number>();
    for (const o of tx.outputs) {
      const address = p2pkhAddressOf(o.lockingScript.toHex());
      if (address) paid.set(address, (paid.get(address) ?? 0) + (o.satoshis ?? 0));
    }
    const at = now();
    for (const [address, satoshis] of paid) {
      // Normally one; should two ever wait on one address, the oldest the payment covers is the one paid.
      const invoice = repos.invoices.openOn(address, at).find((i) => i.satoshis <= satoshis);
      if (invoice) repos.invoices.markPaid(invoice.id, txid, at);
    }
    // The wallet rows are the coins' books' to report; an invoice changes none of them.
    return [];
  }

  dependents(): string[] {
    return [];
  }

  revert(txid: string): void {
    this.services.repos.invoices.reopenPaidBy(txid);
  }

  release(): void {}

  confirm(): void {}
}
