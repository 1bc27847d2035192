import { Transaction } from '@bsv/sdk';
import { nodesAcceptedWithin } from '../../chain/node-acceptance.js';
import { p2pkhAddressOf } from '../../chain/script.js';
import type { ChainEvents, ChainProvider, ChainTip } from '../../chain/types.js';
import type { WalletRow } from '../../store/repos/wallets.js';
import type { ChainState, WalletTx } from '../../store/repos/wallet-txs.js';
import type { WalletUtxo } from '../../store/repos/wallet-utxos.js';
import type { SyncServices } from './services.js';
import { GAP_LIMIT } from '../wallets/address-book.js';
import { provenHeight } from './proven-height.js';
import { FOLLOWED_DEPTH, headersToKeep, replacedFrom } from './reorganisations.js';
import type { WalletScanner } from '../wallets/services.js';
import { UnconfirmedVouching } from './unconfirmed-vouching.js';
import { InvoiceScanPlan } from './invoice-scan-plan.js';

/**
 * Books kept beside the wallets' coins (the tokens the wallets hold), moved by the same transactions in the
 * same database transactions: whatever books a transaction, undoes one or confirms one does it to these too.
 */
export interface SideBooks {
  /** Books a transaction the chain has; returns the wallet rows it touched. Runs inside the caller's database transaction. */
  apply(tx: Transaction, txid: string, height: number | null): number[];
  /** Transactions of ours that spend outputs `txid` created (undone with it). */
  dependents(txid: string): string[];
  /** Undoes a transaction the chain never took. */
  revert(txid: string): void;
  /** Gives back what a payment attempt had reserved. */
  release(attempt: string): void;
  confirm(txid: string, height: number): void;
}

/** One wallet's history row for a transaction, as it stood before a change to the books (undefined: none). */
export interface RowBefore {
  walletRow: number;
  txid: string;
  before: { state: ChainState; height: number | null } | undefined;
}

/** Who else moves with the books and who is told about them: all optional, given once at construction. */
export interface SyncHooks {
  /** Books that move with the same transactions (tokens). */
  sideBooks?: readonly SideBooks[];
  /**
   * Told after every committed change to the books: the history rows of the transactions involved as they
   * stood before, and the transactions (the live events are made from these).
   */
  onBooksChanged?: (before: RowBefore[], txids: readonly string[]) => void;
  /** Told when the chain's tip moves. */
  onTip?: (height: number) => void;
  /** Told when a scan of all wallets starts (true) and ends (false). */
  onScanning?: (syncing: boolean) => void;
  /** Told when a scan of the wallets fails (it is retried). */
  onSyncError?: (message: string) => void;
  /** Runs after every scan of all wallets (the engine reconciles the books with the chain there). */
  afterScan?: () => Promise<void>;
}

/** How often, and how far apart, ARC's status is asked whether a node took a transaction it just accepted. */
const ACCEPTANCE_ASKS = 3;
const ACCEPTANCE_PAUSE_MS = 1_000;

interface Effect {
  credit: number;
  debit: number;
  ownInputs: number;
  ownInputTotal: number;
  counterparty: string | null;
}

/**
 * Keeps each wallet's outputs and history in step with the chain. One code path for every source:
 * the local node's events (immediate), polling on the network, and scanning an imported seed.
 * Applying a transaction is idempotent, so a repeat or an overlap between sources does no harm.
 */
export class WalletSync implements WalletScanner {
  private timer: NodeJS.Timeout | null = null;
  /** Set by stop(): the engine is closing, and announcements are no longer booked. */
  private stopped = false;
  private scanning: Promise<void> | null = null;
  lastError: string | null = null;
  private readonly sideBooks: readonly SideBooks[];
  private readonly hooks: Omit<SyncHooks, 'sideBooks'>;
  private lastTip = -1;
  /** The polled chain's tip at the last check for a reorganisation (a new tip is checked again). */
  private checkedTip: string | null = null;
  /**
   * Transactions their payer is broadcasting right now: the payer books each one itself as the chain takes
   * it, in the database transaction that finishes its attempt (settle.ts), so the node's announcement of it
   * is not booked a second time. Should the payer stop before booking, its recorded attempt is settled later.
   */
  readonly payerBooks = new Set<string>();
  /** On a polled chain, who vouches for an unconfirmed transaction the indexer names (unconfirmed-vouching.ts). */
  private readonly vouching: UnconfirmedVouching;
  /** Which invoice addresses past the gap a scan asks about (invoice-scan-plan.ts). */
  private readonly scanPlan: InvoiceScanPlan;

