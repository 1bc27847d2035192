import { headerLinks, merkleRootOfHeader } from '../../chain/block.js';
import type { ChainProvider } from '../../chain/types.js';
import type { KeptBlock } from '../../store/repos/proven-blocks.js';

/**
 * How deep a reorganisation of a polled chain is followed: blocks this many below the highest block the books
 * proved a transaction in are taken as final (the network's own coinbase maturity), and forgotten.
 */
export const FOLLOWED_DEPTH = 100;

/** How many ancestors of a proved block are kept, each checked to link to the next: where a replacement must link. */
export const KEPT_ANCESTORS = 10;

/**
 * Most headers one check asks for while following replaced blocks down to kept ones: a provider answering
 * other roots at every proved height must not make each new tip cost thousands of requests.
 */
export const HEADERS_PER_CHECK = 2 * FOLLOWED_DEPTH;

type Header = Omit<KeptBlock, 'proved'>;

/** The header the chain serves at `height`, read (its hash, the hash it builds on, its merkle root), or null. */
async function headerAt(chain: ChainProvider, height: number): Promise<Header | null> {
  const hex = await chain.getBlockHeader(height);
  const merkleRoot = hex ? merkleRootOfHeader(hex) : null;
  const links = hex ? headerLinks(hex) : null;
  return merkleRoot !== null && links !== null ? { height, ...links, merkleRoot } : null;
}

/**
 * The headers to keep for a block just proved at `height` with `merkleRoot`: its own and its ancestors', down
 * to one already kept that it links to or KEPT_ANCESTORS below, each linking to the next by its hash. Nothing
 * is kept unless the chain's header at that height carries the proved root; the ancestors stop at the first
 * that does not link (a provider's header for a height is believed only as part of a chain of them).
 */
export async function headersToKeep(
  chain: ChainProvider,
  height: number,
  merkleRoot: string,
  kept: (height: number) => KeptBlock | null,
): Promise<KeptBlock[]> {
  const own = await headerAt(chain, height);
  if (!own || own.merkleRoot !== merkleRoot) return [];
  const blocks: KeptBlock[] = [{ ...own, proved: true }];
  let child: Header = own;
  for (let h = height - 1; h >= Math.max(0, height - KEPT_ANCESTORS); h--) {
    if (kept(h)?.hash === child.prevHash) break;
    const parent = await headerAt(chain, h);
    if (!parent || parent.hash !== child.prevHash) break;
    blocks.push({ ...parent, proved: false });
    child = parent;
  }
  return blocks;
}

/**
 * The lowest height at which the chain now has another block than the one the books proved transactions in,
 * or null when every such block still stands. Another root at a proved height is believed only when the
 * chain's headers link that block, each to the one before, down to a header the books kept (the proved ones
 * and their ancestors, kept as they were proved): a header names no height of its own, so a genuine header of
 * another block served as this height's links to nothing the books know, and replacing a block costs its
 * proof of work at the network's difficulty. A height the chain does not have (yet) is unknown, not replaced:
 * a provider behind the others must not undo what a block holds. Throws when the chain cannot be asked.
 */
export async function replacedFrom(
  chain: ChainProvider,
  proved: readonly KeptBlock[],
  kept: (height: number) => KeptBlock | null,
): Promise<number | null> {
  const sorted = [...proved].sort((x, y) => x.height - y.height);
  const budget = { headers: HEADERS_PER_CHECK, lowest: sorted[0]?.height ?? 0 };
  for (const b of sorted) {
    const root = await chain.getMerkleRoot(b.height);
    if (root === null || root === b.merkleRoot) continue;
    if (await linksToKept(chain, b.height, root, kept, budget)) return b.height;
    if (budget.headers <= 0) break;
  }
  return null;
}

/** Whether the chain's header at `height` (with `root`) links, header by header, down to a kept one. */
async function linksToKept(
  chain: ChainProvider,
  height: number,
  root: string,
  kept: (height: number) => KeptBlock | null,
  budget: { headers: number; lowest: number },
): Promise<boolean> {
  if (budget.headers-- <= 0) return false;
  let child = await headerAt(chain, height);
  if (!child || child.merkleRoot !== root) return false;
  // Down to the lowest kept header's ancestors at most: below them there is nothing kept to link to.
  const floor = Math.max(0, height - FOLLOWED_DEPTH, budget.lowest - KEPT_ANCESTORS - 1);
  for (let h = height - 1; h >= floor; h--) {
    const known = kept(h);
    if (known && known.hash === child.prevHash) return true;
    if (budget.headers-- <= 0) return false;
    const parent = await headerAt(chain, h);
    if (!parent || parent.hash !== child.prevHash) return false;
    child = parent;
  }
  return false;
}
