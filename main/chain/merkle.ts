import { Hash, MerklePath, Utils } from '@bsv/sdk';

/** Txids and merkle hashes are hex in display order (byte-reversed); hashing works on the internal order. */
function combine(left: string, right: string): string {
  const bytes = [...Utils.toArray(left, 'hex').reverse(), ...Utils.toArray(right, 'hex').reverse()];
  return Utils.toHex(Hash.hash256(bytes).reverse());
}

/** Every level of the tree, leaves first; an odd level's last hash pairs with itself (Bitcoin's rule). */
export function merkleLevels(txids: readonly string[]): string[][] {
  if (txids.length === 0) throw new Error('a block has at least its coinbase');
  const levels: string[][] = [[...txids]];
  while (levels[levels.length - 1].length > 1) {
    const level = levels[levels.length - 1];
    const next: string[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(combine(level[i], level[i + 1] ?? level[i]));
    levels.push(next);
  }
  return levels;
}

export function merkleRoot(txids: readonly string[]): string {
  const levels = merkleLevels(txids);
  return levels[levels.length - 1][0];
}

/** The BUMP (BRC-74) proving the tx at `index` is in a block of these txids at `height`. */
export function merklePathFor(txids: readonly string[], index: number, height: number): MerklePath {
  const levels = merkleLevels(txids);
  const path: { offset: number; hash?: string; txid?: boolean; duplicate?: boolean }[][] = [];
  for (let h = 0; h < levels.length - 1; h++) {
    const offset = index >> h;
    const sibling = offset ^ 1;
    const level = levels[h];
    const entries: { offset: number; hash?: string; txid?: boolean; duplicate?: boolean }[] = [];
    if (h === 0) entries.push({ offset, hash: level[offset], txid: true });
    if (sibling < level.length) entries.push({ offset: sibling, hash: level[sibling] });
    else entries.push({ offset: sibling, duplicate: true });
    path.push(entries.sort((a, b) => a.offset - b.offset));
  }
  if (path.length === 0) path.push([{ offset: 0, hash: txids[0], txid: true }]); // a block of one tx
  return new MerklePath(height, path);
}
