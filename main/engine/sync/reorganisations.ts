import type { ChainProvider } from '../../chain/types.js';
import type { ProvenBlock } from '../../store/repos/proven-blocks.js';

/**
 * How deep a reorganisation of a polled chain is followed: a block this many below the tip at a check is
 * taken as final (the network's own coinbase maturity), and the root it was proved against is forgotten.
 */
export const FOLLOWED_DEPTH = 100;

/**
 * The lowest height at which the chain now has another block than the one the books proved transactions in,
 * or null when every block still stands. A reorganisation replaces the chain from some height up, so every
 * booked height from there on is replaced too. The roots come from `getMerkleRoot`, which on the real
 * networks rebuilds the header and checks its proof of work: a provider cannot claim a replaced block
 * without one. A height the chain does not have (yet) is unknown, not replaced: a provider behind the
 * others must not undo what a block holds. Throws when the chain cannot be asked (nothing is concluded).
 */
export async function replacedFrom(chain: ChainProvider, blocks: readonly ProvenBlock[]): Promise<number | null> {
  for (const b of [...blocks].sort((x, y) => x.height - y.height)) {
    const root = await chain.getMerkleRoot(b.height);
    if (root !== null && root !== b.merkleRoot) return b.height;
  }
  return null;
}
