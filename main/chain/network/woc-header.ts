import { Utils } from '@bsv/sdk';
import { blockHash, serializeHeader, ZERO_HASH, type BlockHeader } from '../block.js';

const HASH = /^[0-9a-f]{64}$/;
const u32 = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffffffff;

/** Why a WhatsOnChain header answer was not believed. */
export class UntrustedHeader extends Error {}

/** The target a block's hash must not exceed, from its compact `bits`. */
export function targetOf(bits: number): bigint {
  const exponent = bits >>> 24;
  const mantissa = BigInt(bits & 0x007fffff);
  return exponent <= 3 ? mantissa >> BigInt(8 * (3 - exponent)) : mantissa << BigInt(8 * (exponent - 3));
}

/** The target of difficulty 1 (bits 1d00ffff): the easiest either real network allows (its proof-of-work limit). */
const DIFFICULTY_1 = targetOf(0x1d00ffff);

/**
 * The least difficulty a main-network block at a height has to show, by the height it starts at: far below
 * what the chain has had at each (about 14,000 at block 100,000, 2.9 million at 200,000, 8.9 billion at
 * 300,000, 160 billion at 400,000, and tens of billions since the fork of November 2018), so that no real block
 * falls short, while a header forged for a recent height costs at least 2^62 hashes instead of a few.
 */
const MAINNET_FLOORS: readonly (readonly [fromHeight: number, difficulty: bigint])[] = [
  [400_000, 1_000_000_000n],
  [300_000, 100_000_000n],
  [200_000, 100_000n],
  [100_000, 500n],
  [0, 1n],
];

/**
 * The largest target a header at `height` may carry on `network`, or null where no work is done (a local
 * node). Testnet allows difficulty-1 blocks at any height (its 20-minute rule), so there only the limit holds.
 */
export function maxTargetAt(network: string, height: number): bigint | null {
  if (network === 'testnet') return DIFFICULTY_1;
  if (network !== 'mainnet') return null;
  const floor = MAINNET_FLOORS.find(([from]) => height >= from)?.[1] ?? 1n;
  return DIFFICULTY_1 / floor;
}

/**
 * The 80-byte header (hex) rebuilt from WhatsOnChain's answer for block `height`. The answer is hostile
 * input: it must be the block asked for, its fields must hash to the hash it names, and, where the chain
 * does proof of work (`maxTarget`, from maxTargetAt), its target must be no easier than the network's blocks
 * at that height have and its hash must meet it. What stays trusted is that the block is on the best chain
 * (no header chain is kept here): SECURITY.md says so.
 */
export function headerFromWoc(body: unknown, height: number, maxTarget: bigint | null): string {
  if (typeof body !== 'object' || body === null) throw new UntrustedHeader('not a JSON object');
  const b = body as Record<string, unknown>;
  if (b.height !== height) throw new UntrustedHeader(`it is the header of block ${String(b.height)}, not ${height}`);
  const prev = b.previousblockhash ?? (height === 0 ? ZERO_HASH : undefined);
  const bits = typeof b.bits === 'string' && /^[0-9a-f]{1,8}$/i.test(b.bits) ? parseInt(b.bits, 16) : NaN;
  if (
    !u32(b.version) ||
    typeof prev !== 'string' ||
    !HASH.test(prev) ||
    typeof b.merkleroot !== 'string' ||
    !HASH.test(b.merkleroot) ||
    !u32(b.time) ||
    !u32(bits) ||
    !u32(b.nonce) ||
    typeof b.hash !== 'string' ||
    !HASH.test(b.hash)
  ) {
    throw new UntrustedHeader('its fields are not those of a block header');
  }
  const header: BlockHeader = { version: b.version, prevHash: prev, merkleRoot: b.merkleroot, time: b.time, bits, nonce: b.nonce };
  const hash = blockHash(header);
  if (hash !== b.hash) throw new UntrustedHeader(`its fields hash to ${hash}, not to the block hash it names`);
  if (maxTarget !== null) {
    if (targetOf(bits) > maxTarget)
      throw new UntrustedHeader(`its difficulty (bits ${bits.toString(16)}) is below any this network's blocks at height ${height} have`);
    if (BigInt(`0x${hash}`) > targetOf(bits)) throw new UntrustedHeader('its hash does not meet its own proof-of-work target');
  }
  return Utils.toHex(serializeHeader(header));
}
