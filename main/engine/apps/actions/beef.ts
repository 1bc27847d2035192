import { Beef, MerklePath, Transaction, type ChainTracker } from '@bsv/sdk';
import type { ChainProvider } from '../../../chain/types.js';
import { BEEF_LIMITS } from '../../paymail/beef-check.js';
import { invalidOperation, invalidParameter } from '../werr.js';

/**
 * BEEF in and out of actions. In: the app's `inputBEEF`, checked by SPV (every merkle path against the
 * chain's block headers) before any of its transactions is trusted as an input's source. Out: the action
 * as Atomic BEEF (BRC-95), each input's source attached back to transactions a block holds, as paymail/beef.ts does.
 */

/** The chain's headers as @bsv/sdk's ChainTracker: a merkle root is valid when the chain's block at that height has it. */
export function chainTracker(chain: ChainProvider): ChainTracker {
  return {
    isValidRootForHeight: async (root, height) => (await chain.getMerkleRoot(height)) === root,
    currentHeight: async () => (await chain.getTip()).height,
  };
}

/** The app's inputBEEF, read and verified by SPV; WERR_INVALID_PARAMETER inputBEEF when it is not a valid BEEF. */
export async function verifiedInputBeef(chain: ChainProvider, bytes: number[]): Promise<Beef> {
  let beef: Beef;
  try {
    beef = Beef.fromBinary(bytes);
  } catch (err) {
    throw invalidParameter('inputBEEF', `a BEEF (BRC-62) (${(err as Error).message})`);
  }
  if (beef.txs.length > BEEF_LIMITS.transactions)
    throw invalidParameter('inputBEEF', `a BEEF of at most ${BEEF_LIMITS.transactions} transactions`);
  let valid: boolean;
  try {
    valid = await beef.verify(chainTracker(chain), true);
  } catch (err) {
    throw invalidParameter('inputBEEF', `a BEEF whose merkle proofs the chain's headers confirm (${(err as Error).message})`);
  }
  if (!valid) throw invalidParameter('inputBEEF', "a BEEF whose merkle proofs the chain's headers confirm");
  return beef;
}

/** Where a source transaction not on the chain yet may be found: an earlier noSend action of the wallet. */
export type LocalSource = (txid: string) => Transaction | undefined;

/** A transaction with its merkle path when a block holds it; its own sources attached when none does. */
async function sourceOf(
  chain: ChainProvider,
  txid: string,
  depth: number,
  seen: Map<string, Transaction>,
  local?: LocalSource,
): Promise<Transaction> {
  const known = seen.get(txid);
  if (known) return known;
  let tx = local?.(txid);
  if (!tx) {
    const [hex, status] = await Promise.all([chain.getTransactionHex(txid), chain.getTxStatus(txid)]);
    if (!hex) throw invalidOperation(`The chain does not have transaction ${txid}, which an input of this action spends.`);
    tx = Transaction.fromHex(hex);
    if (status.merklePath) tx.merklePath = MerklePath.fromHex(status.merklePath);
  }
  seen.set(txid, tx);
  if (tx.merklePath) return tx;
  if (depth >= BEEF_LIMITS.unprovenDepth)
    throw invalidOperation(`The chain of unconfirmed transactions behind ${txid} is deeper than ${BEEF_LIMITS.unprovenDepth}.`);
  for (const input of tx.inputs) input.sourceTransaction = await sourceOf(chain, input.sourceTXID!, depth + 1, seen, local);
  return tx;
}

/**
 * Attaches every input's source transaction (from the app's BEEF when it has it, else an earlier noSend
 * action's, else the chain's), so the transaction can be serialized as Atomic BEEF and its scripts checked.
 */
export async function attachSources(chain: ChainProvider, tx: Transaction, given?: Beef, local?: LocalSource): Promise<void> {
  const seen = new Map<string, Transaction>();
  for (const input of tx.inputs) {
    if (input.sourceTransaction) continue;
    const txid = input.sourceTXID!;
    input.sourceTransaction = given?.findAtomicTransaction(txid) ?? (await sourceOf(chain, txid, 0, seen, local));
  }
}

/** The transaction as Atomic BEEF (its sources attached by attachSources). */
export function atomicBeef(tx: Transaction): number[] {
  return tx.toAtomicBEEF();
}
