import { OPERATIONS, type HistoryEntry, type PaymentState } from '../../../shared/operations.js';
import type { serviceHistoryEntry } from '../../../shared/contracts/payments.js';
import type { z } from 'zod';
import { rateFor, toCurrencyExact } from '../rates/rates.js';
import { paymailOf } from '../wallets/paymail-alias.js';
import type { ParsedInputOf, OutputOf } from '../../../shared/operation.js';
import type { ChainState, WalletTxRow } from '../../store/repos/wallet-txs.js';
import type { OpContext } from '../context.js';
import type { PaymentServices } from './services.js';
import { resolveWallet } from '../wallets/resolve.js';

type ServiceHistoryEntry = z.infer<typeof serviceHistoryEntry>;

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
  const rate = input.currency ? await rateFor(ctx.services, input.currency) : null;
  const tip = await tipHeight(chain);
  const only = input.type === 'credit' ? 'in' : input.type === 'debit' ? 'out' : undefined;
  // Newest first; one row more than asked tells whether another page exists.
  const rows = repos.walletTxs.page(wallet.id, input.maxResults + 1, input.nextPageToken, only);
  const page = rows.slice(0, input.maxResults);
  const own = wallet.paymailActive ? paymailOf(wallet) : null;
  return {
    walletID: wallet.walletId,
    histories: page.map((r) => serviceHistoryEntryOf(r, own, rate)),
    history: page.map((r) => historyEntryOf(r, tip)),
    meta: { nextPageToken: rows.length > input.maxResults ? input.nextPageToken + input.maxResults : null },
  };
}

const bsv = (satoshis: number) => satoshis / 1e8;

/**
 * A history row as the public service shows it: credit or debit, amounts in BSV. A debit's `to` is what the
 * counterparty received (the balance change less the fee this wallet paid); a move between the wallet's own
 * addresses (`self`) is a debit of its fee.
 */
export function serviceHistoryEntryOf(
  r: WalletTxRow,
  ownPaymail: string | null,
  rate: { currency: string; rate: number } | null,
): ServiceHistoryEntry {
  const credit = r.direction === 'in';
  const walletFee = !credit && r.feePaidBy === 'wallet' ? (r.fee ?? 0) : 0;
  const moved = credit ? r.amount : Math.max(0, -r.amount - walletFee);
  const receiver = credit ? ownPaymail : r.direction === 'self' ? ownPaymail : r.counterparty;
  // Tokens that changed hands (not a merge among the wallet's own outputs), each as the service lists them.
  const tokens = r.tokens
    .filter((t) => t.direction !== 'self')
    .map((t) => ({
      to: t.direction === 'in' ? ownPaymail : r.counterparty,
      amount: t.amount,
      protocol: t.protocol,
      tokenId: t.id,
      symbol: t.symbol,
    }));
  return {
    txId: r.txid,
    from: credit ? r.counterparty : ownPaymail,
    // A token transfer's BSV entry is left out when no BSV changed hands (its fee is `fee`).
    to: [...(moved > 0 || tokens.length === 0 ? [{ to: receiver, amount: bsv(moved), protocol: 'BSV' }] : []), ...tokens],
    timestamp: new Date(r.time).toISOString(),
    totalAmount: bsv(moved),
    balance_change: bsv(r.amount),
    type: credit ? 'credit' : 'debit',
    notes: r.memo,
    fee: walletFee > 0 ? bsv(walletFee) : null,
    status: stateOf(r),
    ...(rate ? { currencyValue: { currency: rate.currency, amount: toCurrencyExact(r.amount, rate.rate), rate: rate.rate } } : {}),
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
    tokens: r.tokens,
  };
}
