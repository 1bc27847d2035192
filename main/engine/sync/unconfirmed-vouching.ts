import { Transaction } from '@bsv/sdk';
import { nodesAccepted } from '../../chain/node-acceptance.js';
import type { ChainProvider } from '../../chain/types.js';

/**
 * On a polled chain the indexer (WhatsOnChain) names the transactions of our addresses. One that no block
 * proves yet would be booked on the indexer's word alone, and an indexer that lies could invent one (its
 * inputs need not exist) that pays an invoice or shows money that is not there. So an unconfirmed transaction
 * is booked only when the broadcaster (ARC, the miners' service, a second source the indexer does not
 * control) says a node of the network accepted it, which means its inputs exist unspent and its scripts
 * verify. ARC knows what was sent to it; a transaction it does not know is sent to it to be judged (it is
 * public already: any receiver may pass it on), unless it spends coins of ours: Keystead sends nothing that
 * spends its own coins but what a payment of its own made. Until a node vouches for it, or a block proves it,
 * the transaction stays off the books; later scans ask (and send it) again, waiting longer after each no.
 */

/** The first wait after a transaction was not vouched for, doubled after each further no, up to the last. */
const FIRST_WAIT_MS = 30_000;
const LONGEST_WAIT_MS = 30 * 60_000;
/** Inputs whose parents are fetched to send a transaction in Extended Format; a larger one goes raw. */
const MAX_EXTENDED_INPUTS = 25;
/** Transactions remembered as waiting: an indexer naming millions cannot make this grow without end. */
const MAX_WAITING = 10_000;

export type Vouch = 'vouched' | 'not-yet';

export class UnconfirmedVouching {
  /** Transactions not vouched for, with when to ask about each again. */
  private readonly waiting = new Map<string, { next: number; wait: number }>();

  constructor(
    private readonly chain: ChainProvider,
    private readonly now: () => number,
  ) {}

  /** Whether a node of the network vouches for `tx` now; `spendsOurs`: it spends coins the books hold. */
  async vouch(tx: Transaction, txid: string, spendsOurs: boolean): Promise<Vouch> {
    const w = this.waiting.get(txid);
    if (w && this.now() < w.next) return 'not-yet';
    if (await nodesAccepted(this.chain, txid)) {
      this.waiting.delete(txid);
      return 'vouched';
    }
    if (!spendsOurs) {
      const r = await this.chain.broadcast(await this.extended(tx)).catch(() => null);
      if (r?.status === 'accepted' && (await nodesAccepted(this.chain, txid))) {
        this.waiting.delete(txid);
        return 'vouched';
      }
    }
    this.waiting.delete(txid);
    const wait = w ? Math.min(w.wait * 2, LONGEST_WAIT_MS) : FIRST_WAIT_MS;
    makeRoom(this.waiting);
    this.waiting.set(txid, { next: this.now() + wait, wait });
    return 'not-yet';
  }

  /**
   * The transaction in Extended Format (each input with the output it spends), which ARC can judge without
   * fetching the parents itself (it cannot when they reached the network through another broadcaster); raw
   * when a parent cannot be had. The parents come from the indexer, whose bytes must hash to the txids the
   * transaction names, so they are the transaction's real parents or it is refused.
   */
  private async extended(tx: Transaction): Promise<string> {
    if (tx.inputs.length > MAX_EXTENDED_INPUTS) return tx.toHex();
    try {
      const copy = Transaction.fromHex(tx.toHex());
      for (const input of copy.inputs) {
        const hex = input.sourceTXID ? await this.chain.getTransactionHex(input.sourceTXID) : null;
        if (!hex) return tx.toHex();
        input.sourceTransaction = Transaction.fromHex(hex);
      }
      return copy.toHexEF();
    } catch {
      return tx.toHex(); // a parent the indexer could not give, or one that is not the output's: ARC judges the raw transaction
    }
  }
}

/** Keeps a memory bounded: forgets its oldest entry when full. */
function makeRoom(memory: Map<string, unknown>): void {
  if (memory.size >= MAX_WAITING) memory.delete(memory.keys().next().value!);
}
