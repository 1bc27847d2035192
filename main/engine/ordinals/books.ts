import { Hash, Utils, type Transaction } from '@bsv/sdk';
import type { Logger } from '../../log/logger.js';
import type { OrdinalOutput, OrdinalValidity } from '../../store/repos/ordinals.js';
import type { CoreServices, Repos } from '../context.js';
import { ownFee } from '../sync/own-fee.js';
import type { SideBooks } from '../sync/wallet-sync.js';
import { addressOfPkh, parseOrdOutput } from '../../chain/ordinal-envelope.js';
import type { OrdinalsIndex } from './ordinals-index.js';

/**
 * The ordinals books: outputs carrying an `ord` envelope that pay one of the organisation's addresses. Wallet
 * sync never books them as coins (it books exact P2PKH scripts only); this side book, moved by the same
 * transactions in the same database transactions, books them here instead (table `ordinal_outputs`), with the
 * inscription's content type and size and its BSV-21 operation.
 *
 * A BSV-21 output is valid at once when it is a deploy+mint, or when its transaction spends only our own valid
 * outputs of the token and creates no more of it than they held (our own sends); otherwise it is pending until
 * the ordinals index decides it (`validatePending`). Balances count valid outputs only.
 */
type BookServices = Pick<CoreServices, 'now'> & {
  repos: Pick<Repos, 'ordinals' | 'addresses' | 'walletTxs' | 'walletUtxos' | 'payments'> & Partial<Pick<Repos, 'wallets'>>;
};

export class OrdinalBooks implements SideBooks {
  private validating: Promise<number> | null = null;

  constructor(
    private readonly services: BookServices,
    private readonly index: () => OrdinalsIndex,
    private readonly logger: Logger,
    private readonly onDecided: ((walletRows: number[]) => void) | null = null,
  ) {}

  apply(tx: Transaction, txid: string, height: number | null): number[] {
    const { repos, now } = this.services;
    const touched = new Set<number>();
    const spent: (OrdinalOutput | null)[] = tx.inputs.map((input) => {
      const prev = input.sourceTXID ?? input.sourceTransaction?.id('hex');
      const o = prev ? repos.ordinals.get(prev, input.sourceOutputIndex) : null;
      if (!o || (o.spentBy !== null && o.spentBy !== txid)) return null;
      repos.ordinals.markSpent(o.txid, o.vout, txid);
      touched.add(o.walletRow);
      return o;
    });
    const created: { vout: number; facts: ReturnType<typeof parseOrdOutput>; satoshis: number; script: string }[] = [];
    tx.outputs.forEach((o, vout) => {
      const script = o.lockingScript.toHex();
      // Quick reject: every envelope holds "ord" (6f7264); most scripts (plain P2PKH) are never parsed.
      if (!script.includes('036f7264')) return;
      const facts = parseOrdOutput(script, { maxContentBytes: 2048 });
      if (facts.inscription) created.push({ vout, facts, satoshis: o.satoshis ?? 0, script });
    });
    let pending = false;
    for (const c of created) {
      const { facts, vout } = c;
      const mine = facts.owner ? repos.addresses.owner(facts.owner) : null;
      const op = facts.bsv21;
      if (op?.op === 'deploy+mint')
        repos.ordinals.putToken({ tokenId: `${txid}_${vout}`, sym: op.sym, dec: op.dec ?? 0, supply: op.amt, icon: op.icon }, now());
      if (!mine || !facts.owner) continue;
      const tokenId = op ? (op.op === 'deploy+mint' ? `${txid}_${vout}` : op.id) : null;
      const validity: OrdinalValidity = !op
        ? 'none'
        : op.op === 'deploy+mint'
          ? 'valid'
          : this.ownTransfer(tx, spent, tokenId!)
            ? 'valid'
            : 'pending';
      if (validity === 'pending') pending = true;
      repos.ordinals.insert(
        {
          txid,
          vout,
          walletRow: mine.walletRow,
          address: facts.owner,
          chain: mine.chain,
          idx: mine.idx,
          satoshis: c.satoshis,
          script: c.script,
          contentType: facts.inscription!.contentType,
          contentSize: facts.inscription!.size,
          bsv21Op: op?.op ?? null,
          tokenId,
          amount: op?.amt ?? null,
          validity,
          height,
        },
        now(),
      );
      repos.addresses.markUsed(mine.walletRow, facts.owner);
      touched.add(mine.walletRow);
    }
    if (pending) queueMicrotask(() => void this.validatePending());
    this.historyRows(tx, txid, height, touched, spent);
    return [...touched];
  }

  /**
   * Whether the transfer outputs of `tokenId` in this transaction are proven by our own books: every input
   * carrying the token is one of our valid outputs, and the outputs state no more than those held.
   */
  private ownTransfer(tx: Transaction, spent: (OrdinalOutput | null)[], tokenId: string): boolean {
    let into = 0n;
    for (const [i, input] of tx.inputs.entries()) {
      const o = spent[i];
      if (o) {
        if (o.tokenId === tokenId && o.bsv21Op !== 'burn') {
          if (o.validity !== 'valid') return false;
          into += BigInt(o.amount!);
        }
        continue;
      }
      // An input we do not hold as an ordinal: a coin of ours carries no token; anything else is unknown.
      if (!input.sourceTXID || !this.services.repos.walletUtxos.get(input.sourceTXID, input.sourceOutputIndex)) return false;
    }
    let out = 0n;
    for (const o of tx.outputs) {
      const op = parseOrdOutput(o.lockingScript.toHex(), { maxContentBytes: 2048 }).bsv21;
      if (op && op.op !== 'deploy+mint' && op.id === tokenId) out += BigInt(op.amt);
    }
    return into > 0n && out <= into;
  }

