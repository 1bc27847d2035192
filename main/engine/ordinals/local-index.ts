import { DomainError } from '../../../shared/errors.js';
import { parseTransactionHex, type ParsedTransaction } from '../../chain/transaction-bytes.js';
import type { ChainProvider } from '../../chain/types.js';
import type { Logger } from '../../log/logger.js';
import type { OrdinalRepo } from '../../store/repos/ordinals.js';
import { OUTPOINT_RE, parseOrdOutput, type Bsv21Op } from '../../chain/ordinal-envelope.js';
import type { Bsv21OutputFacts, Bsv21TokenFacts, IndexedOutpoint, OrdinalsIndex } from './ordinals-index.js';

/**
 * Keystead's own BSV-21 index, for the embedded local chain (no public indexer knows it). It decides an output
 * by walking its history back through the chain provider's transactions to the token's deploy+mint, and
 * remembers every output it proved (table `bsv21_proofs`), so a later walk stops there.
 *
 * Rules (BSV-21 specification): a deploy+mint output is valid and holds its whole supply; its id is its own
 * outpoint. A transaction's transfer and burn outputs of a token are valid together when the valid outputs of
 * that token it spends hold at least what they state (conservation per token per transaction); otherwise every
 * one of them is invalid, and the tokens spent are lost. Tokens spent without a transfer are burned. A burn
 * output holds nothing spendable. Each walk does at most `maxTransactions` fetches: beyond that, its answer is
 * pending (null), and the next call continues from what this one proved.
 */
export interface LocalOrdinalsIndexOptions {
  chain: Pick<ChainProvider, 'getTransactionHex' | 'getHistory'> & Partial<Pick<ChainProvider, 'getSpentBy'>>;
  repo: Pick<OrdinalRepo, 'proof' | 'putProof'>;
  logger: Logger;
  now: () => number;
  /** Transactions fetched by one call at most (500 by default). */
  maxTransactions?: number;
}

/** A token output of one transaction: its outpoint and what its inscription states. */
interface TokenOutput {
  vout: number;
  op: Bsv21Op;
}

export class LocalOrdinalsIndex implements OrdinalsIndex {
  readonly source = 'local';
  private readonly maxTransactions: number;
  /** Transactions are immutable: a bounded cache (entries and bytes). */
  private readonly cache = new Map<string, ParsedTransaction>();
  private cacheBytes = 0;

  constructor(private readonly opts: LocalOrdinalsIndexOptions) {
    this.maxTransactions = opts.maxTransactions ?? 500;
  }

  async bsv21Output(txid: string, vout: number): Promise<Bsv21OutputFacts | null> {
    if (!/^[0-9a-f]{64}$/.test(txid) || !Number.isInteger(vout) || vout < 0) throw new DomainError('VALIDATION_FAILED', 'Not an outpoint.');
    const known = this.opts.repo.proof(txid, vout);
    if (known) return { id: known.tokenId, op: known.op as Bsv21OutputFacts['op'], amt: BigInt(known.amount), valid: known.valid };
    const budget = { left: this.maxTransactions };
    const tx = await this.transaction(txid, budget);
    const output = tx?.tx.outputs[vout];
    if (!output) return null;
    const op = parseOrdOutput(output.lockingScript.toHex(), { maxContentBytes: 2048 }).bsv21;
    if (!op) return null;
    const id = op.op === 'deploy+mint' ? `${txid}_${vout}` : op.id!;
    if (op.op === 'deploy+mint') {
      this.remember(txid, vout, { tokenId: id, op: op.op, amount: op.amt, valid: true });
      return { id, op: op.op, amt: BigInt(op.amt), valid: true };
    }
    const valid = await this.decide(txid, id, budget);
    return { id, op: op.op, amt: BigInt(op.amt), valid };
  }

  async bsv21Token(id: string): Promise<Bsv21TokenFacts | null> {
    if (!OUTPOINT_RE.test(id)) throw new DomainError('VALIDATION_FAILED', 'A token id is <txid>_<vout>.');
    const [txid, vout] = [id.slice(0, 64), Number(id.slice(65))];
    const tx = await this.transaction(txid, { left: 1 });
    const output = tx?.tx.outputs[vout];
    const op = output ? parseOrdOutput(output.lockingScript.toHex(), { maxContentBytes: 2048 }).bsv21 : null;
    if (!op || op.op !== 'deploy+mint') return null;
    return { id, sym: op.sym, dec: op.dec ?? 0, amt: BigInt(op.amt), icon: op.icon };
  }

