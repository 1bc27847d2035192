import { MerklePath } from '@bsv/sdk';
import type { ChainProvider } from '../../chain/types.js';

/**
 * A block height is the chain's last word on a transaction (the books never undo a mined one), so on a
 * provider's say-so alone a lying indexer could date a transaction it invented into a block and make its
 * coins permanent. A height is believed only with a merkle path from the transaction to the merkle root of
 * the block at that height: the root comes from `getMerkleRoot` (on the real networks, from the header that
 * `getBlockHeader` rebuilt and checked for proof of work), and the path from ARC's status or, when ARC does
 * not have the transaction, from the indexer's proof (`getMerkleProof`). Without both, the transaction is not
 * dated into a block (and is booked unconfirmed only on a node's word: unconfirmed-vouching.ts).
 */

/** The merkle root of the block the chain has at `height` if the BUMP `pathHex` leads there from `txid`; else null. */
async function rootProved(chain: ChainProvider, txid: string, height: number, pathHex: string): Promise<string | null> {
  let root: string;
  try {
    const path = MerklePath.fromHex(pathHex);
    if (path.blockHeight !== height) return null;
    root = path.computeRoot(txid);
  } catch {
    return null; // not a path, or not one that holds this txid
  }
  const want = await chain.getMerkleRoot(height).catch(() => null);
  return want !== null && want === root ? root : null;
}

/**
 * `claimed` if the chain proves the transaction is in the block at that height, else null (keep it
 * unconfirmed; a later check may prove it). `knownPath` is a path already in hand (from ARC's status).
 * `proved` is told the block's merkle root when it does (the books keep it to notice a reorganisation).
 */
export async function provenHeight(
  chain: ChainProvider,
  txid: string,
  claimed: number,
  knownPath?: string | null,
  proved?: (height: number, merkleRoot: string) => void,
): Promise<number | null> {
  const root = await provingRoot(chain, txid, claimed, knownPath);
  if (root === null) return null;
  proved?.(claimed, root);
  return claimed;
}

async function provingRoot(chain: ChainProvider, txid: string, claimed: number, knownPath?: string | null): Promise<string | null> {
  if (knownPath) {
    const root = await rootProved(chain, txid, claimed, knownPath);
    if (root !== null) return root;
  }
  const status = knownPath === undefined ? await chain.getTxStatus(txid).catch(() => null) : null;
  if (status?.state === 'mined' && status.merklePath) {
    const root = await rootProved(chain, txid, claimed, status.merklePath);
    if (root !== null) return root;
  }
  const indexed = chain.getMerkleProof ? await chain.getMerkleProof(txid, claimed).catch(() => null) : null;
  return indexed ? rootProved(chain, txid, claimed, indexed) : null;
}