  constructor(
    private readonly services: SyncServices,
    private readonly chain: ChainProvider,
    { sideBooks = [], ...hooks }: SyncHooks = {},
  ) {
    this.sideBooks = sideBooks;
    this.hooks = hooks;
    this.vouching = new UnconfirmedVouching(chain, services.now);
    this.scanPlan = new InvoiceScanPlan(services, GAP_LIMIT);
  }

  /**
   * What `tx` does to each of the organisation's wallets, read from the books without changing them: the
   * coins it spends, the outputs it pays to our addresses, and one history row per wallet touched.
   */
  private effectsOf(tx: Transaction, txid: string, height: number | null) {
    const { repos, now } = this.services;
    const effects = new Map<number, Effect>();
    const effect = (row: number) => {
      let e = effects.get(row);
      if (!e) effects.set(row, (e = { credit: 0, debit: 0, ownInputs: 0, ownInputTotal: 0, counterparty: null }));
      return e;
    };
    const spends: { txid: string; vout: number }[] = [];
    for (const input of tx.inputs) {
      const prev = input.sourceTXID ?? input.sourceTransaction?.id('hex');
      if (!prev) continue;
      const u = repos.walletUtxos.get(prev, input.sourceOutputIndex);
      if (!u || (u.spentBy !== null && u.spentBy !== txid)) continue;
      spends.push({ txid: prev, vout: input.sourceOutputIndex });
      const e = effect(u.walletRow);
      e.debit += u.satoshis;
      e.ownInputs += 1;
      e.ownInputTotal += u.satoshis;
    }
    const outTotal = tx.outputs.reduce((s, o) => s + (o.satoshis ?? 0), 0);
    const owners: (number | null)[] = [];
    const credits: (Omit<WalletUtxo, 'spentBy'> & { address: string })[] = [];
    tx.outputs.forEach((o, vout) => {
      const script = o.lockingScript.toHex();
      const address = p2pkhAddressOf(script);
      // An output an app put in a basket stays the app's even on one of our addresses: never a coin payments could spend.
      const ours = address ? repos.addresses.owner(address) : null;
      const owner = ours && !repos.appOutputs.isAppOutput(ours.walletRow, txid, vout) ? ours : null;
      if (!owner) {
        // A BRC-29 payment an app internalized (utxos.brc29) is the wallet's though at no HD address: counted, never dropped.
        const held = repos.walletUtxos.get(txid, vout);
        owners.push(held?.brc29 ? held.walletRow : null);
        if (held?.brc29) effect(held.walletRow).credit += held.satoshis;
        return;
      }
      owners.push(owner.walletRow);
      if (!address) return;
      credits.push({
        walletRow: owner.walletRow,
        txid,
        vout,
        satoshis: o.satoshis ?? 0,
        script,
        chain: owner.chain,
        idx: owner.idx,
        status: 'available',
        height,
        address,
      });
      effect(owner.walletRow).credit += o.satoshis ?? 0;
    });
    // The fee is known when every input is the organisation's: one wallet's, or a wallet's plus the fee
    // manager's (which then paid the fee).
    let orgInputs = 0;
    let orgInputTotal = 0;
    for (const e of effects.values()) {
      orgInputs += e.ownInputs;
      orgInputTotal += e.ownInputTotal;
    }
    const fee = orgInputs === tx.inputs.length && orgInputs > 0 ? orgInputTotal - outTotal : null;
    const feeManagerRow = repos.wallets.feeManager()?.id;
    const paidBy =
      fee === null ? null : feeManagerRow !== undefined && (effects.get(feeManagerRow)?.debit ?? 0) > 0 ? 'feeManager' : 'wallet';
    const rows: WalletTx[] = [];
    for (const [row, e] of effects) {
      // Who else this transaction paid, for the history's counterparty column.
      const other = tx.outputs.findIndex((o, i) => owners[i] !== row && p2pkhAddressOf(o.lockingScript.toHex()));
      const allOurs = e.ownInputs === tx.inputs.length;
      const direction = e.debit === 0 ? 'in' : other === -1 && allOurs ? 'self' : 'out';
      rows.push({
        walletRow: row,
        txid,
        direction,
        amount: e.credit - e.debit,
        fee: direction === 'in' ? null : fee,
        feePaidBy: direction === 'in' ? null : paidBy,
        counterparty: direction === 'out' && other !== -1 ? p2pkhAddressOf(tx.outputs[other].lockingScript.toHex()) : null,
        memo: null,
        height,
        time: now(),
      });
    }
    return { spends, credits, rows };
  }

