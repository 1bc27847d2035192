import { Hash, Utils } from '@bsv/sdk';

export interface BlockHeader {
  version: number;
  prevHash: string;
  merkleRoot: string;
  time: number;
  bits: number;
  nonce: number;
}

/** The local chain does no proof of work; its bits say "regtest difficulty" and the nonce stays 0. */
export const LOCAL_BITS = 0x207fffff;

/** The 80-byte header, hashes written in internal (reversed) order as on the wire. */
export function serializeHeader(h: BlockHeader): number[] {
  const w = new Utils.Writer();
  w.writeUInt32LE(h.version);
  w.write(Utils.toArray(h.prevHash, 'hex').reverse());
  w.write(Utils.toArray(h.merkleRoot, 'hex').reverse());
  w.writeUInt32LE(h.time);
  w.writeUInt32LE(h.bits);
  w.writeUInt32LE(h.nonce);
  return w.toArray();
}

export function blockHash(h: BlockHeader): string {
  return Utils.toHex(Hash.hash256(serializeHeader(h)).reverse());
}

export const ZERO_HASH = '00'.repeat(32);

/** The merkle root a header commits to (bytes 36–68, internal order), written as txids are. */
export function merkleRootOfHeader(headerHex: string): string | null {
  if (!/^[0-9a-f]{160}$/i.test(headerHex)) return null;
  return Buffer.from(headerHex.slice(72, 136), 'hex').reverse().toString('hex');
}

/** A header's own hash and the hash of the block it builds on (bytes 4–36), both written as block hashes are; null if not a header. */
export function headerLinks(headerHex: string): { hash: string; prevHash: string } | null {
  if (!/^[0-9a-f]{160}$/i.test(headerHex)) return null;
  const bytes = Utils.toArray(headerHex, 'hex');
  return { hash: Utils.toHex(Hash.hash256(bytes).reverse()), prevHash: Utils.toHex(bytes.slice(4, 36).reverse()) };
}
