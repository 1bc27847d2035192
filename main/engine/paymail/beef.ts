import { MerklePath, Transaction, type ChainTracker } from '@bsv/sdk';
import type { ChainProvider } from '../../chain/types.js';

/** Unconfirmed ancestors a BEEF may carry before the first proven one: deeper chains are delivered as raw hex. */
const MAX_UNPROVEN_DEPTH = 25;
/**
 * What a received BEEF may make us verify: every unproven transaction's inputs are script-checked, so a
 * stranger's BEEF is bounded before any of that work starts (the public listener takes them from anyone).
 */
export const MAX_BEEF_TRANSACTIONS = 1_000;
export const MAX_BEEF_UNPROVEN_INPUTS = 5_000;

/** The chain as @bsv/sdk's header tracker: a merkle root is valid when the chain's block at that height has it. */
export function chainTrackerOf(chain: ChainProvider): ChainTracker {
  return {
    isValidRootForHeight: async (root, height) => (await chain.getMerkleRoot(height)) === root,
    currentHeight: async () => (await chain.getTip()).height,
  };
}

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
    return (await attachSources(tx, 0)) ? tx.toHexBEEF() : null;
  } catch {
    return null;
  }
}

/**
 * Reads a BEEF a sender delivered and checks it by SPV: every input's scripts against its source output,
 * and the proven ancestors' merkle paths against the chain's block headers. Throws with the reason.
 */
export async function verifiedBeef(chain: ChainProvider, beefHex: string, limits = { transactions: MAX_BEEF_TRANSACTIONS, unprovenInputs: MAX_BEEF_UNPROVEN_INPUTS }): Promise<Transaction> {
  let tx: Transaction;
  try {
    tx = Transaction.fromHexBEEF(beefHex);
  } catch (err) {
    throw new Error(`beef is not a BEEF transaction (${(err as Error).message})`, { cause: err });
  }
  const seen = new Set<string>();
  let unprovenInputs = 0;
  const stack: Transaction[] = [tx];
  while (stack.length) {
    const t = stack.pop()!;
    const id = t.id('hex');
    if (seen.has(id)) continue;
    seen.add(id);
    if (seen.size > limits.transactions) throw new Error(`the BEEF carries more than ${limits.transactions} transactions`);
    if (t.merklePath) continue;
    unprovenInputs += t.inputs.length;
    if (unprovenInputs > limits.unprovenInputs) throw new Error(`the BEEF asks for more than ${limits.unprovenInputs} unproven inputs to be checked`);
    for (const input of t.inputs) if (input.sourceTransaction) stack.push(input.sourceTransaction);
  }
  let valid: boolean;
  try {
    valid = await tx.verify(chainTrackerOf(chain));
  } catch (err) {
    throw new Error(`the BEEF does not verify: ${(err as Error).message}`, { cause: err });
  }
  if (!valid) throw new Error('the BEEF does not verify: an input script or a merkle proof is wrong');
  return tx;
}