  /**
   * Unspent outputs at `address` carrying an inscription or a token, or a lone satoshi (which may carry one):
   * found through the address's history (the local node links an output to the address whose P2PKH starts its
   * script; an envelope-first output is found only through a plain output of the same transaction).
   */
  async ordinalOutputsOf(address: string): Promise<IndexedOutpoint[]> {
    const held: IndexedOutpoint[] = [];
    const budget = { left: this.maxTransactions };
    for (const h of await this.opts.chain.getHistory(address)) {
      const tx = await this.transaction(h.txid, budget);
      if (!tx) break;
      for (const [vout, o] of tx.tx.outputs.entries()) {
        const facts = parseOrdOutput(o.lockingScript.toHex(), { maxContentBytes: 0 });
        if (facts.owner !== address || (facts.inscription === null && o.satoshis !== 1)) continue;
        if (this.opts.chain.getSpentBy && (await this.opts.chain.getSpentBy(h.txid, vout)) !== null) continue;
        held.push({ txid: h.txid, vout });
      }
    }
    return held;
  }

  /**
   * Whether the token outputs of `id` that transaction `txid` creates are valid: walked depth first with an
   * explicit stack (no recursion, whatever the history's length), each transaction decided once its token
   * inputs are. Null when the budget runs out first.
   */
  private async decide(txid: string, id: string, budget: { left: number }): Promise<boolean | null> {
    const decided = new Map<string, boolean>(); // `${txid}` → verdict for `id` (one token per walk)
    const stack: string[] = [txid];
    while (stack.length) {
      const at = stack[stack.length - 1];
      if (decided.has(at)) {
        stack.pop();
        continue;
      }
      const tx = await this.transaction(at, budget);
      if (!tx) return null;
      let into = 0n;
      const waiting: string[] = [];
      for (const input of tx.tx.inputs) {
        const ptxid = input.sourceTXID!;
        const pvout = input.sourceOutputIndex;
        const proof = this.opts.repo.proof(ptxid, pvout);
        if (proof) {
          if (proof.tokenId === id && proof.valid && proof.op !== 'burn') into += BigInt(proof.amount);
          continue;
        }
        const parent = await this.transaction(ptxid, budget);
        if (!parent) return null;
        const out = parent.tx.outputs[pvout];
        const op = out ? parseOrdOutput(out.lockingScript.toHex(), { maxContentBytes: 2048 }).bsv21 : null;
        if (!op) continue;
        if (op.op === 'deploy+mint') {
          if (`${ptxid}_${pvout}` === id) into += BigInt(op.amt);
          this.remember(ptxid, pvout, { tokenId: `${ptxid}_${pvout}`, op: op.op, amount: op.amt, valid: true });
          continue;
        }
        if (op.id !== id || op.op === 'burn') continue;
        const verdict = decided.get(ptxid);
        if (verdict === undefined) waiting.push(ptxid);
        else if (verdict) into += BigInt(op.amt);
      }
      if (waiting.length) {
        // A DAG has no cycles: a transaction pushed twice is decided once and popped the second time.
        stack.push(...waiting);
        continue;
      }
      const outs = tokenOutputs(tx, id);
      const spent = outs.reduce((s, o) => s + BigInt(o.op.amt), 0n);
      const valid = spent <= into;
      decided.set(at, valid);
      for (const o of outs) this.remember(at, o.vout, { tokenId: id, op: o.op.op, amount: o.op.amt, valid });
      stack.pop();
    }
    return decided.get(txid) ?? null;
  }

  private remember(txid: string, vout: number, p: { tokenId: string; op: string; amount: string; valid: boolean }): void {
    this.opts.repo.putProof(txid, vout, p, this.opts.now());
  }

  /** A transaction from the chain provider, checked to be the one asked for; null when the budget is spent. */
  private async transaction(txid: string, budget: { left: number }): Promise<ParsedTransaction | null> {
    const cached = this.cache.get(txid);
    if (cached) return cached;
    if (budget.left-- <= 0) {
      this.opts.logger.warn({ txid }, 'a BSV-21 walk reached its budget; the output stays pending until the next call');
      return null;
    }
    const hex = await this.opts.chain.getTransactionHex(txid);
    if (hex === null) throw new DomainError('CHAIN_UNAVAILABLE', `The chain does not know transaction ${txid}.`);
    const parsed = parseTransactionHex(hex);
    if (parsed.txid !== txid) throw new DomainError('CHAIN_UNAVAILABLE', `The chain answered transaction ${txid} with another one.`);
    if (parsed.raw.length <= 2 * 1024 * 1024) {
      this.cache.set(txid, parsed);
      this.cacheBytes += parsed.raw.length;
      for (const [k, v] of this.cache) {
        if (this.cacheBytes <= 16 * 1024 * 1024 && this.cache.size <= 512) break;
        this.cache.delete(k);
        this.cacheBytes -= v.raw.length;
      }
    }
    return parsed;
  }
}

/** The transfer and burn outputs of token `id` in a transaction. */
function tokenOutputs(tx: ParsedTransaction, id: string): TokenOutput[] {
  const outs: TokenOutput[] = [];
  tx.tx.outputs.forEach((o, vout) => {
    const op = parseOrdOutput(o.lockingScript.toHex(), { maxContentBytes: 2048 }).bsv21;
    if (op && op.op !== 'deploy+mint' && op.id === id) outs.push({ vout, op });
  });
  return outs;
}