  /**
   * Books what `tx` does to the organisation's wallets (the chain has it); returns the wallet rows it
   * touched. A transaction may pay addresses beyond those derived so far (a batch payout to a restored
   * wallet's 1,000 addresses): booking extends each wallet's address gap, and the transaction is booked
   * again (idempotently) until every output to a known address is on the books.
   */
  applyTransaction(tx: Transaction, txid: string, height: number | null): number[] {
    const before = this.rowsBefore([txid]);
    const touched = new Set<number>();
    for (let round = 0; ; round++) {
      const rows = this.bookOnce(tx, txid, height);
      let grew = false;
      for (const row of rows) {
        touched.add(row);
        grew = this.keepGap(row) || grew;
      }
      if (!grew || round > 10_000 || !this.paysUnbooked(tx, txid)) break;
    }
    this.changed(before, [txid]);
    return [...touched];
  }

  /**
   * Books another's transaction (a payer's, a swept key's) that the broadcaster just said it took. The
   * embedded node's word is the chain's, so it is booked at once; ARC answers "accepted" for what it has only
   * stored, so on the network it is booked only once ARC's status says a node accepted it, and otherwise
   * later, by the scan, when one does (unconfirmed-vouching.ts). Returns whether it is booked now.
   */
  async bookAccepted(tx: Transaction, txid: string): Promise<boolean> {
    if (!this.chain.events && !(await nodesAcceptedWithin(this.chain, txid, ACCEPTANCE_ASKS, ACCEPTANCE_PAUSE_MS))) return false;
    this.applyTransaction(tx, txid, null);
    return true;
  }

  /**
   * Whether the books already hold `txid` as the chain has it (every wallet's row seen, at `height` when
   * one is given): the local node announces a transaction as it accepts it, so its payer finds it booked.
   */
  booked(txid: string, height: number | null): boolean {
    const rows = this.services.repos.walletTxs.statesOf(txid);
    return rows.length > 0 && rows.every((r) => r.state === 'seen' && (height === null || r.height === height));
  }

