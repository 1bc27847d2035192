import { FEE_MANAGER_LOW_BALANCE } from '../../../shared/contracts/fees.js';
import type { CoreServices, Repos } from '../context.js';
import { stateOf } from '../payments/history.js';
import { isFeeManagerWallet } from '../wallets/fee-manager-id.js';
import type { RowBefore } from '../sync/wallet-sync.js';
import type { TokenUtxo } from '../../store/repos/tokens.js';
import type { DecidedOutput } from '../tokens/lineage.js';
import { receiptMemo, UNPROVEN_RECEIPT_MEMO } from '../tokens/ledger.js';

/** What telling about the books reads: the wallets, their history, coins and tokens. */
type BookEventServices = Pick<CoreServices, 'events'> & { repos: Pick<Repos, 'wallets' | 'walletTxs' | 'walletUtxos' | 'tokens'> };

/**
 * Says what a committed change to the books did, as live events: a history row that is new or changed
 * state (`payment.state`), a new incoming payment (`payment.received`) or proven tokens (`token.received`), and
 * each touched wallet's new balance (`balance`; `feeManager.low` when the fee manager's falls below its
 * threshold). `before` holds the rows of the transactions before the change; rows that are new since are
 * found by reading the transactions' rows again.
 */
export class BookEvents {
  private readonly balancesDue = new Set<number>();
  private timer: NodeJS.Timeout | null = null;

  /**
   * Balances are summed over all of a wallet's coins, so they are published once per burst of changes
   * (`balanceDelayMs` after the first), not once per transaction.
   */
  constructor(
    private readonly services: BookEventServices,
    private readonly balanceDelayMs = 50,
  ) {}

  changed(before: readonly RowBefore[], txids: Iterable<string>): void {
    const { repos, events } = this.services;
    const prior = new Map(before.map((r) => [`${r.walletRow}:${r.txid}`, r.before]));
    const wallets = new Set<number>();
    for (const txid of new Set(txids)) {
      for (const { walletRow } of repos.walletTxs.statesOf(txid)) {
        const row = repos.walletTxs.row(walletRow, txid);
        const wallet = repos.wallets.byRow(walletRow);
        if (!row || !wallet) continue;
        wallets.add(walletRow);
        const was = prior.get(`${walletRow}:${txid}`);
        const audience = { kind: 'wallet', walletRow } as const;
        const state = stateOf(row);
        if (!was || stateOf(was) !== state) {
          events.publish(
            'payment.state',
            {
              walletID: wallet.walletId,
              txid,
              state,
              direction: row.direction,
              amount: row.amount,
              height: row.height,
              failureReason: row.failure,
            },
            audience,
          );
        }
        if (was || row.direction !== 'in' || row.state !== 'seen') continue;
        if (row.amount > 0)
          events.publish(
            'payment.received',
            { walletID: wallet.walletId, walletTitle: wallet.title, txid, satoshis: row.amount, counterparty: row.counterparty },
            audience,
          );
        // Only proven outputs are tokens; the others are announced when (if) their lineage is proven.
        this.announceTokens(
          walletRow,
          txid,
          repos.tokens.outputsOf(txid).filter((u) => u.walletRow === walletRow && u.validity === 'valid'),
        );
      }
    }
    for (const walletRow of wallets) this.balancesDue.add(walletRow);
    if (wallets.size && !this.timer) {
      this.timer = setTimeout(() => this.flush(), this.balanceDelayMs);
      this.timer.unref();
    }
  }

  /**
   * Token outputs whose lineage was just decided: a receipt's history row now says what it received (or
   * that the outputs are look-alikes), and proven outputs are announced as received tokens.
   */
  tokensDecided(decided: readonly DecidedOutput[]): void {
    const { repos } = this.services;
    const byRow = new Map<string, { walletRow: number; txid: string; valid: Set<number> }>();
    for (const d of decided) {
      const key = `${d.walletRow}:${d.txid}`;
      const entry = byRow.get(key) ?? { walletRow: d.walletRow, txid: d.txid, valid: new Set<number>() };
      if (d.valid) entry.valid.add(d.vout);
      byRow.set(key, entry);
    }
    for (const { walletRow, txid, valid } of byRow.values()) {
      const row = repos.walletTxs.row(walletRow, txid);
      if (!row || row.direction !== 'in' || row.state === 'failed') continue;
      // Only the wording Keystead chose while the outputs were unproven is replaced (a sender's note stays).
      if (row.memo === UNPROVEN_RECEIPT_MEMO) repos.walletTxs.annotate(walletRow, txid, receiptMemo(repos, txid, walletRow), null);
      this.announceTokens(
        walletRow,
        txid,
        repos.tokens.outputsOf(txid).filter((u) => u.walletRow === walletRow && valid.has(u.vout) && u.validity === 'valid'),
      );
    }
  }

  /** `token.received` for a wallet's proven outputs of one transaction, one event per token. */
  private announceTokens(walletRow: number, txid: string, outputs: readonly TokenUtxo[]): void {
    const { repos, events } = this.services;
    const wallet = repos.wallets.byRow(walletRow);
    if (!wallet || !outputs.length) return;
    const received = new Map<string, number>();
    for (const u of outputs) received.set(u.tokenId, (received.get(u.tokenId) ?? 0) + u.satoshis);
    for (const [tokenId, satoshis] of received) {
      const token = repos.tokens.get(tokenId);
      if (token)
        events.publish(
          'token.received',
          {
            walletID: wallet.walletId,
            walletTitle: wallet.title,
            txid,
            tokenId,
            symbol: token.symbol,
            amount: Math.floor(satoshis / token.satsPerToken),
          },
          { kind: 'wallet', walletRow },
        );
    }
  }

  /** Publishes the balances still due now. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const due = [...this.balancesDue];
    this.balancesDue.clear();
    for (const walletRow of due) publishBalance(this.services, walletRow);
  }
}

/** A wallet's balance now, as a `balance` event (and `feeManager.low` for a fee manager running low). */
export function publishBalance(services: BookEventServices, walletRow: number): void {
  const { repos, events } = services;
  const wallet = repos.wallets.byRow(walletRow);
  if (!wallet) return;
  const { confirmed, unconfirmed } = repos.walletUtxos.balance(walletRow);
  const audience = { kind: 'wallet', walletRow } as const;
  events.publish(
    'balance',
    { walletID: wallet.walletId, walletTitle: wallet.title, satoshis: confirmed + unconfirmed, confirmed, unconfirmed },
    audience,
  );
  if (isFeeManagerWallet(wallet)) {
    // What it holds, coins a payment in flight reserves included: while one pays a fee, its coin is reserved
    // and its change not booked yet, and counting only free coins warned of an empty fee manager that was not.
    const held = confirmed + unconfirmed;
    if (held < FEE_MANAGER_LOW_BALANCE) events.publish('feeManager.low', { satoshis: held, threshold: FEE_MANAGER_LOW_BALANCE }, audience);
  }
}
