import type { Db } from '../database.js';

export interface ProvenBlock {
  height: number;
  merkleRoot: string;
}

/**
 * The merkle root each booked height was proved against (reorganisations.ts compares them with the chain's).
 * The first proof at a height is kept: a later proof against another root means the block changed, which
 * the next check finds.
 */
export function createProvenBlockRepo(db: Db) {
  const note = db.prepare('INSERT OR IGNORE INTO proven_blocks (height, merkle_root) VALUES (?, ?)');
  const from = db.prepare<[number], { height: number; merkle_root: string }>(
    'SELECT height, merkle_root FROM proven_blocks WHERE height >= ? ORDER BY height',
  );
  const dropFrom = db.prepare('DELETE FROM proven_blocks WHERE height >= ?');
  const dropBelow = db.prepare('DELETE FROM proven_blocks WHERE height < ?');
  return {
    note(height: number, merkleRoot: string): void {
      note.run(height, merkleRoot);
    },
    /** The blocks at `height` and above, lowest first. */
    from(height: number): ProvenBlock[] {
      return from.all(height).map((r) => ({ height: r.height, merkleRoot: r.merkle_root }));
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
