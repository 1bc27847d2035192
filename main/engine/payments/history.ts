import { OPERATIONS, type HistoryEntry, type PaymentState } from '../../../shared/operations.js';
import type { ParsedInputOf, OutputOf } from '../../../shared/operation.js';
import type { ChainState, WalletTxRow } from '../../store/repos/wallet-txs.js';
import type { OpContext } from '../context.js';
import type { PaymentServices } from './services.js';
import { resolveWallet } from '../wallets/resolve.js';

/** A row of the books as history shows it: pending until a block holds it, failed if the chain refused it. */
export function stateOf(row: { state: ChainState; height: number | null }): PaymentState {
  if (row.state === 'failed') return 'failed';
  return row.height === null ? 'pending' : 'confirmed';
}

export async function history(
  ctx: OpContext<PaymentServices>,
  input: ParsedInputOf<typeof OPERATIONS.history>,
): Promise<OutputOf<typeof OPERATIONS.history>> {
  const wallet = await resolveWallet(ctx, input.walletId);
  const { repos, chain } = ctx.services;
  const tip = await tipHeight(chain);
  // Newest first; one row more than asked tells whether another page exists.
  const rows = repos.walletTxs.page(wallet.id, input.maxResults + 1, input.nextPageToken);
  const page = rows.slice(0, input.maxResults);
  return {
    walletID: wallet.walletId,
    history: page.map((r) => historyEntryOf(r, tip)),
    meta: { nextPageToken: rows.length > input.maxResults ? input.nextPageToken + input.maxResults : null },
  };
}

/** The chain's tip height, or null while the provider is unreachable (confirmations are then unknown). */
export async function tipHeight(chain: PaymentServices['chain']): Promise<number | null> {
  try {
    return (await chain.getTip()).height;
  } catch {
    return null;
  }
}

/** A history row as the API shows it. */
export function historyEntryOf(r: WalletTxRow, tip: number | null): HistoryEntry {
  return {
    txid: r.txid,
    state: stateOf(r),
    seenByChain: r.state === 'seen',
    failureReason: r.failure,
    peerTxid: r.peerTxid,
    direction: r.direction,
    amount: r.amount,
    fee: r.fee,
    feePaidBy: r.feePaidBy,
    counterparty: r.counterparty,
    memo: r.memo,
    time: new Date(r.time).toISOString(),
    height: r.height,
    confirmations: r.height === null || tip === null ? 0 : tip - r.height + 1,
  };
}