  private bookOnce(tx: Transaction, txid: string, height: number | null): number[] {
    const { db, repos } = this.services;
    const undone = new Set<string>();
    const undoneBefore: RowBefore[] = [];
    const touched = db.transaction(() => {
      // The chain took `tx`: a transaction of ours that spends one of its coins and no block holds (a refused
      // payment's cancellation, when the receiver got the payment itself mined) never will be. It is undone
      // first, so `tx` is booked with its whole debit and undoing the loser later cannot make the coin spendable.
      for (const loser of this.conflictsOf(tx, txid))
        try {
          db.transaction(() => this.revert(loser, `the chain took ${txid}, which spends the same coin`, undone, undoneBefore))();
        } catch {
          // A block holds what spends the loser's outputs: the books keep it, and this input is not debited twice.
        }
      const { spends, credits, rows } = this.effectsOf(tx, txid, height);
      for (const s of spends) repos.walletUtxos.markSpent(s.txid, s.vout, txid);
      for (const c of credits) {
        repos.walletUtxos.insert(c);
        repos.addresses.markUsed(c.walletRow, c.address);
      }
      for (const r of rows) repos.walletTxs.upsert(r);
      // Undone, then taken by the chain after all (a refused payment mined instead of its cancellation): it is
      // paid, and a key still held for it answers with it.
      const attempt = repos.payments.attemptFor(txid);
      if (attempt?.state === 'failed') repos.payments.attemptDone(attempt.attempt, attempt.result);
      const rowsTouched = rows.map((r) => r.walletRow);
      for (const b of this.sideBooks) rowsTouched.push(...b.apply(tx, txid, height));
      return [...new Set(rowsTouched)];
    })();
    if (undone.size) this.changed(undoneBefore, [...undone]);
    return touched;
  }

  /** Transactions of ours that no block holds and that spend a coin `tx` spends: they conflict with it. */
  private conflictsOf(tx: Transaction, txid: string): string[] {
    const { repos } = this.services;
    const losers = new Set<string>();
    for (const input of tx.inputs) {
      const prev = input.sourceTXID ?? input.sourceTransaction?.id('hex');
      const u = prev ? repos.walletUtxos.get(prev, input.sourceOutputIndex) : null;
      if (u?.spentBy && u.spentBy !== txid && repos.walletTxs.stateOf(u.walletRow, u.spentBy)?.height == null) losers.add(u.spentBy);
    }
    return [...losers];
  }

  /**
   * Whether the transaction spends an output the books hold: a coin, a token, an inscription or an app's
   * basket output. What we signed and did not send (an app's noSend action, a swap offer's input) is never
   * sent on an indexer's word.
   */
  private spendsOurs(tx: Transaction): boolean {
    const { walletUtxos, tokens, ordinals, appOutputs, wallets } = this.services.repos;
    const walletRows = wallets.all().map((w) => w.id);
    return tx.inputs.some((i) => {
      if (i.sourceTXID === undefined) return false;
      const [txid, vout] = [i.sourceTXID, i.sourceOutputIndex];
      return (
        walletUtxos.get(txid, vout) !== null ||
        tokens.utxo(txid, vout) !== null ||
        ordinals.get(txid, vout) !== null ||
        walletRows.some((row) => appOutputs.isAppOutput(row, txid, vout))
      );
    });
  }

  /** Whether the transaction pays one of our addresses in an output the books do not have yet. */
  private paysUnbooked(tx: Transaction, txid: string): boolean {
    const { repos } = this.services;
    return tx.outputs.some((o, vout) => {
      const address = p2pkhAddressOf(o.lockingScript.toHex());
      const owner = address !== null ? repos.addresses.owner(address) : null;
      return owner !== null && repos.walletUtxos.get(txid, vout) === null && !repos.appOutputs.isAppOutput(owner.walletRow, txid, vout);
    });
  }

  private rowsBefore(txids: readonly string[]): RowBefore[] {
    if (!this.hooks.onBooksChanged) return [];
    const rows: RowBefore[] = [];
    for (const txid of new Set(txids))
      for (const s of this.services.repos.walletTxs.statesOf(txid)) rows.push({ walletRow: s.walletRow, txid, before: s });
    return rows;
  }

  private changed(before: RowBefore[], txids: readonly string[]): void {
    try {
      this.hooks.onBooksChanged?.(before, txids);
    } catch {
      /* telling about a change must never undo or block it */
    }
  }

  /**
   * Shows a payment of ours in history before any chain has it (`pending`, not yet seen), without booking
   * it: its coins stay reserved and its change is not spendable until the chain shows the transaction.
   */
  recordUnseen(tx: Transaction, txid: string, note: { walletRow: number; memo: string | null; counterparty: string | null }): void {
    const { repos } = this.services;
    const before = this.rowsBefore([txid]);
    for (const r of this.effectsOf(tx, txid, null).rows) {
      repos.walletTxs.insertUnseen(
        r.walletRow === note.walletRow ? { ...r, memo: note.memo, counterparty: note.counterparty ?? r.counterparty } : r,
      );
    }
    this.changed(before, [txid]);
  }

