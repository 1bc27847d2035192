import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Hash, Utils } from '@bsv/sdk';
import type { ChainProvider } from '../../main/chain/types.js';
import { HEADERS_PER_CHECK, replacedFrom } from '../../main/engine/sync/reorganisations.js';
import type { KeptBlock } from '../../main/store/repos/proven-blocks.js';

const hex = (n: number, bytes: number) => n.toString(16).padStart(bytes * 2, '0');
const hashOf = (h: string) => Utils.toHex(Hash.hash256(Utils.toArray(h, 'hex')).reverse());
const reversed = (h: string) => Utils.toHex(Utils.toArray(h, 'hex').reverse());

/** A chain of headers from 0 to `tip`, each linking to the one before, with made-up roots (`seed` varies them). */
function linkedChain(tip: number, seed: number): { header: string; root: string }[] {
  const out: { header: string; root: string }[] = [];
  let prev = '00'.repeat(32);
  for (let h = 0; h <= tip; h++) {
    const root = hashOf(hex(h, 4) + hex(seed, 4));
    const header = '01000000' + reversed(prev) + reversed(root) + hex(h, 4) + 'ffff7f20' + '00000000';
    out.push({ header, root });
    prev = hashOf(header);
  }
  return out;
}

it('a provider answering other, linked blocks at every proved height costs a check at most HEADERS_PER_CHECK headers, and replaces nothing', async () => {
  const theirs = linkedChain(2_000, 2);
  let headers = 0;
  const chain = {
    getMerkleRoot: async (h: number) => theirs[h]?.root ?? null,
    getBlockHeader: async (h: number) => {
      headers++;
      return theirs[h]?.header ?? null;
    },
  } as unknown as ChainProvider;
  // The books proved a transaction in each of 300 blocks of their own chain (other roots, other hashes).
  const ours = linkedChain(2_000, 1);
  const kept = new Map<number, KeptBlock>();
  for (let h = 1_700; h < 2_000; h++)
    kept.set(h, {
      height: h,
      hash: hashOf(ours[h].header),
      prevHash: hashOf(ours[h - 1].header),
      merkleRoot: ours[h].root,
      proved: true,
    });
  const from = await replacedFrom(chain, [...kept.values()], (h) => kept.get(h) ?? null);
  assert.equal(from, null, 'nothing of theirs links to a kept header');
  assert.ok(headers <= HEADERS_PER_CHECK, `${headers} headers asked for in one check`);
});

it('a fork that links to a kept header is found at the lowest replaced proved block', async () => {
  const ours = linkedChain(120, 1);
  // Theirs is ours up to 109, then other blocks from 110 on, linked to our 109.
  const fork = linkedChain(120, 3);
  const theirs = ours.slice(0, 110);
  let prev = hashOf(ours[109].header);
  for (let h = 110; h <= 120; h++) {
    const header = '01000000' + reversed(prev) + reversed(fork[h].root) + hex(h, 4) + 'ffff7f20' + '00000000';
    theirs.push({ header, root: fork[h].root });
    prev = hashOf(header);
  }
  const chain = {
    getMerkleRoot: async (h: number) => theirs[h]?.root ?? null,
    getBlockHeader: async (h: number) => theirs[h]?.header ?? null,
  } as unknown as ChainProvider;
  const kept = new Map<number, KeptBlock>();
  for (const h of [105, 112, 115]) {
    kept.set(h, { height: h, hash: hashOf(ours[h].header), prevHash: hashOf(ours[h - 1].header), merkleRoot: ours[h].root, proved: true });
    kept.set(h - 1, {
      height: h - 1,
      hash: hashOf(ours[h - 1].header),
      prevHash: hashOf(ours[h - 2].header),
      merkleRoot: ours[h - 1].root,
      proved: false,
    });
  }
  assert.equal(
    await replacedFrom(
      chain,
      [...kept.values()].filter((b) => b.proved),
      (h) => kept.get(h) ?? null,
    ),
    112,
  );
});
