import { createECDH, createHash, createHmac, pbkdf2Sync } from 'node:crypto';

/**
 * An independent BIP39/BIP32/BIP44 implementation on node:crypto only, used as the oracle for the
 * wallet engine (which derives through @bsv/sdk). Private derivation only; test code, not for keys.
 */
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

const toBig = (b: Buffer) => BigInt(`0x${b.toString('hex') || '0'}`);
const to32 = (n: bigint) => Buffer.from(n.toString(16).padStart(64, '0'), 'hex');

export function compressedPub(priv: Buffer): Buffer {
  const ecdh = createECDH('secp256k1');
  ecdh.setPrivateKey(priv);
  return Buffer.from(ecdh.getPublicKey(null, 'compressed'));
}

export function seedFromMnemonic(mnemonic: string, passphrase = ''): Buffer {
  return pbkdf2Sync(mnemonic.normalize('NFKD'), `mnemonic${passphrase}`.normalize('NFKD'), 2048, 64, 'sha512');
}

interface Node {
  key: Buffer;
  chainCode: Buffer;
}

export function masterFromSeed(seed: Buffer): Node {
  const I = createHmac('sha512', 'Bitcoin seed').update(seed).digest();
  return { key: I.subarray(0, 32), chainCode: I.subarray(32) };
}

function child(node: Node, index: number): Node {
  const hardened = index >= 0x80000000;
  const data = Buffer.alloc(37);
  if (hardened) node.key.copy(data, 1);
  else compressedPub(node.key).copy(data, 0);
  data.writeUInt32BE(index, 33);
  const I = createHmac('sha512', node.chainCode).update(data).digest();
  const key = (toBig(I.subarray(0, 32)) + toBig(node.key)) % N;
  return { key: to32(key), chainCode: I.subarray(32) };
}

export function derivePath(node: Node, path: string): Node {
  const parts = path.split('/');
  if (parts[0] !== 'm') throw new Error(`bad path ${path}`);
  return parts.slice(1).reduce((n, p) => child(n, p.endsWith("'") ? Number(p.slice(0, -1)) + 0x80000000 : Number(p)), node);
}

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
export function base58check(payload: Buffer): string {
  const sum = createHash('sha256').update(createHash('sha256').update(payload).digest()).digest().subarray(0, 4);
  const bytes = Buffer.concat([payload, sum]);
  let n = toBig(bytes);
  let out = '';
  while (n > 0n) {
    out = B58[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = `1${out}`;
  }
  return out;
}

export function p2pkhAddress(pub: Buffer): string {
  const h160 = createHash('ripemd160').update(createHash('sha256').update(pub).digest()).digest();
  return base58check(Buffer.concat([Buffer.from([0x00]), h160]));
}

/** The mainnet P2PKH address at `path` for a BIP39 phrase. */
export function oracleAddress(mnemonic: string, path: string): string {
  return p2pkhAddress(compressedPub(derivePath(masterFromSeed(seedFromMnemonic(mnemonic)), path).key));
}