  /**
   * Undoes what a transaction the chain never took did to the books: the coins it spent are spendable
   * again, its outputs are forgotten (and with them any transaction of ours that spent them), the change
   * addresses it claimed are free again, and its history rows say why it failed. One database transaction.
   */
  revertTransaction(txid: string, reason: string, opts: { keepKeys?: boolean } = {}): void {
    const done = new Set<string>();
    const before: RowBefore[] = [];
    this.services.db.transaction(() => this.revert(txid, reason, done, before, opts.keepKeys === true))();
    this.changed(before, [...done]);
  }

  /** `keepKeys`: the idempotency keys of `txid`'s own attempt stay held (a cancellation not yet in a block). */
  private revert(txid: string, reason: string, done: Set<string>, before: RowBefore[], keepKeys = false): void {
    if (done.has(txid)) return;
    done.add(txid);
    before.push(...this.rowsBefore([txid]));
    const { repos } = this.services;
    for (const b of this.sideBooks)
      for (const dependent of b.dependents(txid))
        this.revert(dependent, `it spent an output of ${txid}, which the chain never took`, done, before);
    for (const b of this.sideBooks) b.revert(txid);
    for (const out of repos.walletUtxos.outputsOf(txid)) {
      const dependent =
        out.spentBy ?? (out.status === 'reserved' && out.reservedBy ? repos.payments.attempt(out.reservedBy)?.txid : undefined);
      // A block holding a child proves the parent is on chain: the premise of this revert is wrong.
      if (dependent && repos.walletTxs.stateOf(out.walletRow, dependent)?.height != null) {
        throw new Error(`not undoing ${txid}: ${dependent}, which spends its output, is in a block`);
      }
      if (dependent) this.revert(dependent, `it spent ${txid}:${out.vout}, which the chain never took`, done, before);
      repos.walletUtxos.remove(txid, out.vout);
      if (out.address) this.freeAddress(out.walletRow, out.address);
    }
    repos.walletUtxos.unspend(txid);
    const attempt = repos.payments.attemptFor(txid);
    if (attempt) {
      repos.walletUtxos.release(attempt.attempt);
      for (const b of this.sideBooks) b.release(attempt.attempt);
      for (const c of attempt.changeAddresses) this.freeAddress(c.walletRow, c.address);
      if (attempt.state !== 'failed')
        if (keepKeys) repos.payments.attemptCancelled(attempt.attempt, reason);
        else repos.payments.attemptFailed(attempt.attempt, reason);
    }
    repos.walletTxs.markFailed(txid, reason);
  }

  /** An address nothing on the books pays is unused again, so the gap limit counts it as free. */
  private freeAddress(walletRow: number, address: string): void {
    if (!this.services.repos.walletUtxos.usedOnAddress(address)) this.services.repos.addresses.markUnused(walletRow, address);
  }

  /**
   * Marks transactions as mined at `height`. One the books had not booked (never seen, or undone as
   * failed) is booked now: a block holding it is the chain's last word.
   */
  confirm(txids: readonly string[], height: number): Promise<void> {
    const { db, repos } = this.services;
    const before = this.rowsBefore(txids);
    db.transaction(() => {
      for (const txid of txids) {
        repos.walletUtxos.confirm(txid, height);
        repos.walletTxs.confirm(txid, height);
        for (const b of this.sideBooks) b.confirm(txid, height);
      }
    })();
    this.changed(before, txids);
    this.tipAt(height);
    return Promise.all(txids.filter((t) => repos.walletTxs.unbooked(t)).map((t) => this.book(t, height))).then(() => undefined);
  }

  private async book(txid: string, height: number): Promise<void> {
    const hex = await this.chain.getTransactionHex(txid).catch(() => null);
    if (hex) this.applyTransaction(Transaction.fromHex(hex), txid, height);
  }

