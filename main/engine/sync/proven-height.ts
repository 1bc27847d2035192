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

/** Whether the BUMP `pathHex` leads from `txid` to the merkle root of the block the chain has at `height`. */
export async function pathProves(chain: ChainProvider, txid: string, height: number, pathHex: string): Promise<boolean> {
  let root: string;
  try {
    const path = MerklePath.fromHex(pathHex);
    if (path.blockHeight !== height) return false;
    root = path.computeRoot(txid);
  } catch {
    return false; // not a path, or not one that holds this txid
  }
  const want = await chain.getMerkleRoot(height).catch(() => null);
  return want !== null && want === root;
}

/**
 * `claimed` if the chain proves the transaction is in the block at that height, else null (keep it
 * unconfirmed; a later check may prove it). `knownPath` is a path already in hand (from ARC's status).
 */
export async function provenHeight(chain: ChainProvider, txid: string, claimed: number, knownPath?: string | null): Promise<number | null> {
  if (knownPath && (await pathProves(chain, txid, claimed, knownPath))) return claimed;
  const status = knownPath === undefined ? await chain.getTxStatus(txid).catch(() => null) : null;
  if (status?.state === 'mined' && status.merklePath && (await pathProves(chain, txid, claimed, status.merklePath))) return claimed;
  const indexed = chain.getMerkleProof ? await chain.getMerkleProof(txid, claimed).catch(() => null) : null;
  if (indexed && (await pathProves(chain, txid, claimed, indexed))) return claimed;
  return null;
}
