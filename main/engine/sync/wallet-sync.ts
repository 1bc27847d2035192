import { Transaction } from '@bsv/sdk';
import { p2pkhAddressOf, type LocalNode } from '../../chain/local/local-node.js';
import type { ChainProvider } from '../../chain/types.js';
import type { WalletRow } from '../../store/repos/wallets.js';
import type { Services } from '../context.js';
import { GAP_LIMIT } from '../wallets/address-book.js';

type SyncServices = Pick<Services, 'db' | 'repos' | 'now' | 'addressBook'>;

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
export class WalletSync {
  private timer: NodeJS.Timeout | null = null;
  private scanning: Promise<void> | null = null;
  lastError: string | null = null;

  constructor(
    private readonly services: SyncServices,
    private readonly chain: ChainProvider,
  ) {}

  /** Records what `tx` does to the organisation's wallets; returns the wallet rows it touched. */
  applyTransaction(tx: Transaction, txid: string, height: number | null): number[] {
    const { db, repos, now } = this.services;
    const touched = db.transaction(() => {
      const effects = new Map<number, Effect>();
      const effect = (row: number) => {
        let e = effects.get(row);
        if (!e) effects.set(row, (e = { credit: 0, debit: 0, ownInputs: 0, ownInputTotal: 0, counterparty: null }));
        return e;
      };
      for (const input of tx.inputs) {
        const prev = input.sourceTXID ?? input.sourceTransaction?.id('hex');
        if (!prev) continue;
        const u = repos.walletUtxos.get(prev, input.sourceOutputIndex);
        if (!u || (u.spentBy !== null && u.spentBy !== txid)) continue;
        repos.walletUtxos.markSpent(prev, input.sourceOutputIndex, txid);
        const e = effect(u.walletRow);
        e.debit += u.satoshis;
        e.ownInputs += 1;
        e.ownInputTotal += u.satoshis;
      }
      const outTotal = tx.outputs.reduce((s, o) => s + (o.satoshis ?? 0), 0);
      const owners: (number | null)[] = [];
      tx.outputs.forEach((o, vout) => {
        const script = o.lockingScript.toHex();
        const address = p2pkhAddressOf(script);
        const owner = address ? repos.addresses.owner(address) : null;
        owners.push(owner?.walletRow ?? null);
        if (!owner || !address) return;
        repos.walletUtxos.insert({ walletRow: owner.walletRow, txid, vout, satoshis: o.satoshis ?? 0, script, chain: owner.chain, idx: owner.idx, status: 'available', height, address });
        repos.addresses.markUsed(owner.walletRow, address);
        effect(owner.walletRow).credit += o.satoshis ?? 0;
      });
      for (const [row, e] of effects) {
        // Who else this transaction paid, for the history's counterparty column.
        const other = tx.outputs.findIndex((o, i) => owners[i] !== row && p2pkhAddressOf(o.lockingScript.toHex()));
        const amount = e.credit - e.debit;
        const allOurs = e.ownInputs === tx.inputs.length;
        const fee = allOurs ? e.ownInputTotal - outTotal : null;
        const direction = e.debit === 0 ? 'in' : other === -1 && allOurs ? 'self' : 'out';
        repos.walletTxs.upsert({
          walletRow: row,
          txid,
          direction,
          amount,
          fee: direction === 'in' ? null : fee,
          counterparty: direction === 'out' && other !== -1 ? p2pkhAddressOf(tx.outputs[other].lockingScript.toHex()) : null,
          memo: null,
          height,
          time: now(),
        });
      }
      return [...effects.keys()];
    })();
    for (const row of touched) this.keepGap(row);
    return touched;
  }

  /** Marks transactions as mined at `height`. */
  confirm(txids: readonly string[], height: number): void {
    const { db, repos } = this.services;
    db.transaction(() => {
      for (const txid of txids) {
        repos.walletUtxos.confirm(txid, height);
        repos.walletTxs.confirm(txid, height);
      }
    })();
  }

  private keepGap(walletRow: number): void {
    const w = this.services.repos.wallets.byRow(walletRow);
    if (!w) return;
    this.services.addressBook.ensureGap(w, 0);
    this.services.addressBook.ensureGap(w, 1);
  }

  /**
   * Walks both chains of the wallet's addresses, asking the provider for each one's history until
   * GAP_LIMIT addresses in a row have none, and applies every transaction not yet recorded.
   */
  async scanWallet(wallet: WalletRow): Promise<void> {
    const { repos, addressBook } = this.services;
    for (const chain of [0, 1] as const) {
      let lastUsed = -1;
      for (let idx = 0; idx <= lastUsed + GAP_LIMIT; idx++) {
        if (!repos.addresses.at(wallet.id, chain, idx)) addressBook.derive(wallet, chain, repos.addresses.count(wallet.id, chain), idx + 1);
        const { address } = repos.addresses.at(wallet.id, chain, idx)!;
        const history = await this.chain.getHistory(address);
        if (history.length === 0) continue;
        lastUsed = idx;
        repos.addresses.markUsed(wallet.id, address);
        for (const h of history) {
          const known = repos.walletTxs.heightOf(wallet.id, h.txid);
          if (known !== undefined && known === h.height) continue;
          if (known !== undefined && h.height !== null) {
            this.confirm([h.txid], h.height);
            continue;
          }
          const hex = await this.chain.getTransactionHex(h.txid);
          if (hex) this.applyTransaction(Transaction.fromHex(hex), h.txid, h.height);
        }
      }
      addressBook.ensureGap(wallet, chain);
    }
  }

  /** Scans every wallet once; concurrent calls share one run. */
  scanAll(): Promise<void> {
    // Cleared in a chained finally: the run may finish synchronously (no wallets), before assignment.
    this.scanning ??= this.scanEvery().finally(() => {
      this.scanning = null;
    });
    return this.scanning;
  }

  private async scanEvery(): Promise<void> {
    try {
      for (const w of this.services.repos.wallets.all()) await this.scanWallet(w);
      this.lastError = null;
    } catch (err) {
      this.lastError = (err as Error).message;
    }
  }

  /** The local node tells us about every accepted transaction and mined block as it happens. */
  attachLocal(node: LocalNode): void {
    node.on('tx', ({ txid, tx }) => this.applyTransaction(tx, txid, null));
    node.on('block', ({ height, txids }) => this.confirm(txids, height));
  }

  /** On the network, poll every `ms`. */
  startPolling(ms: number): void {
    this.stop();
    if (ms <= 0) return;
    this.timer = setInterval(() => void this.scanAll(), ms);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