  /** Keeps GAP_LIMIT unused addresses after the last used one on both chains; true when it derived new ones. */
  private keepGap(walletRow: number): boolean {
    const { repos, addressBook } = this.services;
    const w = repos.wallets.byRow(walletRow);
    if (!w) return false;
    const receiving = addressBook.ensureGap(w, 0);
    const change = addressBook.ensureGap(w, 1);
    return receiving || change;
  }

  /**
   * Walks both chains of the wallet's addresses, asking the provider for each one's history until `gap`
   * addresses in a row (GAP_LIMIT by default; an import may ask for more) have none and every address
   * already derived was asked about (an invoice's
   * address may lie past the gap: every one within it was handed out), and applies every transaction not
   * yet recorded.
   */
  async scanWallet(wallet: WalletRow, gap = GAP_LIMIT): Promise<void> {
    const { repos, addressBook } = this.services;
    for (const chain of [0, 1] as const) {
      let lastUsed = -1;
      const derived = repos.addresses.count(wallet.id, chain);
      for (let idx = 0; idx <= Math.max(lastUsed + gap, derived - 1); idx++) {
        if (!repos.addresses.at(wallet.id, chain, idx)) addressBook.derive(wallet, chain, repos.addresses.count(wallet.id, chain), idx + 1);
        const { address } = repos.addresses.at(wallet.id, chain, idx)!;
        // Past the gap, an invoice's address that expired unpaid long ago is asked about in turn, not every scan.
        const history = this.scanPlan.asks(wallet.id, address, idx > lastUsed + gap) ? await this.chain.getHistory(address) : [];
        if (history.length === 0) continue;
        lastUsed = idx;
        repos.addresses.markUsed(wallet.id, address);
        for (const h of history) {
          const known = repos.walletTxs.stateOf(wallet.id, h.txid);
          const booked = known !== undefined && known.state === 'seen';
          if (booked && known.height === h.height) continue;
          // The index's word dates nothing into a block: a height is kept only with its merkle proof. The
          // embedded node (the chain that pushes its events) is this process's own ledger: its word is the chain's.
          const height = h.height === null || this.chain.events ? h.height : await this.proveHeight(h.txid, h.height);
          if (booked && h.height !== null) {
            if (height !== null) await this.confirm([h.txid], height);
            continue;
          }
          const hex = await this.chain.getTransactionHex(h.txid);
          if (!hex) continue;
          const tx = Transaction.fromHex(hex);
          // The indexer's word books nothing unconfirmed: a node of the network must have accepted it.
          if (height === null && !this.chain.events && (await this.vouching.vouch(tx, h.txid, this.spendsOurs(tx))) !== 'vouched') continue;
          this.applyTransaction(tx, h.txid, height);
          // A payer's note that waited for this booking (a paymail payment ARC had only stored).
          this.services.repos.walletTxs.notePending(h.txid);
        }
      }
      addressBook.ensureGap(wallet, chain);
    }
  }

  /** Whether a scan of all wallets is running now. */
  get scanningNow(): boolean {
    return this.scanning !== null;
  }

  /** Scans every wallet once; concurrent calls share one run. */
  scanAll(): Promise<void> {
    // Cleared in a chained finally: the run may finish synchronously (no wallets), before assignment.
    if (this.scanning) return this.scanning;
    this.hooks.onScanning?.(true);
    this.scanning = this.scanEvery().finally(() => {
      this.scanning = null;
      this.hooks.onScanning?.(false);
    });
    return this.scanning;
  }

  private async scanEvery(): Promise<void> {
    try {
      const tip = this.chain.events ? null : await this.chain.getTip();
      if (tip) await this.followReorganisation(tip);
      for (const w of this.services.repos.wallets.all()) await this.scanWallet(w);
      this.lastError = null;
      if (tip) this.tipAt(tip.height);
      await this.hooks.afterScan?.();
    } catch (err) {
      this.lastError = (err as Error).message;
      this.hooks.onSyncError?.(this.lastError);
    }
  }

