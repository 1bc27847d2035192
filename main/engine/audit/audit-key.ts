import { createCipheriv, createDecipheriv, createHash, createPublicKey, hkdfSync, randomBytes } from 'node:crypto';
import { BigNumber, Signature } from '@bsv/sdk';
import { publicKeyOf, signDigest, verifyDigest } from '../../crypto/secp256k1.js';

/**
 * The organisation's audit key: a secp256k1 key made at first use that signs the daily checkpoints. It is
 * kept only sealed (AES-256-GCM under a key derived by HKDF from the data dir's sealing key, as wallet
 * seeds are), inside the encrypted database; the private key is never written in plaintext, answered or
 * logged. The public key is shown so an auditor can check signatures with any ECDSA tool.
 */
export const AUDIT_KEY_SETTING = 'audit.key';
const INFO = 'keystead audit key';

interface SealedKey {
  v: 1;
  salt: string;
  iv: string;
  tag: string;
  ct: string;
}

/** The curve order n: a private key is in [1, n-1]. */
const N = BigInt('0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141');

function newPrivateKey(): Buffer {
  for (;;) {
    const k = randomBytes(32);
    const n = BigInt(`0x${k.toString('hex')}`);
    if (n > 0n && n < N) return k;
  }
}

const wrapKey = (sealingKey: Buffer, salt: Buffer) => Buffer.from(hkdfSync('sha256', sealingKey, salt, INFO, 32));

function seal(privateKey: Buffer, sealingKey: Buffer): string {
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', wrapKey(sealingKey, salt), iv);
  cipher.setAAD(Buffer.from(INFO));
  const ct = Buffer.concat([cipher.update(privateKey), cipher.final()]);
  const sealed: SealedKey = {
    v: 1,
    salt: salt.toString('base64'),
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    ct: ct.toString('base64'),
  };
  return JSON.stringify(sealed);
}

function unseal(text: string, sealingKey: Buffer): Buffer {
  const sealed = JSON.parse(text) as SealedKey;
  try {
    const decipher = createDecipheriv(
      'aes-256-gcm',
      wrapKey(sealingKey, Buffer.from(sealed.salt, 'base64')),
      Buffer.from(sealed.iv, 'base64'),
    );
    decipher.setAAD(Buffer.from(INFO));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(sealed.ct, 'base64')), decipher.final()]);
  } catch {
    throw new Error('the audit key failed to unseal with the data dir key'); // corruption: a bug, not a user error
  }
}

/** The text a checkpoint's signature covers (README, "Audit trail"). */
/** What a checkpoint signs; a late one says so (an attacker cannot make a late checkpoint read as on time). */
export function checkpointMessage(c: { day: string; lastId: number; lastHash: string; late?: boolean }): string {
  return `keystead audit checkpoint v1\n${c.day}\n${c.lastId}\n${c.lastHash}${c.late ? '\nlate' : ''}`;
}

const digestOf = (message: string) => createHash('sha256').update(message, 'utf8').digest();

/** Whether `signatureHex` (DER) is the audit key `publicKeyHex`'s signature of SHA-256(message). */
export function verifyCheckpointSignature(message: string, signatureHex: string, publicKeyHex: string): boolean {
  try {
    const sig = Signature.fromDER(signatureHex, 'hex');
    const r = Uint8Array.from(sig.r.toArray('be', 32));
    const s = Uint8Array.from(sig.s.toArray('be', 32));
    return verifyDigest(digestOf(message), { r, s }, Buffer.from(publicKeyHex, 'hex'));
  } catch {
    return false;
  }
}

/** An uncompressed secp256k1 public key (65 bytes) as PEM (SubjectPublicKeyInfo), for openssl. */
export function publicKeyPem(uncompressed: Uint8Array): string {
  const b64url = (b: Uint8Array) => Buffer.from(b).toString('base64url');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'secp256k1', x: b64url(uncompressed.subarray(1, 33)), y: b64url(uncompressed.subarray(33)) },
    format: 'jwk',
  });
  return key.export({ type: 'spki', format: 'pem' }).toString();
}

export interface AuditKeyDeps {
  settings: { getOrInit(key: string, make: () => string): string };
  /** The data dir's sealing key (created on first use, kept in the encrypted database). */
  sealingKey(): Buffer;
}

/** The audit key, unsealed once on first use and kept in memory for the life of the engine. */
export class AuditKey {
  private key: Buffer | null = null;
  private pub: { hex: string; pem: string } | null = null;

  constructor(private readonly deps: AuditKeyDeps) {}

  private privateKey(): Buffer {
    if (!this.key) {
      const sealingKey = this.deps.sealingKey();
      const sealed = this.deps.settings.getOrInit(AUDIT_KEY_SETTING, () => seal(newPrivateKey(), sealingKey));
      this.key = unseal(sealed, sealingKey);
    }
    return this.key;
  }

  /** The public key, compressed, hex; and as PEM. Creates the key on first use. */
  publicKey(): { hex: string; pem: string } {
    if (!this.pub) {
      const priv = this.privateKey();
      const hex = Buffer.from(publicKeyOf(priv)).toString('hex');
      this.pub = { hex, pem: publicKeyPem(publicKeyOf(priv, false)) };
    }
    return this.pub;
  }

  /** ECDSA over SHA-256 of the message (RFC 6979, low S), DER, hex. */
  sign(message: string): string {
    const { r, s } = signDigest(digestOf(message), this.privateKey());
    return new Signature(new BigNumber([...r]), new BigNumber([...s])).toDER('hex') as string;
  }
}
