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

/**
 * The 80-byte header (hex) rebuilt from WhatsOnChain's answer for block `height`. The answer is hostile
 * input: it must be the block asked for, its fields must hash to the hash it names, and, where the chain
 * does proof of work, that hash must meet its own target. What stays trusted is that the block is on the
 * best chain (no header chain is kept here): SECURITY.md says so.
 */
export function headerFromWoc(body: unknown, height: number, checkWork: boolean): string {
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
  if (checkWork && BigInt(`0x${hash}`) > targetOf(bits)) throw new UntrustedHeader('its hash does not meet its own proof-of-work target');
  return Utils.toHex(serializeHeader(header));
}