  /**
   * `claimed` if the chain proves the transaction is in its block at that height (proven-height.ts), else
   * null; the block's merkle root is kept, so that a reorganisation replacing the block is noticed.
   */
  async proveHeight(txid: string, claimed: number, knownPath?: string | null): Promise<number | null> {
    let root: string | null = null;
    const height = await provenHeight(this.chain, txid, claimed, knownPath, (_, r) => (root = r));
    if (height !== null && root !== null && !this.services.repos.provenBlocks.at(height)?.proved) {
      const { provenBlocks } = this.services.repos;
      const blocks = await headersToKeep(this.chain, height, root, (h) => provenBlocks.at(h)).catch(() => []);
      provenBlocks.keep(blocks);
    }
    return height;
  }

  /**
   * A block is the chain's last word until the chain replaces it. When the polled chain's tip has moved, the
   * blocks the books proved transactions in are compared with the chain's; from the lowest one replaced, what
   * the books dated into a block is unconfirmed again (coins, history, tokens, inscriptions), in one database
   * transaction. Reconciling then treats each like any unconfirmed transaction: proved again at its new
   * height, or, once the chain lacks it (double-spent in the new branch), undone. The embedded node's chain
   * never reorganises. A check the chain cannot answer is tried again at the next scan.
   */
  private async followReorganisation(tip: ChainTip): Promise<void> {
    if (tip.hash === this.checkedTip) return;
    const { db, repos, logger } = this.services;
    let from: number | null;
    try {
      from = await replacedFrom(this.chain, repos.provenBlocks.proved(), (h) => repos.provenBlocks.at(h));
    } catch (err) {
      logger.warn({ err: (err as Error).message }, 'could not check the chain for a reorganisation; checked again at the next scan');
      return;
    }
    if (from !== null) {
      const txids = [
        ...new Set([
          ...repos.walletTxs.txidsFrom(from),
          ...repos.walletUtxos.txidsFrom(from),
          ...repos.tokens.txidsFrom(from),
          ...repos.ordinals.txidsFrom(from),
        ]),
      ];
      const before = this.rowsBefore(txids);
      db.transaction(() => {
        for (const txid of txids) {
          repos.walletTxs.confirm(txid, null);
          repos.walletUtxos.confirm(txid, null);
          repos.tokens.confirm(txid, null);
          repos.ordinals.confirm(txid, null);
        }
        repos.provenBlocks.dropFrom(from);
      })();
      logger.warn(
        { from, transactions: txids.length },
        'the chain replaced blocks the books had proved; their transactions are unconfirmed again',
      );
      this.changed(before, txids);
    }
    // Forgotten below the books' own highest proved block, never below a provider's tip: one absurd tip must not
    // make the books forget the blocks they would need to follow a reorganisation.
    const highest = repos.provenBlocks.highestProved();
    if (highest !== null) repos.provenBlocks.dropBelow(highest - FOLLOWED_DEPTH);
    this.checkedTip = tip.hash;
  }

  /** A chain that pushes (the embedded node) tells us about every accepted transaction and mined block. */
  attach(events: ChainEvents): void {
    // A chain on another thread may still announce after the engine stopped (its database closed): ignored.
    events.onTransaction(({ txid, tx }) => {
      if (!this.stopped && !this.payerBooks.has(txid)) this.applyTransaction(tx, txid, null);
    });
    events.onBlock(({ height, txids }) => {
      if (!this.stopped) void this.confirm(txids, height);
    });
  }

  /** Tells about a new tip once (a block with none of our transactions moves it too). */
  private tipAt(height: number): void {
    if (height <= this.lastTip) return;
    this.lastTip = height;
    this.hooks.onTip?.(height);
  }

  /** On the network, poll every `ms`. */
  startPolling(ms: number): void {
    this.stop();
    if (ms <= 0) return;
    this.timer = setInterval(() => void this.scanAll(), ms);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