  /**
   * A transaction that moved only ordinals for a wallet still gets its history row (0 satoshis), so it is shown
   * and reconciled with the chain like every other; a receiver's names who sent (the key of its first input).
   */
  private historyRows(tx: Transaction, txid: string, height: number | null, touched: Set<number>, spent: (OrdinalOutput | null)[]): void {
    const { repos, now } = this.services;
    const fee = ownFee(
      this.services.repos,
      tx,
      spent.map((s) => s?.satoshis ?? null),
    );
    for (const walletRow of touched) {
      const out = spent.some((o) => o?.walletRow === walletRow);
      const existing = repos.walletTxs.row(walletRow, txid);
      const counterparty = out ? this.recipientOf(tx, txid, walletRow) : senderOf(tx);
      const other = counterparty && repos.addresses.owner(counterparty)?.walletRow !== walletRow ? counterparty : null;
      if (existing) {
        // Wallet sync wrote the row from the coins alone: the fee (ordinal inputs are not coins) and whom it went to are filled in.
        if (!out || (existing.fee !== null && existing.counterparty !== null)) continue;
        repos.walletTxs.upsert({
          walletRow,
          txid,
          direction: existing.direction,
          amount: existing.amount,
          fee: existing.fee ?? fee?.fee ?? null,
          feePaidBy: existing.feePaidBy ?? fee?.paidBy ?? null,
          counterparty: existing.counterparty ?? other,
          memo: existing.memo,
          height: height ?? existing.height,
          time: existing.time,
        });
        continue;
      }
      repos.walletTxs.upsert({
        walletRow,
        txid,
        direction: out ? 'out' : 'in',
        amount: 0,
        fee: out ? (fee?.fee ?? null) : null,
        feePaidBy: out ? (fee?.paidBy ?? null) : null,
        counterparty: other,
        memo: out ? 'Ordinals sent' : 'Ordinals received',
        height,
        time: now(),
      });
    }
  }

  /** Whom a wallet sent ordinals to: the paymail or address its send named, else the first ordinal output not its own. */
  private recipientOf(tx: Transaction, txid: string, walletRow: number): string | null {
    const { repos } = this.services;
    const attempt = repos.payments.attemptFor(txid);
    if (attempt?.counterparty && attempt.walletRow === walletRow) return attempt.counterparty;
    for (const o of tx.outputs) {
      if (o.satoshis !== 1) continue;
      const owner = parseOrdOutput(o.lockingScript.toHex(), { maxContentBytes: 0 }).owner;
      if (owner && repos.addresses.owner(owner)?.walletRow !== walletRow) return owner;
    }
    return null;
  }

  /**
   * Asks the ordinals index about every pending token output (at most 500 per run); concurrent calls share one
   * run. Returns how many were decided. An index that cannot answer leaves them pending (and is logged).
   */
  validatePending(): Promise<number> {
    return (this.validating ??= this.validate().finally(() => {
      this.validating = null;
    }));
  }

  private async validate(): Promise<number> {
    const { repos } = this.services;
    const rows = new Set<number>();
    let decided = 0;
    for (const o of repos.ordinals.pending()) {
      try {
        const facts = await this.index().bsv21Output(o.txid, o.vout);
        // The index must agree with the script we booked: another id or amount is no verdict on this output.
        const agrees = facts !== null && facts.id === o.tokenId && facts.amt.toString() === o.amount;
        const validity: OrdinalValidity = !agrees ? 'invalid' : facts.valid === null ? 'pending' : facts.valid ? 'valid' : 'invalid';
        if (validity !== 'pending') {
          if (validity === 'valid' && o.tokenId) await this.learnToken(o.tokenId);
          repos.ordinals.setValidity(o.txid, o.vout, validity);
          rows.add(o.walletRow);
          decided++;
        }
      } catch (err) {
        this.logger.warn({ err: (err as Error).message, txid: o.txid, vout: o.vout }, 'a BSV-21 output could not be decided yet');
      }
    }
    if (rows.size) this.onDecided?.([...rows]);
    return decided;
  }

  /** A token's deploy facts (symbol, decimals, supply), from the index, when the books do not have them yet. */
  async learnToken(tokenId: string): Promise<void> {
    const { repos, now } = this.services;
    if (repos.ordinals.token(tokenId)) return;
    const t = await this.index().bsv21Token(tokenId);
    if (t) repos.ordinals.putToken({ tokenId, sym: t.sym, dec: t.dec, supply: t.amt.toString(), icon: t.icon }, now());
  }

  dependents(txid: string): string[] {
    return this.services.repos.ordinals.dependents(txid);
  }

  revert(txid: string): void {
    this.services.repos.ordinals.revert(txid);
  }

  release(attempt: string): void {
    this.services.repos.ordinals.release(attempt);
  }

  /** At start: ordinal outputs reserved by a send that never got signed and stored are free again. */
  releaseUnsigned(stored: (attempt: string) => boolean): void {
    for (const attempt of this.services.repos.ordinals.reservingAttempts())
      if (!stored(attempt)) this.services.repos.ordinals.release(attempt);
  }

  confirm(txid: string, height: number): void {
    this.services.repos.ordinals.confirm(txid, height);
  }
}

/** Who sent a transaction: the address of the key that unlocked its first input (P2PKH ends with the public key), or null. */
function senderOf(tx: Transaction): string | null {
  const chunks = tx.inputs[0]?.unlockingScript?.chunks ?? [];
  const last = chunks[chunks.length - 1]?.data;
  if (!last || last.length !== 33 || (last[0] !== 2 && last[0] !== 3)) return null;
  return addressOfPkh(Utils.toHex(Hash.hash160(last)));
}
