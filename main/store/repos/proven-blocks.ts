import type { Db } from '../database.js';

/** A block header the books keep: one they proved a transaction in, or one of its ancestors. */
export interface KeptBlock {
  height: number;
  hash: string;
  prevHash: string;
  merkleRoot: string;
  /** true: the books proved a transaction in it; false: an ancestor, kept to check a reorganisation's link. */
  proved: boolean;
}

interface Raw {
  height: number;
  block_hash: string;
  prev_hash: string;
  merkle_root: string;
  proved: number;
}

const toBlock = (r: Raw): KeptBlock => ({
  height: r.height,
  hash: r.block_hash,
  prevHash: r.prev_hash,
  merkleRoot: r.merkle_root,
  proved: r.proved === 1,
});

/**
 * The headers of the blocks the books proved transactions in, and of their ancestors (reorganisations.ts).
 * The first header kept at a height stays: another one later means the block changed, which a check finds.
 */
export function createProvenBlockRepo(db: Db) {
  const keep = db.prepare(
    `INSERT INTO proven_blocks (height, block_hash, prev_hash, merkle_root, proved) VALUES (@height, @hash, @prevHash, @merkleRoot, @proved)
     ON CONFLICT (height) DO UPDATE SET proved = 1 WHERE excluded.proved = 1 AND block_hash = excluded.block_hash`,
  );
  const at = db.prepare<[number], Raw>('SELECT * FROM proven_blocks WHERE height = ?');
  const proved = db.prepare<[], Raw>('SELECT * FROM proven_blocks WHERE proved = 1 ORDER BY height');
  const highestProved = db.prepare<[], { h: number | null }>('SELECT max(height) AS h FROM proven_blocks WHERE proved = 1');
  const dropFrom = db.prepare('DELETE FROM proven_blocks WHERE height >= ?');
  const dropBelow = db.prepare('DELETE FROM proven_blocks WHERE height < ?');
  return {
    keep(blocks: readonly KeptBlock[]): void {
      for (const b of blocks) keep.run({ ...b, proved: b.proved ? 1 : 0 });
    },
    at(height: number): KeptBlock | null {
      const r = at.get(height);
      return r ? toBlock(r) : null;
    },
    /** The blocks the books proved transactions in, lowest first. */
    proved(): KeptBlock[] {
      return proved.all().map(toBlock);
    },
    highestProved(): number | null {
      return highestProved.get()!.h;
    },
    dropFrom(height: number): void {
      dropFrom.run(height);
    },
    dropBelow(height: number): void {
      dropBelow.run(height);
    },
  };
}
export type ProvenBlockRepo = ReturnType<typeof createProvenBlockRepo>;
