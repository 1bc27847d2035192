import { MerklePath, Transaction } from '@bsv/sdk';
import type { ChainProvider } from '../../chain/types.js';
import { MAX_RECEIVED_BEEF_BYTES } from './receive-limits.js';
import { BEEF_LIMITS } from './beef-check.js';

// A received BEEF is read and checked in beef-check.ts (bounded, proofs first, scripts on workers).
export { verifiedBeef, BEEF_LIMITS, MAX_BEEF_TRANSACTIONS, MAX_BEEF_UNPROVEN_INPUTS } from './beef-check.js';

/** Unconfirmed ancestors a BEEF may carry before the first proven one (what a receiver takes): deeper chains are delivered as raw hex. */
const MAX_UNPROVEN_DEPTH = BEEF_LIMITS.unprovenDepth;

/**
 * The transaction as BEEF (BRC-62) for a receiver that verifies it by SPV: each input's source transaction,
 * back to ancestors a block holds (with their merkle paths from the chain). Null when an ancestor cannot
 * be had or the unconfirmed chain is too deep; the caller then sends the raw transaction.
 */
export async function beefOf(chain: ChainProvider, signed: Transaction): Promise<string | null> {
  const tx = Transaction.fromHex(signed.toHex());
  const seen = new Map<string, Transaction>();
  async function source(txid: string, depth: number): Promise<Transaction | null> {
    const known = seen.get(txid);
    if (known) return known;
    const [hex, status] = await Promise.all([chain.getTransactionHex(txid), chain.getTxStatus(txid)]);
    if (!hex) return null;
    const t = Transaction.fromHex(hex);
    seen.set(txid, t);
    if (status.merklePath) {
      t.merklePath = MerklePath.fromHex(status.merklePath);
      return t;
    }
    if (depth >= MAX_UNPROVEN_DEPTH) return null;
    return (await attachSources(t, depth + 1)) ? t : null;
  }
  async function attachSources(t: Transaction, depth: number): Promise<boolean> {
    for (const input of t.inputs) {
      const parent = input.sourceTXID ? await source(input.sourceTXID, depth) : null;
      if (!parent) return false;
      input.sourceTransaction = parent;
    }
    return true;
  }
  try {
    if (!(await attachSources(tx, 0))) return null;
    const beef = tx.toHexBEEF();
    // A receiver refuses a larger BEEF by its length (receive-limits.ts); the raw transaction goes instead.
    return beef.length / 2 <= MAX_RECEIVED_BEEF_BYTES ? beef : null;
  } catch {
    return null;
  }
}
